// What this machine's two cores give work that has nothing to do with pith: a compute-bound loop (integer arithmetic
// in registers) and a memory-bound one (random reads over 64 MB, far beyond the caches), each run once alone and
// then as two processes at the same time. The scaling of a round is 2 x (time alone) / (the slower of the two at
// once): 2.00x when the second core is as good as a core of its own. `pith batch --jobs 2` / `--jobs 1` cannot do
// better than what the machine gives work like its own, and pith's extraction (building a DOM, collecting garbage)
// is much of it memory-bound. docs/benchmarks.md, Bulk extraction.
//
//   npx tsx eval/machine-scaling.ts [--rounds 10]
//
// `npm run bench:bulk -- --pairs N` runs one round (machineScaling) before every pair of `pith batch` runs and after
// the last, so that each pair can be read beside what the machine gave at that time.
//
// Each kernel is a child process of this file (`--kernel compute|memory`) that times its own loop, so start-up is
// not counted.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../dev/stats.js';

/** The next number of a 32-bit xorshift sequence (small enough for V8 to inline into the loops). */
function xorshift(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  return x ^ (x << 5);
}

/** Seconds of a loop of integer arithmetic that stays in registers. */
function computeKernel(): number {
  const t0 = performance.now();
  let x = 0x9e3779b9 | 0;
  let sum = 0;
  for (let i = 0; i < 1_500_000_000; i++) {
    x = xorshift(x);
    sum = (sum + (x & 0xff)) | 0;
  }
  if (sum === 42) process.stderr.write(''); // keeps the loop from being optimised away
  return (performance.now() - t0) / 1000;
}

/** Seconds of random reads over a 64 MB array (filled first, not timed). */
function memoryKernel(): number {
  const entries = 1 << 24; // 16 M x 4 bytes
  const table = new Int32Array(entries);
  for (let i = 0; i < entries; i++) table[i] = Math.imul(i, 0x9e3779b1);
  const t0 = performance.now();
  let x = 0x9e3779b9 | 0;
  let sum = 0;
  for (let i = 0; i < 60_000_000; i++) {
    x = xorshift(x);
    sum = (sum + table[x & (entries - 1)]) | 0;
  }
  if (sum === 42) process.stderr.write('');
  return (performance.now() - t0) / 1000;
}

type Kernel = 'compute' | 'memory';

/** Runs one kernel in a child process and reads the seconds it prints. */
function runKernel(kernel: Kernel): Promise<number> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--kernel', kernel], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok(Number(out.trim())) : fail(new Error(`the ${kernel} kernel exited with ${code}`))));
  });
}

/** The scaling of one kernel: alone, then two at once (2.00x when the second core is a core of its own). */
async function scalingOf(kernel: Kernel): Promise<{ alone: number; together: number; scaling: number }> {
  const alone = await runKernel(kernel);
  const together = Math.max(...(await Promise.all([runKernel(kernel), runKernel(kernel)])));
  return { alone, together, scaling: (2 * alone) / together };
}

/** One round: the scaling of the compute-bound kernel, then of the memory-bound one (15-20 s here). */
export async function machineScaling(): Promise<Record<Kernel, number>> {
  return { compute: (await scalingOf('compute')).scaling, memory: (await scalingOf('memory')).scaling };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, kernel: { type: 'string' } } });
  if (values.kernel !== undefined) {
    if (values.kernel !== 'compute' && values.kernel !== 'memory') throw new Error(`unknown kernel ${values.kernel}`);
    process.stdout.write(`${values.kernel === 'compute' ? computeKernel() : memoryKernel()}\n`);
    return;
  }
  const rounds = Number(values.rounds ?? 10);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number of at least 1, got ${values.rounds}`);
  const scaling: Record<Kernel, number[]> = { compute: [], memory: [] };
  for (let round = 0; round < rounds; round++) {
    const parts: string[] = [];
    for (const kernel of ['compute', 'memory'] as const) {
      const { alone, together, scaling: x } = await scalingOf(kernel);
      scaling[kernel].push(x);
      parts.push(`${kernel} ${alone.toFixed(2)} s alone, ${together.toFixed(2)} s two at once: ${x.toFixed(2)}x`);
    }
    process.stderr.write(`round ${round + 1}/${rounds}: ${parts.join('; ')}\n`);
  }
  for (const kernel of ['compute', 'memory'] as const) {
    const xs = scaling[kernel];
    process.stdout.write(
      `${kernel}-bound, two processes / one: median ${median(xs).toFixed(2)}x, range ${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x, ${xs.filter((x) => x >= 1.7).length} of ${xs.length} rounds at 1.7x or more (${xs.map((x) => x.toFixed(2)).join(', ')})\n`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`machine-scaling: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
