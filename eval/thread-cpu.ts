// Where the CPU of a `pith batch` run goes, thread by thread (Linux only: it reads /proc). Runs
// `node bin/pith.js batch <dir> --jobs N --out <temporary file>` and reads, every 200 ms, the CPU seconds and minor
// page faults of every thread of the coordinating process and its workers; a thread's last reading is its total.
// Per process it prints the main thread (the coordinator's event loop, or a worker's extractions) apart from V8's
// and libuv's helper threads (optimising compiler, concurrent marking, parallel scavenging).
//
//   npx tsx eval/thread-cpu.ts ../shared/data/wcxb-dev/html --jobs 1      (build first: npm run build)
//
// With fewer workers than cores, a worker's helper threads run on an idle core; with --jobs 2 on two cores the
// workers run V8 on one thread each (src/hosts/node/batch.ts, workerV8Flags), so that work lands on their main threads.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TICK = 100; // clock ticks per second of /proc's times (USER_HZ, 100 on Linux)

interface Reading {
  pid: number;
  tid: number;
  cpuS: number;
  faults: number;
}

/** The fields of /proc/<pid>/task/<tid>/stat after the command name (which may hold spaces). */
export function statFields(path: string): string[] | null {
  try {
    const text = readFileSync(path, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the thread or process has ended
  }
}

/** Processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(`/proc/${name}/stat`);
    if (f !== null && Number(f[1]) === pid) out.push(Number(name));
  }
  return out;
}

function readThreads(pid: number, into: Map<string, Reading>): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    const f = statFields(`/proc/${pid}/task/${tid}/stat`);
    if (f === null) continue;
    // After the name: state(0) ppid(1) ... minflt(7) ... utime(11) stime(12).
    into.set(`${pid}/${tid}`, { pid, tid: Number(tid), cpuS: (Number(f[11]) + Number(f[12])) / TICK, faults: Number(f[7]) });
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { jobs: { type: 'string' } } });
  if (positionals.length !== 1 || values.jobs === undefined) throw new Error('usage: npx tsx eval/thread-cpu.ts <dir> --jobs N');
  const dir = mkdtempSync(join(tmpdir(), 'pith-thread-cpu-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/pith.js', 'batch', positionals[0], '--jobs', values.jobs, '--out', join(dir, 'out.jsonl')], { stdio: ['ignore', 'ignore', 'ignore'] });
  const readings = new Map<string, Reading>();
  const poll = setInterval(() => {
    readThreads(child.pid!, readings);
    for (const worker of childrenOf(child.pid!)) readThreads(worker, readings);
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  const wallS = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`pith batch exited with ${code}`);

  process.stdout.write(`pith batch --jobs ${values.jobs}: ${wallS.toFixed(1)} s wall (CPU as last read, up to 200 ms before each thread ended)\n`);
  const pids = [...new Set([...readings.values()].map((r) => r.pid))];
  let total = 0;
  for (const pid of pids) {
    const threads = [...readings.values()].filter((r) => r.pid === pid);
    const main = threads.find((r) => r.tid === pid);
    const helpers = threads.filter((r) => r.tid !== pid);
    const helperCpu = helpers.reduce((s, r) => s + r.cpuS, 0);
    total += (main?.cpuS ?? 0) + helperCpu;
    const role = pid === child.pid ? 'coordinator' : 'worker';
    process.stdout.write(
      `${role} ${pid}: main thread ${(main?.cpuS ?? 0).toFixed(2)} CPU-s (${main?.faults ?? 0} page faults), ` +
        `${helpers.length} other threads ${helperCpu.toFixed(2)} CPU-s (${helpers.reduce((s, r) => s + r.faults, 0)} page faults)\n`,
    );
  }
  process.stdout.write(`all: ${total.toFixed(2)} CPU-s, ${(total / wallS).toFixed(2)} cores on average\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`thread-cpu: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
