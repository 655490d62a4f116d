// The first request in a fresh isolate, phase by phase. The Worker is bundled once (wrangler deploy --dry-run, as
// deployed), then each run starts a new workerd (Miniflare) on it and sends requests from Node:
//   start       Miniflare constructed until ready: workerd up, the script and its modules loaded, its global scope
//               run (where the model loads by default, PITH_LOAD_AT_START)
//   first       the first POST /v1/extract of a fresh start (one 5 KB article, no fetch): what a user waits; with
//               the model loaded at start and with PITH_LOAD_AT_START=0 (loaded on the first request)
// and, with the model loaded on the first request, that request's parts:
//   wasm load   a script that only imports ORT's wasm module, minus an empty script (V8 compiles it lazily)
//   session     GET /health as the first request: it creates the ONNX sessions and runs their self-check ...
//   first run   ... then the first extraction (the first real runs: lazy wasm compilation, the JIT's first pass)
//   steady      median of the next 5 extractions
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
import { articlePage } from '../test/hostile/cases.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.wrangler', 'cold-start');
const BUNDLE = join(OUT, 'bundle');
const COMPAT_DATE = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'))![1];
const PAGE = articlePage();

function build(): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'deploy', '--dry-run', '--outdir', BUNDLE], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_SEND_ERROR_REPORTS: 'false' },
  });
}

/** A fresh workerd on `scriptPath`; returns it and how long it took to be ready. */
async function start(scriptPath: string, vars: Record<string, string> = {}): Promise<{ mf: Miniflare; ms: number }> {
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
  return { mf, ms: performance.now() - t0 };
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
  const s = { start: [] as number[], first: [] as number[], firstLoad: [] as number[], lazyStart: [] as number[], lazyFirst: [] as number[], lazyFirstLoad: [] as number[], wasmLoad: [] as number[], session: [] as number[], firstRun: [] as number[], steady: [] as number[] };
  for (let r = 0; r < runs; r++) {
    // The kinds of start alternate, so that each sees the machine at the same moments.
    for (const [vars, startTo, firstTo, loadTo] of [[{}, s.start, s.first, s.firstLoad], [LAZY, s.lazyStart, s.lazyFirst, s.lazyFirstLoad]] as const) {
      const { mf, ms } = await start(script, vars);
      startTo.push(ms);
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
      await empty.mf.dispose();
      s.wasmLoad.push(wasm.ms - empty.ms);
    }
    process.stderr.write(`run ${r + 1}/${runs}: first ${s.first[r].toFixed(0)} ms (model loaded at start), ${s.lazyFirst[r].toFixed(0)} ms (on the first request)\n`);
  }
  const f = (xs: number[]): string => `${median(xs).toFixed(0)} ms`;
  process.stdout.write(`first request in a fresh workerd, median of ${runs} fresh starts each (npx tsx eval/cold-start.ts --runs ${runs})\n\n`);
  process.stdout.write('| phase | model loaded at start (default) | on the first request (`PITH_LOAD_AT_START=0`) |\n| --- | ---: | ---: |\n');
  process.stdout.write(`| start: workerd ready, global scope run | ${f(s.start)} | ${f(s.lazyStart)} |\n`);
  process.stdout.write(`| **first extraction: a fresh start's first request** | **${f(s.first)}** | **${f(s.lazyFirst)}** |\n`);
  process.stdout.write(`| of which waiting for the model (\`timings.loadMs\`) | ${f(s.firstLoad)} | ${f(s.lazyFirstLoad)} |\n`);
  process.stdout.write(`\nThe first request's parts, model loaded on the first request:\n\n| part | median |\n| --- | ---: |\n`);
  process.stdout.write(`| ORT's wasm module at load (a script importing only it, minus an empty script) | ${f(s.wasmLoad)} |\n`);
  process.stdout.write(`| session creation and self-check (GET /health as the first request) | ${f(s.session)} |\n`);
  process.stdout.write(`| first run (the first extraction after it) | ${f(s.firstRun)} |\n`);
  process.stdout.write(`| steady extraction (median of the 5 after it) | ${f(s.steady)} |\n`);
}

await main();
