// The first request in a fresh isolate, phase by phase. The Worker is bundled once (wrangler deploy --dry-run, as
// deployed), then each run starts a new workerd (Miniflare) on it and sends requests from Node:
//   start       Miniflare constructed until ready: workerd up, the script and its modules loaded, its global scope
//               run (where the model loads by default, PITH_LOAD_AT_START)
//   CPU         workerd's CPU time (/proc) when ready: the eager minus the lazy figure is what the global scope
//               costs, the measure of Cloudflare's 1 s startup limit
//   first       the first POST /v1/extract of a fresh start (one 5 KB article, no fetch): what a user waits; with
//               the model loaded at start and with PITH_LOAD_AT_START=0 (loaded on the first request)
// and, with the model loaded on the first request, that request's parts:
//   wasm load   a script that only imports ORT's wasm module, minus an empty script (V8 compiles it lazily)
//   session     GET /health as the first request: it creates the ONNX sessions and runs their self-check ...
//   first run   ... then the first extraction (the first real runs: lazy wasm compilation, the JIT's first pass)
//   steady      median of the next 5 extractions
//   empty first the first request to a Worker that only answers "0": what any first request costs here
// Medians over --runs fresh starts each.
//
//   npx tsx eval/cold-start.ts [--runs 10] [--no-build]

import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Miniflare } from 'miniflare';
import { median } from '../dev/stats.js';
import { uniqueArticle } from '../dev/bulk-pages.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.wrangler', 'cold-start');
const BUNDLE = join(OUT, 'bundle');
const COMPAT_DATE = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'))![1];
const PAGE = uniqueArticle(1);

function build(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'deploy', '--dry-run', '--outdir', BUNDLE], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false' },
  });
}

/** CPU seconds (user + system) of this process's workerd children, from /proc (Linux). */
function workerdCpuMs(): number {
  const tick = 100; // USER_HZ, 100 on Linux
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || !stat.includes('(workerd)')) continue; // fields[1]: the parent's pid
      total += ((Number(fields[11]) + Number(fields[12])) / tick) * 1000; // utime, stime
    } catch {
      // a process that ended meanwhile
    }
  }
  return total;
}

/** A fresh workerd on `scriptPath`; returns it, how long it took to be ready and workerd's CPU time by then. */
async function start(scriptPath: string, vars: Record<string, string> = {}): Promise<{ mf: Miniflare; ms: number; cpuMs: number }> {
  const t0 = performance.now();
  // The modules listed, not located: the bundle has dynamic imports (ORT's) that Miniflare's locator refuses.
  const dir = dirname(scriptPath);
  const others = readdirSync(dir).filter((f) => f.endsWith('.wasm') || f.endsWith('.onnx'));
  const mf = new Miniflare({
    modules: [
      { type: 'ESModule', path: scriptPath },
      ...others.map((f) => ({ type: f.endsWith('.wasm') ? ('CompiledWasm' as const) : ('Data' as const), path: join(dir, f) })),
    ],
    modulesRoot: dir,
    compatibilityDate: COMPAT_DATE,
    bindings: { PITH_ALLOW_HOSTS: '', PITH_CACHE_TTL_S: '0', ...vars },
  });
  await mf.ready;
  return { mf, ms: performance.now() - t0, cpuMs: workerdCpuMs() };
}

async function timed(mf: Miniflare, path: string, init?: RequestInit): Promise<{ ms: number; body: string; status: number }> {
  const t0 = performance.now();
  const res = await mf.dispatchFetch(`http://pith.test${path}`, init as never);
  const body = await res.text();
  return { ms: performance.now() - t0, body, status: res.status };
}

const extractRequest = (i: number): [string, RequestInit] => [`/v1/extract?format=json&n=${i}`, { method: 'POST', headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE }];

async function extract(mf: Miniflare, i: number): Promise<{ ms: number; loadMs: number }> {
  const r = await timed(mf, ...extractRequest(i));
  if (r.status !== 200) throw new Error(`extraction answered ${r.status}: ${r.body.slice(0, 300)}`);
  return { ms: r.ms, loadMs: (JSON.parse(r.body) as { timings: { loadMs?: number } }).timings.loadMs ?? NaN };
}

