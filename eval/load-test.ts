// Bounded load test of the Worker under `npm start` (wrangler dev, workerd), loopback only.
//
//   npx tsx eval/load-test.ts [--duration 10] [--connections 4] [--max-hits 20000] [--max-misses 2000] [--skip-bundle]
//
// 1. Starts a page server on 127.0.0.1 serving the article fixtures of test/fixtures/server/.
// 2. Starts `node scripts/start.js --port <free> --var PITH_ALLOW_HOSTS:127.0.0.1` (a fresh isolate) and measures
//    the first requests: /health (starts the ONNX session) and the first extraction, against the steady state.
// 3. Cache misses: autocannon on the prefix form with a new target query per request (every request fetches
//    and extracts). Cache hits: one target, warmed once, then autocannon on it.
// 4. Worker bundle size: `wrangler deploy --dry-run --outdir <tmp>`, raw and gzip.
// Throughout, the resident memory (VmRSS) of every workerd process started under it is sampled every 100 ms: the
// largest is the one running pith (the other is wrangler's small proxy). RSS counts the whole runtime as well as
// the isolate (V8 heap, ORT's wasm memory), so it is an upper bound on what the 128 MB isolate limit counts.
// Every phase is bounded by a duration and a request count; everything it starts is stopped at the end.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number; sent: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
  '2xx': number;
}
interface AutocannonRequest {
  path?: string;
  setupRequest?: (request: { path: string }) => { path: string };
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  /** Stops sending after this many requests; `duration` still ends the phase (autocannon's `amount` would override it). */
  maxOverallRequests?: number;
  timeout?: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;
const ROOT = new URL('../', import.meta.url);
const FIXTURES = new URL('test/fixtures/server/', ROOT);

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '4' },
    'max-hits': { type: 'string', default: '20000' },
    'max-misses': { type: 'string', default: '2000' },
    'skip-bundle': { type: 'boolean', default: false },
  },
});
function numberArg(name: 'duration' | 'connections' | 'max-hits' | 'max-misses'): number {
  const n = Number(args[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not "${args[name]}"`);
  return n;
}
const DURATION_S = numberArg('duration');
const CONNECTIONS = numberArg('connections');
const MAX_HITS = numberArg('max-hits');
const MAX_MISSES = numberArg('max-misses');
const SKIP_BUNDLE = args['skip-bundle'];

function startPageServer(): Promise<{ server: Server; port: number }> {
  const pages = new Map<string, Buffer>();
  for (const name of ['article-blog', 'article-news']) pages.set(name, readFileSync(new URL(`${name}.html`, FIXTURES)));
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1);
    const body = pages.get(name);
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function waitForReady(child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (log.join('').includes('Ready on')) return;
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${log.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`wrangler dev not ready after 120 s:\n${log.join('')}`);
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function dirSize(dir: string): { raw: number; gzip: number; files: number } {
  let raw = 0;
  let gzip = 0;
  let files = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const sub = dirSize(path);
      raw += sub.raw;
      gzip += sub.gzip;
      files += sub.files;
    } else if (!name.endsWith('.map') && name !== 'README.md') {
      const bytes = readFileSync(path);
      raw += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
      files++;
    }
  }
  return { raw, gzip, files };
}

function bundleSize(): { raw: number; gzip: number; files: number; wranglerSays: string } {
  const out = mkdtempSync(join(tmpdir(), 'pith-dry-'));
  try {
    const run = spawnSync(process.execPath, [require.resolve('wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', out], {
      cwd: ROOT.pathname,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_HIDE_BANNER: 'true' },
      timeout: 300_000,
    });
    if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
    const line = /Total Upload:[^\n]*/.exec(run.stdout + run.stderr)?.[0] ?? '(no "Total Upload" line)';
    return { ...dirSize(out), wranglerSays: line.trim() };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Pids of every process under `root` (Linux /proc), with their command names. */
function descendants(root: number): Array<{ pid: number; comm: string }> {
  const parentOf = new Map<number, number>();
  const commOf = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      commOf.set(Number(name), stat.slice(stat.indexOf('(') + 1, close));
      parentOf.set(Number(name), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const out: Array<{ pid: number; comm: string }> = [];
  const queue = [root];
  while (queue.length > 0) {
    const p = queue.shift() as number;
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push({ pid: child, comm: commOf.get(child) ?? '' });
        queue.push(child);
      }
    }
  }
  return out;
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Samples the RSS of the workerd processes under `root`; `peak()` gives the largest seen per phase. */
class WorkerdMemory {
  private peaks = new Map<string, number>();
  private phase = 'start';
  private timer: ReturnType<typeof setInterval> | undefined;
  constructor(private readonly root: number) {}
  start(): void {
    if (!existsSync('/proc/self/status')) return;
    this.timer = setInterval(() => this.sample(), 100);
  }
  enter(phase: string): void {
    this.sample();
    this.phase = phase;
  }
  sample(): void {
    const largest = Math.max(0, ...descendants(this.root).filter((p) => p.comm === 'workerd').map((p) => rssBytes(p.pid)));
    this.peaks.set(this.phase, Math.max(this.peaks.get(this.phase) ?? 0, largest));
  }
  peak(phase: string): number {
    return this.peaks.get(phase) ?? 0;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

const mib = (n: number): string => `${(n / (1024 * 1024)).toFixed(2)} MiB`;
const ms = (n: number): string => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const { server, port: pagePort } = await startPageServer();
  const workerPort = await freePort();
  const log: string[] = [];
  const worker = spawn(process.execPath, [new URL('scripts/start.js', ROOT).pathname, '--port', String(workerPort), '--var', 'PITH_ALLOW_HOSTS:127.0.0.1'], {
    cwd: ROOT.pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  worker.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  const memory = new WorkerdMemory(worker.pid ?? 0);
  memory.start();
  const base = `http://127.0.0.1:${workerPort}`;
  // wrangler dev keeps its cache under .wrangler/state across runs: a run id keeps this run's misses misses.
  const run = Date.now().toString(36);
  const target = (name: string, query = ''): string => `http://127.0.0.1:${pagePort}/${name}?run=${run}${query.replace('?', '&')}`;
  try {
    const startT0 = performance.now();
    await waitForReady(worker, log);
    const readyMs = performance.now() - startT0;
    memory.enter('first requests');

    // First requests in a fresh isolate: the first extraction creates the ONNX session (V8 compiles ORT's wasm).
    const firstExtract = await timed(`${base}/v1/extract?url=${encodeURIComponent(target('article-news', '?first'))}`);
    const firstHealth = await timed(`${base}/health`);
    const steady: number[] = [];
    for (let i = 0; i < 15; i++) steady.push((await timed(`${base}/v1/extract?url=${encodeURIComponent(target('article-news', `?steady${i}`))}`)).ms);
    const steadyMs = median(steady);

    memory.enter('cache miss');
    let n = 0;
    const misses = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: DURATION_S,
      maxOverallRequests: MAX_MISSES,
      timeout: 30,
      requests: [{ setupRequest: (request) => ({ ...request, path: `/${target('article-blog', `?miss=${++n}`)}` }) }],
    });

    const hitPath = `/${target('article-blog', '?hit')}`;
    const warm = await fetch(`${base}${hitPath}`);
    await warm.arrayBuffer();
    const check = await fetch(`${base}${hitPath}`);
    await check.arrayBuffer();
    if (check.headers.get('x-cache') !== 'HIT') throw new Error(`expected a cache hit after warming, got X-Cache ${check.headers.get('x-cache')}`);
    memory.enter('cache hit');
    const hits = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION_S, maxOverallRequests: MAX_HITS, timeout: 30, requests: [{ path: hitPath }] });

    memory.enter('done');
    memory.stop();
    const bundle = SKIP_BUNDLE ? null : bundleSize();

    const row = (name: string, r: AutocannonResult, phase: string): string =>
      `| ${name} | ${r.requests.total} | ${r.requests.average.toFixed(1)} | ${r.latency.p50} ms | ${r.latency.p99} ms | ${r.errors + r.timeouts + r.non2xx} | ${mib(memory.peak(phase))} |`;
    console.log(`\npith load test, ${new Date().toISOString().slice(0, 10)}: wrangler dev (workerd) on 127.0.0.1, ${CONNECTIONS} connections, ` +
      `${DURATION_S} s or ${MAX_MISSES}/${MAX_HITS} requests per phase, page server on 127.0.0.1 (5 KB article).\n`);
    console.log('| phase | requests | req/s | p50 | p99 | errors (conn + timeout + non-2xx) | workerd peak RSS |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    console.log(row('cache miss (fetch + extract)', misses, 'cache miss'));
    console.log(row('cache hit', hits, 'cache hit'));
    console.log(`\nworkerd peak RSS: ${mib(memory.peak('start'))} after start, ${mib(memory.peak('first requests'))} after the first requests (model loaded); isolate limit in production: 128 MB`);
    console.log(`\nwrangler dev ready after ${ms(readyMs)}`);
    console.log(`first extraction in a fresh isolate: ${ms(firstExtract.ms)} (status ${firstExtract.status}); then /health ${ms(firstHealth.ms)}`);
    console.log(`steady-state uncached extraction (median of 15, one at a time): ${ms(steadyMs)}`);
    console.log(`first-request cost (first minus steady): ${ms(firstExtract.ms - steadyMs)}`);
    if (bundle !== null) {
      console.log(`\nWorker bundle (wrangler deploy --dry-run, ${bundle.files} files): ${mib(bundle.raw)} raw, ${mib(bundle.gzip)} gzip (level 9)`);
      console.log(`wrangler: ${bundle.wranglerSays}`);
    }
    if (misses.errors + misses.timeouts + misses.non2xx + hits.errors + hits.timeouts + hits.non2xx > 0) process.exitCode = 1;
  } finally {
    memory.stop();
    worker.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (worker.exitCode === null) worker.kill('SIGKILL');
    server.closeAllConnections();
    server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
