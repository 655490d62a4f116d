// `npm run bench:bulk`: throughput of bulk extraction on this machine.
//
// 1. Pages per second per core of `pith batch` (the built CLI, `node bin/pith.js`, as users run it) over the WCXB
//    dev pages with --jobs 1 and --jobs 2, side by side with Readability.js on linkedom (eval/readability-batch.ts:
//    the same files, the same reading and decoding, one thread, the same V8 flags as pith's workers) in the same run,
//    once as one process and once as two processes over the two halves of the pages (both cores busy, as with
//    --jobs 2: then pages per second per core compare like with like). Each is a whole process, start-up included,
//    timed by wall clock (the two halves: until both end; their CPU seconds added). pith's two runs are back to back
//    in every round, and so are Readability.js's, so that each ratio per round compares runs minutes apart at most;
//    which of the two comes first, and which pair, alternates from round to round. The medians of the rounds are
//    reported.
// 2. The ceiling of --jobs 2 / --jobs 1 on this machine: pith's extraction loop alone (eval/extract-loop.ts under
//    the V8 flags of workers that fill every core, start-up not counted), one process over all pages against two over
//    the halves at once; and two pairs of loops over all pages at the same moment, both cores busy, each pair differing
//    in one choice of those flags: V8's helper threads or one thread, and V8's default compilers or patient ones
//    (src/hosts/node/batch.ts, FULL_CORES_V8_FLAGS).
// 3. End to end: a local job of --e2e-urls URLs through `npm start` (eval/bulk-job.ts), and the URLs it lost.
//
// Every whole run also reports the CPU time the hypervisor took from this virtual machine while it ran (the `steal`
// column of /proc/stat, all cores): on a shared host, a run that lost seconds to other tenants is slower for reasons
// that are not pith's.
//
// With --pairs N, only --jobs 2 / --jobs 1: N pairs of whole runs back to back (the order alternating, so that
// neither side always runs first), each pair's ratio, and the median over the pairs. On a machine whose speed drifts
// from minute to minute, adjacent pairs compare --jobs 2 with --jobs 1 at nearly the same moment. Each pair also
// shows the seconds stolen from the cores while a worker's main thread ran on them (WorkerSteal: a VM with one core
// idle, as during --jobs 1, loses more to the hypervisor, most of it on the idle core, where the worker is not), the
// ratio with those seconds taken out of both wall clocks, and what the machine's two cores gave other work before and
// after the pair (eval/machine-scaling.ts).
//
//   npm run bench:bulk -- [--rounds 3] [--limit <pages>] [--e2e-urls 1000] [--no-e2e]
//   npm run bench:bulk -- --pairs 10
//
// Writes eval/results/local/bench-bulk.json (untracked; bench-bulk-pairs.json with --pairs); --save writes the
// tracked eval/results/ copy. Needs the corpus at ../shared/data/wcxb-dev (or PITH_DATA_DIR).

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FULL_CORES_V8_FLAGS, WORKER_V8_FLAGS, pageFilesOf, workerV8Flags } from '../src/hosts/node/batch.js';
import { dataDir } from '../dev/corpus.js';
import { runLocalJob, type JobRun } from './bulk-job.js';
import { median } from '../dev/stats.js';
import { machineScaling } from './machine-scaling.js';
import { childrenOf, statFields } from './thread-cpu.js';
import { writeBenchmarkDocs } from '../dev/benchmarks-doc.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Timed {
  wallS: number;
  /** User + system CPU seconds of the process and its threads (GNU time). */
  cpuS: number;
  /** CPU seconds the hypervisor took from this machine's cores during the run (null where /proc/stat has no steal). */
  stolenS: number | null;
  /**
   * For `pith batch`: of stolenS, the seconds taken from the cores while a worker's main thread was running on them,
   * per worker (WorkerSteal); what the hypervisor added to the run's wall clock. Null for other runs.
   */
  workerStolenS?: number | null;
}

