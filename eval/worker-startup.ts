// Where a `pith batch` worker's start-up goes, phase by phase: Node's own start until the first line of code runs,
// importing the extraction code (dist/, as the workers run it), loading the model (onnxruntime's WebAssembly and
// the three nets, timed as the first extraction of a one-line page), and the warm-up (src/hosts/node/batch-prime.ts). Each run
// is a fresh `node` process with the V8 flags of the workers of `--jobs 1` and of `--jobs 2` on two cores
// (src/hosts/node/batch.ts, workerV8Flags); medians of the runs.
//
//   npx tsx eval/worker-startup.ts [--runs 5]      (build first: npm run build)

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { workerV8Flags } from '../src/hosts/node/batch.js';
import { median } from '../dev/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PHASES = ['node', 'import', 'model', 'warmUp'] as const;
type Phases = Record<(typeof PHASES)[number], number>;

/** The code each child runs: milliseconds per phase, as one JSON line. */
function childCode(): string {
  const dist = (file: string): string => JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'src', 'hosts', 'node', file)).href);
  return `
    const t0 = performance.now(); // milliseconds since the process started
    const { extractItem } = await import(${dist('batch-extract.js')});
    const { primeExtraction } = await import(${dist('batch-prime.js')});
    const t1 = performance.now();
    const line = await extractItem({ id: 'model', url: 'https://example.com/', html: '<p>x</p>' }, undefined);
    if (line.error !== undefined) throw new Error(line.error);
    const t2 = performance.now();
    await primeExtraction(undefined, 'text');
    const t3 = performance.now();
    console.log(JSON.stringify({ node: t0, import: t1 - t0, model: t2 - t1, warmUp: t3 - t2 }));`;
}

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: 'string' } } });
  const runs = Number(values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  if (!existsSync(join(ROOT, 'dist', 'src', 'hosts', 'node', 'batch-extract.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const settings: Array<[string, string[]]> = [
    ['workers of --jobs 1', workerV8Flags(1, 2)],
    ['workers of --jobs 2 on 2 cores', workerV8Flags(2, 2)],
  ];
  const code = childCode();
  process.stdout.write(`worker start-up, ms (median of ${runs} fresh processes each)\n\n| flags | ${PHASES.join(' | ')} | total |\n| --- |${' ---: |'.repeat(PHASES.length + 1)}\n`);
  // The two settings alternate, so that both see the machine at the same moments.
  const samples = settings.map(() => [] as Phases[]);
  for (let r = 0; r < runs; r++) {
    settings.forEach(([, flags], i) => {
      const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
      samples[i].push(JSON.parse(out.trim().split('\n').pop()!) as Phases);
    });
  }
  settings.forEach(([name], i) => {
    const cells = PHASES.map((p) => median(samples[i].map((s) => s[p])));
    const total = median(samples[i].map((s) => PHASES.reduce((a, p) => a + s[p], 0)));
    process.stdout.write(`| ${name} | ${cells.map((c) => c.toFixed(0)).join(' | ')} | ${total.toFixed(0)} |\n`);
  });
}

main();
