// The extraction loop of a `pith batch` worker with nothing around it: one process reads and extracts the page files
// of a folder one after another, as a worker does, and reports the seconds of the loop alone (start-up, model
// loading and the workers' warm-up not counted). `npm run bench:bulk` runs it with the V8 flags of workers that fill
// every core (src/hosts/node/batch.ts, FULL_CORES_V8_FLAGS: one thread, no garbage-collector or compiler helper threads), once
// over all pages and once as two processes over the two halves at the same time: the ratio is what this machine gives
// pith's per-page work on two cores, the ceiling of `--jobs 2` / `--jobs 1`.
//
//   node --max-semi-space-size=64 --single-threaded --import tsx eval/extract-loop.ts <dir> [--every 2 --offset 0] [--no-warm-up]
//
// Prints one JSON line: {"pages", "wallS", "cpuS"} (CPU seconds of this process over the loop, all threads).

import { parseArgs } from 'node:util';
import { pageFilesOf } from '../src/hosts/node/batch.js';
import { extractItem } from '../src/hosts/node/batch-extract.js';
import { primeExtraction } from '../src/hosts/node/batch-prime.js';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { every: { type: 'string' }, offset: { type: 'string' }, 'no-warm-up': { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new Error('usage: node --import tsx eval/extract-loop.ts <dir> [--every K --offset I] [--no-warm-up]');
  const every = Number(values.every ?? 1);
  const offset = Number(values.offset ?? 0);
  const files = pageFilesOf(positionals[0]).filter((_, i) => i % every === offset);
  if (files.length === 0) throw new Error(`no page files in ${positionals[0]} (every ${every}, offset ${offset})`);
  // The model loads and the code warms up as in a worker (src/hosts/node/batch-prime.ts), before the clock starts; with
  // --no-warm-up only the model loads (on a one-line page), to measure what the warm-up gives.
  if (values['no-warm-up']) await extractItem({ id: 'model', url: 'https://example.com/', html: '<p>x</p>' }, undefined);
  else await primeExtraction(undefined, 'text');
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const path of files) {
    const line = await extractItem({ id: path, path }, undefined);
    if (line.error !== undefined) failed++;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${JSON.stringify({ pages: files.length, failed, wallS, cpuS: (cpu.user + cpu.system) / 1e6 })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`extract-loop: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
