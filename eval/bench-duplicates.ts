// Near-duplicate clustering at corpus scale (docs/bulk.md, Near-duplicates). A benchmark, not a test:
// timings vary by machine.
//
//   npm run bench:duplicates                 all three parts (builds dist/ first)
//   npm run bench:duplicates -- --part dev   only `pith duplicates` over the WCXB dev pages
//
// 1. dev: `node bin/pith.js batch` over the 1,497 WCXB dev pages once, then `node bin/pith.js duplicates` over its
//    output with --jobs 1 and with --jobs <cores>, three rounds; median seconds and the clusters found; then the
//    signatures alone over its texts, in this process.
// 2. scale: clusterSignatures over 1,000,000 synthetic signatures (a tenth of them in families of three: two equal,
//    one with ten slots changed), in a fresh process: seconds and the process's peak memory (/usr/bin/time).
// 3. alike: N signatures of one template (six slots changed in each, every pair sharing most bands): clusterSignatures
//    against every candidate pair of the LSH index (LshIndex.similarPairs, what /duplicates did before 2026-12-01),
//    each in a fresh process.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../dev/stats.js';
import { mulberry32 } from '../dev/rng.js';
import { clusterSignatures, NEAR_DUPLICATE_PARAMS, signatureOf } from '../src/core/fingerprint/near-duplicates.js';
import { LshIndex } from '../src/core/fingerprint/minhash.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SLOTS = NEAR_DUPLICATE_PARAMS.numHashes;

function signatures(kind: 'scale' | 'alike', n: number): Uint32Array[] {
  const next = mulberry32(kind === 'scale' ? 1 : 2);
  const random = (): Uint32Array => Uint32Array.from({ length: SLOTS }, () => Math.floor(next() * 2 ** 32) >>> 0);
  const changed = (base: Uint32Array, slots: number): Uint32Array => {
    const sig = base.slice();
    for (let k = 0; k < slots; k++) sig[Math.floor(next() * SLOTS)] = Math.floor(next() * 2 ** 32) >>> 0;
    return sig;
  };
  if (kind === 'alike') {
    const template = random();
    return Array.from({ length: n }, () => changed(template, 6));
  }
  const out: Uint32Array[] = [];
  let base = random();
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0) base = random();
    out.push(i % 10 === 0 ? base : i % 10 === 1 ? base.slice() : i % 10 === 2 ? changed(base, 10) : random());
  }
  return out;
}