/** Scripts for the wasm-load split: one that imports only ORT's wasm, one that imports nothing. */
function probeScripts(): { wasmOnly: string; empty: string } {
  const wasm = readdirSync(BUNDLE).find((f) => f.endsWith('.wasm'));
  if (wasm === undefined) throw new Error(`no .wasm in ${BUNDLE}`);
  const dir = join(OUT, 'probe');
  mkdirSync(dir, { recursive: true });
  execFileSync('cp', [join(BUNDLE, wasm), join(dir, wasm)]);
  writeFileSync(join(dir, 'wasm-only.js'), `import m from './${wasm}';\nexport default { fetch: () => new Response(String(WebAssembly.Module.exports(m).length)) };\n`);
  writeFileSync(join(dir, 'empty.js'), `export default { fetch: () => new Response('0') };\n`);
  return { wasmOnly: join(dir, 'wasm-only.js'), empty: join(dir, 'empty.js') };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, 'no-build': { type: 'boolean' } } });
  const runs = Number(values.runs ?? 10);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  if (values['no-build'] !== true) build();
  const script = join(BUNDLE, 'index.js');
  const probes = probeScripts();
  const LAZY = { PITH_LOAD_AT_START: '0' };
  const s = { start: [] as number[], first: [] as number[], firstLoad: [] as number[], lazyStart: [] as number[], lazyFirst: [] as number[], lazyFirstLoad: [] as number[], startCpu: [] as number[], lazyStartCpu: [] as number[], wasmLoad: [] as number[], emptyFirst: [] as number[], session: [] as number[], firstRun: [] as number[], steady: [] as number[] };
  for (let r = 0; r < runs; r++) {
    // The kinds of start alternate, so that each sees the machine at the same moments.
    for (const [vars, startTo, cpuTo, firstTo, loadTo] of [[{}, s.start, s.startCpu, s.first, s.firstLoad], [LAZY, s.lazyStart, s.lazyStartCpu, s.lazyFirst, s.lazyFirstLoad]] as const) {
      const { mf, ms, cpuMs } = await start(script, vars);
      startTo.push(ms);
      cpuTo.push(cpuMs);
      const first = await extract(mf, 0);
      firstTo.push(first.ms);
      loadTo.push(first.loadMs);
      await mf.dispose();
    }
    {
      const { mf } = await start(script, LAZY);
      const health = await timed(mf, '/health');
      if (health.status !== 200) throw new Error(`/health answered ${health.status}: ${health.body.slice(0, 300)}`);
      s.session.push(health.ms);
      s.firstRun.push((await extract(mf, 0)).ms);
      const steady: number[] = [];
      for (let i = 1; i <= 5; i++) steady.push((await extract(mf, i)).ms);
      s.steady.push(median(steady));
      await mf.dispose();
    }
    {
      const wasm = await start(probes.wasmOnly);
      await wasm.mf.dispose();
      const empty = await start(probes.empty);
      s.emptyFirst.push((await timed(empty.mf, '/')).ms);
      await empty.mf.dispose();
      s.wasmLoad.push(wasm.ms - empty.ms);
    }
    process.stderr.write(`run ${r + 1}/${runs}: first ${s.first[r].toFixed(0)} ms (model loaded at start), ${s.lazyFirst[r].toFixed(0)} ms (on the first request)\n`);
  }
  const f = (xs: number[]): string => `${median(xs).toFixed(0)} ms`;
  process.stdout.write(`first request in a fresh workerd, median of ${runs} fresh starts each (npx tsx eval/cold-start.ts --runs ${runs})\n\n`);
  process.stdout.write('| phase | model loaded at start (default) | on the first request (`PITH_LOAD_AT_START=0`) |\n| --- | ---: | ---: |\n');
  process.stdout.write(`| start: workerd ready, global scope run | ${f(s.start)} | ${f(s.lazyStart)} |\n`);
  process.stdout.write(`| workerd CPU time when ready | ${f(s.startCpu)} | ${f(s.lazyStartCpu)} |\n`);
  process.stdout.write(`| **first extraction: a fresh start's first request** | **${f(s.first)}** | **${f(s.lazyFirst)}** |\n`);
  process.stdout.write(`| of which waiting for the model (\`timings.loadMs\`) | ${f(s.firstLoad)} | ${f(s.lazyFirstLoad)} |\n`);
  process.stdout.write(`| the first request to an empty Worker (workerd and Miniflare's own first dispatch) | ${f(s.emptyFirst)} | |\n`);
  process.stdout.write(`\nThe first request's parts, model loaded on the first request:\n\n| part | median |\n| --- | ---: |\n`);
  process.stdout.write(`| ORT's wasm module at load (a script importing only it, minus an empty script) | ${f(s.wasmLoad)} |\n`);
  process.stdout.write(`| session creation and self-check (GET /health as the first request) | ${f(s.session)} |\n`);
  process.stdout.write(`| first run (the first extraction after it) | ${f(s.firstRun)} |\n`);
  process.stdout.write(`| steady extraction (median of the 5 after it) | ${f(s.steady)} |\n`);
}

await main();