/** Stolen ticks so far of each core (the `steal` column of /proc/stat's cpuN lines), or null where there is none. */
function stolenPerCore(): number[] | null {
  try {
    const out: number[] = [];
    for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (!/^cpu\d+$/.test(f[0])) continue;
      if (f.length <= 8) return null;
      out[Number(f[0].slice(3))] = Number(f[8]);
    }
    return out.length > 0 ? out : null;
  } catch {
    return null;
  }
}

/**
 * Where the hypervisor's stolen time falls during a `pith batch` run: every 100 ms, the ticks stolen from each core
 * since the last look are counted when a worker's main thread is running on that core (/proc/<pid>/stat: state R,
 * and the core it last ran on). With `--jobs 1` the idle core's losses then do not count, and with `--jobs 2` both
 * cores' do, once per worker. `rootPid` is GNU time's process: its child is `pith batch`, whose children are the
 * workers.
 */
class WorkerSteal {
  private workers: number[] = [];
  private last: number[] | null = stolenPerCore();
  private ticks = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number, private readonly jobs: number) {
    this.timer = setInterval(() => this.look(), 100);
  }

  private look(): void {
    if (this.workers.length < this.jobs) this.workers = childrenOf(this.rootPid).flatMap((pid) => childrenOf(pid));
    const now = stolenPerCore();
    if (now === null || this.last === null) return;
    const busy = new Set<number>();
    for (const pid of this.workers) {
      const f = statFields(`/proc/${pid}/stat`);
      if (f !== null && f[0] === 'R') busy.add(Number(f[36]));
    }
    for (const core of busy) this.ticks += (now[core] ?? 0) - (this.last[core] ?? 0);
    this.last = now;
  }

  /** Seconds stolen from the workers' cores while they ran, per worker; null where /proc/stat has no steal. */
  stop(): number | null {
    clearInterval(this.timer);
    return this.last === null ? null : Math.round((this.ticks / 100 / this.jobs) * 100) / 100;
  }
}

/** CPU seconds stolen by the hypervisor so far, all cores (the sum of stolenPerCore, in USER_HZ ticks of 1/100 s). */
function stolenSoFar(): number | null {
  const perCore = stolenPerCore();
  return perCore === null ? null : perCore.reduce((sum, ticks) => sum + ticks, 0) / 100;
}

const stolenSince = (before: number | null): number | null => {
  const now = stolenSoFar();
  return before === null || now === null ? null : Math.round((now - before) * 100) / 100;
};

const fmtStolen = (s: number | null): string => (s === null ? 'n/a' : s.toFixed(1));

/** Runs a command under GNU time (/usr/bin/time) for its wall clock and CPU seconds. */
function timedRun(command: string, args: string[], workers?: number): Promise<Timed> {
  const timeFile = join(tmpdir(), `pith-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const stolen0 = stolenSoFar();
  return new Promise((ok, fail) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S', '-o', timeFile, command, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    const steal = workers === undefined ? null : new WorkerSteal(child.pid!, workers);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('error', (err) => {
      steal?.stop();
      fail(new Error(`cannot run /usr/bin/time (apt-get install -y time): ${err.message}`));
    });
    child.on('exit', (code) => {
      const workerStolenS = steal?.stop();
      // pith batch exits 1 when some page failed; that is a result, not a broken run (failures are counted below).
      if (code !== 0 && code !== 1) return fail(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`));
      const [wall, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
      rmSync(timeFile, { force: true });
      ok({ wallS: wall, cpuS: user + sys, stolenS: stolenSince(stolen0), ...(workerStolenS === undefined ? {} : { workerStolenS }) });
    });
  });
}

interface Loop {
  pages: number;
  failed: number;
  /** Seconds of the loop alone (eval/extract-loop.ts: start-up and the workers' warm-up not counted). */
  wallS: number;
  cpuS: number;
}

/** Runs eval/extract-loop.ts and reads the JSON line it prints. */
function extractLoop(args: string[]): Promise<Loop> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`eval/extract-loop.ts ${args.slice(-4).join(' ')} exited with ${code}: ${stderr}`));
      ok(JSON.parse(stdout.trim().split('\n').pop()!) as Loop);
    });
  });
}