/** In this (fresh) process: cluster `n` signatures of `kind` with `method`, print one JSON line. */
function child(kind: 'scale' | 'alike', n: number, method: 'clusters' | 'all-pairs'): void {
  const sigs = signatures(kind, n);
  const ids = sigs.map((_, i) => `https://example.com/${kind}/page-${i}.html`);
  const t0 = performance.now();
  let clusters: number;
  if (method === 'clusters') clusters = clusterSignatures(sigs.map((sig, k) => ({ id: ids[k], sig }))).length;
  else {
    const index = new LshIndex<string>(NEAR_DUPLICATE_PARAMS.bands, NEAR_DUPLICATE_PARAMS.rows);
    sigs.forEach((sig, k) => index.add(ids[k], sig));
    clusters = index.similarPairs(NEAR_DUPLICATE_PARAMS.threshold).length; // pairs: the work before the components
  }
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - t0) / 1000, clusters })}\n`);
}

/** Runs this script as a child under /usr/bin/time: its JSON line and its peak resident memory. */
function fresh(kind: string, n: number, method: string): { seconds: number; clusters: number; peakMB: number } {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, '--max-old-space-size=8192', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', kind, '--n', String(n), '--method', method], { cwd: ROOT, encoding: 'utf8' });
  if (r.error) throw new Error(`cannot run /usr/bin/time (apt-get install -y time): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${kind} ${n} ${method} failed: ${r.stderr}`);
  const peakKB = Number(r.stderr.trim().split('\n').pop());
  return { ...(JSON.parse(r.stdout.trim()) as { seconds: number; clusters: number }), peakMB: peakKB / 1024 };
}

function seconds(args: string[]): number {
  const t0 = performance.now();
  execFileSync(process.execPath, ['bin/pith.js', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { part: { type: 'string' }, child: { type: 'string' }, n: { type: 'string' }, method: { type: 'string' }, rounds: { type: 'string' } } });
  if (values.child !== undefined) return child(values.child as 'scale' | 'alike', Number(values.n), values.method as 'clusters' | 'all-pairs');
  const parts = values.part === undefined ? ['dev', 'scale', 'alike'] : [values.part];
  const rounds = Number(values.rounds ?? 3);

  if (parts.includes('dev')) {
    const pages = join(process.env.PITH_DATA_DIR ?? join(ROOT, '..', 'shared', 'data', 'wcxb-dev'), 'html');
    process.stderr.write('building dist/ (npm run build) so that `node bin/pith.js` runs the current code...\n');
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    const work = mkdtempSync(join(tmpdir(), 'pith-bench-duplicates-'));
    const out = join(work, 'pages.jsonl');
    try {
      execFileSync(process.execPath, ['bin/pith.js', 'batch', pages, '--out', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      const cores = availableParallelism();
      const times: Record<number, number[]> = { 1: [], [cores]: [] };
      for (let r = 0; r < rounds; r++) for (const jobs of r % 2 === 0 ? [1, cores] : [cores, 1]) times[jobs].push(seconds(['duplicates', out, '--jobs', String(jobs), '--out', join(work, 'clusters.jsonl')]));
      const clusters = execFileSync(process.execPath, ['bin/pith.js', 'duplicates', out, '--jobs', '1'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').filter((l) => l !== '');
      // The signatures alone, in this process: every text of the output, three passes.
      const texts = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { text: string }).text);
      const passes: number[] = [];
      for (let pass = 0; pass < 3; pass++) {
        const t0 = performance.now();
        for (const text of texts) signatureOf(text);
        passes.push((performance.now() - t0) / texts.length);
      }
      console.log(`dev: MinHash signatures (signatureOf) over the ${texts.length} texts: ${median(passes).toFixed(2)} ms per text (median of ${passes.length} passes, one thread)`);
      console.log(`dev: pith duplicates over the 1,497 WCXB dev pages' batch output: --jobs 1 ${median(times[1]).toFixed(2)} s, --jobs ${cores} ${median(times[cores]).toFixed(2)} s (medians of ${rounds}; with Node's start-up); ${clusters.length} clusters: ${clusters.map((l) => (JSON.parse(l) as { ids: string[] }).ids.join('+')).join(', ')}`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  if (parts.includes('scale')) {
    const r = fresh('scale', 1_000_000, 'clusters');
    console.log(`scale: 1,000,000 signatures (100,000 families of three): ${r.clusters} clusters in ${r.seconds.toFixed(1)} s; peak memory ${r.peakMB.toFixed(0)} MB with the signatures and ids`);
  }
  if (parts.includes('alike')) {
    for (const n of [1_000, 2_000]) {
      const before = fresh('alike', n, 'all-pairs');
      const now = fresh('alike', n, 'clusters');
      console.log(`alike: ${n} signatures of one template: every candidate pair (LshIndex) ${before.seconds.toFixed(1)} s, peak ${before.peakMB.toFixed(0)} MB; clusterSignatures ${now.seconds.toFixed(2)} s, peak ${now.peakMB.toFixed(0)} MB`);
    }
    const big = fresh('alike', 20_000, 'clusters');
    console.log(`alike: 20,000 signatures of one template: clusterSignatures ${big.seconds.toFixed(2)} s, ${big.clusters} cluster, peak ${big.peakMB.toFixed(0)} MB`);
  }
}

await main();