function countLines(path: string): { pages: number; failed: number } {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
  return { pages: lines.length, failed: lines.filter((l) => (JSON.parse(l) as { error?: string }).error !== undefined).length };
}

/**
 * --pairs N: N pairs of whole `pith batch` runs with --jobs 1 and --jobs 2, back to back, the order alternating from
 * pair to pair; prints each pair and the medians, and writes bench-bulk-pairs.json. Before every pair and after the
 * last, one round of eval/machine-scaling.ts measures what the machine's two cores give work that is not pith's
 * (15-20 s here): a pair's machine scaling is the lower of the rounds before and after it.
 */
async function jobsPairs(pairs: number, runners: Record<string, () => Promise<Timed>>, pages: number, save: boolean): Promise<void> {
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--pairs must be a whole number of at least 1, got ${pairs}`);
  const runs: { jobs1: Timed; jobs2: Timed; ratio: number; quietRatio: number | null; jobs2First: boolean; compute: number; memory: number }[] = [];
  let probe = await machineScaling();
  for (let i = 0; i < pairs; i++) {
    const jobs2First = i % 2 === 1;
    const first = await runners[jobs2First ? 'pith --jobs 2' : 'pith --jobs 1']();
    const second = await runners[jobs2First ? 'pith --jobs 1' : 'pith --jobs 2']();
    const [jobs1, jobs2] = jobs2First ? [second, first] : [first, second];
    const after = await machineScaling();
    const compute = Math.min(probe.compute, after.compute);
    const memory = Math.min(probe.memory, after.memory);
    probe = after;
    // The ratio with the seconds the hypervisor took from the workers taken out of each wall clock.
    const quietRatio = jobs1.workerStolenS == null || jobs2.workerStolenS == null ? null : (jobs1.wallS - jobs1.workerStolenS) / (jobs2.wallS - jobs2.workerStolenS);
    runs.push({ jobs1, jobs2, ratio: jobs1.wallS / jobs2.wallS, quietRatio, jobs2First, compute, memory });
    const side = (t: Timed): string => `${t.wallS.toFixed(1)} s wall, ${t.cpuS.toFixed(1)} s CPU, ${fmtStolen(t.stolenS)} s stolen (${fmtStolen(t.workerStolenS ?? null)} s per worker)`;
    process.stderr.write(`pair ${i + 1}/${pairs}: --jobs 1 ${side(jobs1)}; --jobs 2 ${side(jobs2)}; ${(jobs1.wallS / jobs2.wallS).toFixed(2)}x (${quietRatio === null ? 'n/a' : quietRatio.toFixed(2)}x without the workers' stolen time); the machine's scaling ${compute.toFixed(2)}x compute-bound, ${memory.toFixed(2)}x memory-bound\n`);
  }
  const medianRatio = median(runs.map((r) => r.ratio));
  const ratioOfMedians = median(runs.map((r) => r.jobs1.wallS)) / median(runs.map((r) => r.jobs2.wallS));
  const reached = runs.filter((r) => r.ratio >= 1.7).length;
  const quiet = runs.flatMap((r) => (r.quietRatio === null ? [] : [r.quietRatio]));
  const x = (v: number | null | undefined): string => (v == null ? 'n/a' : `${v.toFixed(2)}x`);
  const lines = [
    `pith batch over ${pages} WCXB dev pages, ${pairs} adjacent pairs of whole runs (start-up included); ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'})`,
    '',
    '| pair | first | --jobs 1 wall s | CPU s | stolen s | from the worker | --jobs 2 wall s | CPU s | stolen s | per worker | --jobs 2 / --jobs 1 | without the workers\' stolen time | machine: compute | memory |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map((r, i) => `| ${i + 1} | --jobs ${r.jobs2First ? 2 : 1} | ${r.jobs1.wallS.toFixed(1)} | ${r.jobs1.cpuS.toFixed(1)} | ${fmtStolen(r.jobs1.stolenS)} | ${fmtStolen(r.jobs1.workerStolenS ?? null)} | ${r.jobs2.wallS.toFixed(1)} | ${r.jobs2.cpuS.toFixed(1)} | ${fmtStolen(r.jobs2.stolenS)} | ${fmtStolen(r.jobs2.workerStolenS ?? null)} | ${x(r.ratio)} | ${x(r.quietRatio)} | ${x(r.compute)} | ${x(r.memory)} |`),
    '',
    `--jobs 2 / --jobs 1: median of the pairs ${medianRatio.toFixed(2)}x, ratio of the median times ${ratioOfMedians.toFixed(2)}x; ${reached} of ${pairs} pairs at 1.7x or more`,
    `without the seconds the hypervisor took from the workers' cores while they ran: median ${quiet.length === 0 ? 'n/a' : x(median(quiet))}, ${quiet.filter((q) => q >= 1.7).length} of ${quiet.length} pairs at 1.7x or more`,
    '(machine: what two processes at once give over one of eval/machine-scaling.ts, the lower of its rounds before and after the pair; 2.00x is two whole cores)',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const resultsDir = join(ROOT, save ? 'eval/results' : 'eval/results/local');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'bench-bulk-pairs.json'), `${JSON.stringify({ date: new Date().toISOString(), pages, cores: availableParallelism(), runs, medianRatio, ratioOfMedians, reached, medianQuietRatio: quiet.length === 0 ? null : median(quiet) }, null, 2)}\n`);
  if (save) process.stdout.write(`docs:benchmarks: ${writeBenchmarkDocs().join(', ') || 'docs already current'}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string' }, pairs: { type: 'string' }, limit: { type: 'string' }, 'e2e-urls': { type: 'string' }, 'no-e2e': { type: 'boolean' }, save: { type: 'boolean' } },
  });
  const rounds = Number(values.rounds ?? 3);
  const htmlDir = join(dataDir(), 'html');
  let files = pageFilesOf(htmlDir);
  if (values.limit !== undefined) files = files.slice(0, Number(values.limit));
  const work = mkdtempSync(join(tmpdir(), 'pith-bench-bulk-'));
  const pagesDir = join(work, 'pages');
  mkdirSync(pagesDir);
  for (const f of files) symlinkSync(f, join(pagesDir, f.replace(/^.*\//, '')));
  // the two halves for Readability.js in two processes (alternate pages, so both halves have as many large ones)
  const halves = [join(work, 'half-0'), join(work, 'half-1')];
  for (const h of halves) mkdirSync(h);
  files.forEach((f, i) => symlinkSync(f, join(halves[i % 2], f.replace(/^.*\//, ''))));
  // Readability.js runs with the V8 flags pith's workers get in the same setting (one process as `--jobs 1`, two at
  // once as `--jobs 2`; src/hosts/node/batch.ts, workerV8Flags), so that the comparison is of the extractors, not of V8 settings.
  const readabilityRun = (processes: number, dir: string, out: string): Promise<Timed> =>
    timedRun(process.execPath, [...workerV8Flags(processes, availableParallelism()), '--import', 'tsx', 'eval/readability-batch.ts', dir, '--out', join(work, out)]);
  // The loops run with the V8 flags of workers that fill every core (FULL_CORES_V8_FLAGS), or with `v8` instead.
  const fullCores = [...WORKER_V8_FLAGS, ...FULL_CORES_V8_FLAGS];
  const oneThread = [...WORKER_V8_FLAGS, '--single-threaded'];
  const loopRun = (part: string[], v8: readonly string[] = fullCores): Promise<Loop> =>
    extractLoop([...v8, '--import', 'tsx', 'eval/extract-loop.ts', pagesDir, ...part]);

  process.stderr.write('building dist/ (npm run build) so that `node bin/pith.js` runs the current code...\n');
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });

  const runners: Record<string, () => Promise<Timed>> = {
    'pith --jobs 1': () => timedRun(process.execPath, ['bin/pith.js', 'batch', pagesDir, '--jobs', '1', '--out', join(work, 'pith1.jsonl')], 1),
    'pith --jobs 2': () => timedRun(process.execPath, ['bin/pith.js', 'batch', pagesDir, '--jobs', '2', '--out', join(work, 'pith2.jsonl')], 2),
    'Readability.js (linkedom)': () => readabilityRun(1, pagesDir, 'readability.jsonl'),
    'Readability.js (linkedom), 2 processes': async () => {
      const [a, b] = await Promise.all([readabilityRun(2, halves[0], 'readability-half-0.jsonl'), readabilityRun(2, halves[1], 'readability-half-1.jsonl')]);
      writeFileSync(join(work, 'readability2.jsonl'), readFileSync(join(work, 'readability-half-0.jsonl'), 'utf8') + readFileSync(join(work, 'readability-half-1.jsonl'), 'utf8'));
      // the two ran at once, so the machine's stolen time is that of the longer one (not the sum)
      return { wallS: Math.max(a.wallS, b.wallS), cpuS: a.cpuS + b.cpuS, stolenS: a.stolenS === null || b.stolenS === null ? null : Math.max(a.stolenS, b.stolenS) };
    },
  };
  if (values.pairs !== undefined) {
    await jobsPairs(Number(values.pairs), runners, files.length, values.save === true);
    rmSync(work, { recursive: true, force: true });
    return;
  }
  // The ceiling of --jobs 2 / --jobs 1 on this machine: the extraction loop alone, one thread per process
  // (FULL_CORES_V8_FLAGS: no garbage-collector or compiler helper threads), once over all pages and once as two
  // processes over alternate pages at the same time. Start-up is not counted; each process still compiles its own
  // code (V8 compiles per process), on its one thread.
  const loops: Record<string, () => Promise<Loop>> = {
    'extraction loop, one thread, one process': () => loopRun([]),
    'extraction loop, one thread each, two processes': async () => {
      const [a, b] = await Promise.all([loopRun(['--every', '2', '--offset', '0']), loopRun(['--every', '2', '--offset', '1'])]);
      return { pages: a.pages + b.pages, failed: a.failed + b.failed, wallS: Math.max(a.wallS, b.wallS), cpuS: a.cpuS + b.cpuS };
    },
  };
  // Two choices of FULL_CORES_V8_FLAGS, each tried as two loops over all pages at the same time, one with the choice
  // and one without: V8's helper threads against one thread, and V8's default compilers against patient ones (both
  // on one thread). Run side by side, both loops see the same machine at the same moment, so the drift of this
  // machine's speed cancels out of the comparison.
  const pairFlags = { helperThreads: [WORKER_V8_FLAGS, oneThread], compilers: [oneThread, fullCores] } as const;
  const pairs: Record<keyof typeof pairFlags, [Loop, Loop][]> = { helperThreads: [], compilers: [] };
  const names = Object.keys(runners);
  const seconds: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpuSeconds: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const stolenSeconds: Record<string, (number | null)[]> = Object.fromEntries(names.map((n) => [n, []]));
  const loads: number[] = [];
  const loopNames = Object.keys(loops);
  const loopSeconds: Record<string, number[]> = Object.fromEntries(loopNames.map((n) => [n, []]));
  const loopCpu: Record<string, number[]> = Object.fromEntries(loopNames.map((n) => [n, []]));
  const loopCounts: Record<string, Loop> = {};
  for (let round = 0; round < rounds; round++) {
    // pith's two runs back to back, and Readability.js's; the order within each pair and of the pairs alternates
    const flip = <T>(pair: T[], flipped: boolean): T[] => (flipped ? [...pair].reverse() : pair);
    const pithPair = flip(['pith --jobs 1', 'pith --jobs 2'], round % 2 === 1);
    const readabilityPair = flip(['Readability.js (linkedom)', 'Readability.js (linkedom), 2 processes'], round % 2 === 1);
    const order = Math.floor(round / 2) % 2 === 0 ? [...pithPair, ...readabilityPair] : [...readabilityPair, ...pithPair];
    for (const name of order) {
      loads.push(loadavg()[0]);
      const t = await runners[name]();
      seconds[name].push(t.wallS);
      cpuSeconds[name].push(t.cpuS);
      stolenSeconds[name].push(t.stolenS);
      process.stderr.write(`round ${round + 1}/${rounds}: ${name} ${t.wallS.toFixed(1)} s wall, ${t.cpuS.toFixed(1)} s CPU, ${fmtStolen(t.stolenS)} s stolen (load average ${loadavg()[0].toFixed(1)})\n`);
    }
    for (const name of round % 2 === 0 ? loopNames : [...loopNames].reverse()) {
      const l = await loops[name]();
      loopSeconds[name].push(l.wallS);
      loopCpu[name].push(l.cpuS);
      loopCounts[name] = l;
      process.stderr.write(`round ${round + 1}/${rounds}: ${name} ${l.wallS.toFixed(1)} s of loop, ${l.cpuS.toFixed(1)} s CPU\n`);
    }
    for (const name of Object.keys(pairFlags) as (keyof typeof pairFlags)[]) {
      const [a, b] = await Promise.all(pairFlags[name].map((v8) => loopRun([], v8)));
      pairs[name].push([a, b]);
      process.stderr.write(`round ${round + 1}/${rounds}: two loops at once (${name}), without / with FULL_CORES_V8_FLAGS' choice ${a.cpuS.toFixed(1)} / ${b.cpuS.toFixed(1)} s CPU\n`);
    }
  }
  const cores: Record<string, number> = { 'pith --jobs 1': 1, 'pith --jobs 2': 2, 'Readability.js (linkedom)': 1, 'Readability.js (linkedom), 2 processes': 2 };
  const outputs: Record<string, string> = {
    'pith --jobs 1': 'pith1.jsonl',
    'pith --jobs 2': 'pith2.jsonl',
    'Readability.js (linkedom)': 'readability.jsonl',
    'Readability.js (linkedom), 2 processes': 'readability2.jsonl',
  };
  const rows = names.map((name) => {
    const s = median(seconds[name]);
    const counted = countLines(join(work, outputs[name]));
    const cpu = median(cpuSeconds[name]);
    return { name, seconds: s, runs: seconds[name], cpuSeconds: cpu, cpuRuns: cpuSeconds[name], stolenRuns: stolenSeconds[name], pages: counted.pages, failed: counted.failed, pagesPerSecond: files.length / s, pagesPerSecondPerCore: files.length / s / cores[name], pagesPerCpuSecond: files.length / cpu };
  });
  const by = Object.fromEntries(rows.map((r) => [r.name, r]));
  const speedup = by['pith --jobs 2'].pagesPerSecond / by['pith --jobs 1'].pagesPerSecond;
  const perCoreVsReadability = by['pith --jobs 2'].pagesPerSecondPerCore / by['Readability.js (linkedom)'].pagesPerSecondPerCore;
  const cpuVsReadability = by['pith --jobs 2'].pagesPerCpuSecond / by['Readability.js (linkedom)'].pagesPerCpuSecond;
  const perCoreVsReadability1 = by['pith --jobs 1'].pagesPerSecondPerCore / by['Readability.js (linkedom)'].pagesPerSecondPerCore;
  const perCoreVsReadability2 = by['pith --jobs 2'].pagesPerSecondPerCore / by['Readability.js (linkedom), 2 processes'].pagesPerSecondPerCore;

  const loopRows = loopNames.map((name) => ({ name, seconds: median(loopSeconds[name]), runs: loopSeconds[name], cpuSeconds: median(loopCpu[name]), cpuRuns: loopCpu[name], pages: loopCounts[name].pages, failed: loopCounts[name].failed }));
  const ceiling = loopRows[0].seconds / loopRows[1].seconds;
  /** Median CPU-seconds of each side of a pair, and without / with the choice within each round. */
  const pairSummary = (runs: [Loop, Loop][]) => ({
    withoutCpuS: median(runs.map(([a]) => a.cpuS)),
    withCpuS: median(runs.map(([, b]) => b.cpuS)),
    ratios: runs.map(([a, b]) => a.cpuS / b.cpuS),
  });
  const helperThreads = pairSummary(pairs.helperThreads); // without: V8's helper threads; with: one thread
  const compilers = pairSummary(pairs.compilers); // without: V8's default compilers; with: patient ones

  let e2e: JobRun | null = null;
  if (!values['no-e2e']) {
    process.stderr.write('end to end: a local job through npm start...\n');
    e2e = await runLocalJob({ urls: Number(values['e2e-urls'] ?? 1000), port: 8797, pagesPort: 8798 });
  }

  const lines = [
    `pith batch over ${files.length} WCXB dev pages, ${rounds} round${rounds === 1 ? '' : 's'} (median wall time of whole runs, start-up included); ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), load average during the runs ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    '',
    '| run | wall s (median) | pages/s | pages/s per core | CPU s (median) | pages per CPU-second | failed pages | s stolen by the hypervisor, per round |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${r.seconds.toFixed(1)} | ${r.pagesPerSecond.toFixed(1)} | ${r.pagesPerSecondPerCore.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${r.pagesPerCpuSecond.toFixed(1)} | ${r.failed} | ${r.stolenRuns.map(fmtStolen).join(' / ')} |`),
    '',
    `--jobs 2 / --jobs 1 (wall): ${speedup.toFixed(2)}x (rounds: ${by['pith --jobs 1'].runs.map((s, i) => `${(s / by['pith --jobs 2'].runs[i]).toFixed(2)}x`).join(', ')}); pith pages/s per core / Readability.js's: ${perCoreVsReadability1.toFixed(2)}x with --jobs 1, ${perCoreVsReadability.toFixed(2)}x with --jobs 2 (${perCoreVsReadability2.toFixed(2)}x against Readability.js in two processes); pages per CPU-second, pith --jobs 2 / Readability.js: ${cpuVsReadability.toFixed(2)}x`,
  ];
  lines.push(
    '',
    '| extraction loop alone (eval/extract-loop.ts, one thread: FULL_CORES_V8_FLAGS) | loop s (median) | CPU s (median) | pages | failed |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...loopRows.map((r) => `| ${r.name} | ${r.seconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${r.pages} | ${r.failed} |`),
    '',
    `the ceiling of --jobs 2 / --jobs 1 here (one loop over all pages / two loops over the halves at once): ${ceiling.toFixed(2)}x`,
    '',
    `two loops over all pages at once, both cores busy: with V8's helper threads ${helperThreads.withoutCpuS.toFixed(1)} CPU s, --single-threaded ${helperThreads.withCpuS.toFixed(1)} CPU s (medians; with / without within each round: ${helperThreads.ratios.map((r) => `${r.toFixed(2)}x`).join(', ')})`,
    '',
    `two loops over all pages at once, one thread each: V8's default compilers ${compilers.withoutCpuS.toFixed(1)} CPU s, patient compilers (FULL_CORES_V8_FLAGS) ${compilers.withCpuS.toFixed(1)} CPU s (medians; default / patient within each round: ${compilers.ratios.map((r) => `${r.toFixed(2)}x`).join(', ')})`,
  );
  if (e2e !== null) {
    lines.push('', `local job through npm start: ${e2e.urls} URLs in ${e2e.seconds.toFixed(1)} s = ${e2e.pagesPerSecond.toFixed(1)} pages/s; ${e2e.done} done, ${e2e.failed} failed, ${e2e.lines} result lines, ${e2e.lost} URLs lost`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const resultsDir = join(ROOT, values.save ? 'eval/results' : 'eval/results/local');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'bench-bulk.json'),
    `${JSON.stringify({ date: new Date().toISOString(), command: ['npm run bench:bulk --', ...process.argv.slice(2)].join(' '), pages: files.length, rounds, cores: availableParallelism(), loadAverage: { min: Math.min(...loads), max: Math.max(...loads) }, rows, speedup, loopRows, ceiling, helperThreads, compilers, perCoreVsReadability, perCoreVsReadability1, perCoreVsReadability2, cpuVsReadability, e2e }, null, 2)}\n`,
  );
  if (values.save) process.stdout.write(`docs:benchmarks: ${writeBenchmarkDocs().join(', ') || 'docs already current'}\n`);
  rmSync(work, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:bulk: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
