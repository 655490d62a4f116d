// `npm run bench`: speed of pith per stage, and of the whole call side by side with Readability.js on linkedom.
// Not a test. Same pages, same process, interleaved (the order alternates page by page), after a warm-up.
//
//   npm run bench                                 first 100 validation pages of the WCXB dev corpus
//   npm run bench -- --dir <folder>               every .html / .html.gz file of a folder
//   npm run bench -- --limit 30 --rounds 3        fewer pages, each timed 3 times
//   npm run bench -- --feature-set paper
//   npm run bench -- --save                       write eval/results/bench.json (tracked) instead of eval/results/local/
//
// Both calls start from the HTML string: pith's extract() and Readability's linkedom parse + parse() each include
// their own parse. Decoding and gunzip happen once, before timing.

import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { extract } from '../src/hosts/node/lib.js';
import type { FeatureSetName, Timings } from '../src/types.js';
import { loadPage } from '../dev/corpus.js';
import { decodeHtml } from '../src/io/charset.js';
import { readSplits } from '../dev/splits.js';
import { readabilityExtract } from './readability.js';
import { requireModels } from './require-models.js';
import { writeBenchmarkDocs } from '../dev/benchmarks-doc.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface BenchPage {
  id: string;
  html: string;
}

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) usage(`${name} must be a positive integer, not ${value}`);
  return n;
}

function loadPages(dir: string | undefined, limit: number): BenchPage[] {
  if (dir) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((f) => /\.html?(\.gz)?$/i.test(f) && statSync(join(dir, f)).isFile()).sort();
    } catch {
      usage(`cannot read folder ${dir}`);
    }
    if (names.length === 0) usage(`${dir} has no .html or .html.gz files`);
    return names.slice(0, limit).map((f) => {
      const raw = readFileSync(join(dir, f));
      const bytes = f.endsWith('.gz') ? gunzipSync(raw) : raw;
      return { id: f.replace(/\.html?(\.gz)?$/i, ''), html: decodeHtml(bytes) };
    });
  }
  return readSplits()
    .val.slice(0, limit)
    .map((id) => ({ id, html: loadPage(id).html }));
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

interface Stat {
  median: number;
  p95: number;
  mean: number;
}

function stat(values: number[]): Stat {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), mean };
}

const STAGES: ReadonlyArray<[keyof Timings, string]> = [
  ['parseMs', 'parse (DOM + collapsed DOM + blocks)'],
  ['domMs', "  of which pith's DOM parse"],
  ['metadataMs', 'metadata'],
  ['featuresMs', 'features'],
  ['modelMs', 'first-stage nets (ONNX)'],
  ['pageMs', 'page stage (features + net)'],
  ['viterbiMs', 'Viterbi'],
  ['renderMs', 'output'],
  ['totalMs', 'pith total (inside extract)'],
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      limit: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      'feature-set': { type: 'string', default: 'pith' },
      save: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench -- [--dir <folder>] [--limit N (100)] [--rounds R (1)] [--warmup W (10)] [--feature-set pith|paper] [--save]\n' +
        'Results go to eval/results/local/ (not tracked); --save writes the tracked eval/results/ (for the README).\n',
    );
    return;
  }
  const featureSet = values['feature-set'] as FeatureSetName;
  if (featureSet !== 'pith' && featureSet !== 'paper') usage('--feature-set must be pith or paper');
  const limit = positiveInt('--limit', values.limit, 100);
  const rounds = positiveInt('--rounds', values.rounds, 1);
  const warmup = positiveInt('--warmup', values.warmup, 10);

  requireModels([featureSet], 'bench');
  const pages = loadPages(values.dir, limit);
  const bytes = pages.reduce((s, p) => s + p.html.length, 0);
  process.stderr.write(
    `bench: ${pages.length} pages (${(bytes / pages.length / 1024).toFixed(0)} KiB of HTML on average), ` +
      `${rounds} round(s), warm-up ${Math.min(warmup, pages.length)} pages, feature set ${featureSet}\n`,
  );

  // Warm-up: model load, ONNX session, JIT of both code paths.
  for (const p of pages.slice(0, warmup)) {
    await extract(p.html, { featureSet });
    readabilityExtract(p.html);
  }

  const pithMs: number[] = [];
  const readabilityMs: number[] = [];
  const linkedomMs: number[] = [];
  const stages = new Map<keyof Timings, number[]>(STAGES.map(([k]) => [k, []]));
  let blocks = 0;
  let pithWins = 0;
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < pages.length; i++) {
      const html = pages[i].html;
      const runPith = async () => {
        const t0 = performance.now();
        const x = await extract(html, { featureSet });
        const ms = performance.now() - t0;
        pithMs.push(ms);
        for (const [k] of STAGES) stages.get(k)?.push(x.timings[k] ?? NaN);
        blocks += x.blocks.length;
        return ms;
      };
      const runReadability = () => {
        const t0 = performance.now();
        readabilityExtract(html);
        const ms = performance.now() - t0;
        readabilityMs.push(ms);
        return ms;
      };
      const runLinkedom = () => {
        const t0 = performance.now();
        parseHTML(html);
        linkedomMs.push(performance.now() - t0);
      };
      // Interleave, alternating which goes first so that neither always runs on a warm cache.
      let a: number;
      let b: number;
      if ((i + round) % 2 === 0) {
        a = await runPith();
        b = runReadability();
        runLinkedom();
      } else {
        runLinkedom();
        b = runReadability();
        a = await runPith();
      }
      if (a < b) pithWins++;
      n++;
    }
  }

  const pith = stat(pithMs);
  const readability = stat(readabilityMs);
  const sum = (v: number[]) => v.reduce((s, x) => s + x, 0);
  const ratioMedian = pith.median / readability.median;
  const ratioTotal = sum(pithMs) / sum(readabilityMs);

  const lines: string[] = [];
  const row = (name: string, s: Stat) =>
    `${name.padEnd(44)} ${s.median.toFixed(2).padStart(9)} ${s.p95.toFixed(2).padStart(9)} ${s.mean.toFixed(2).padStart(9)}`;
  lines.push(`${'stage (ms per page)'.padEnd(44)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'mean'.padStart(9)}`);
  for (const [k, name] of STAGES) lines.push(row(name, stat(stages.get(k) ?? [])));
  lines.push('');
  lines.push(row('pith extract(), whole call', pith));
  lines.push(row('Readability.js on linkedom, whole call', readability));
  lines.push(row('(linkedom parseHTML alone, for reference)', stat(linkedomMs)));
  lines.push('');
  lines.push(
    `pith / Readability: ${ratioMedian.toFixed(2)}x at the median, ${ratioTotal.toFixed(2)}x in total time; ` +
      `pith faster on ${((pithWins / n) * 100).toFixed(0)}% of pages (target: median ratio <= 0.5)`,
  );
  lines.push(`${n} timed calls each, ${(blocks / n).toFixed(0)} blocks per page on average, Node ${process.version}`);
  process.stdout.write(lines.join('\n') + '\n');

  const out = {
    date: new Date().toISOString(),
    command: `npm run bench${process.argv.slice(2).length ? ' -- ' + process.argv.slice(2).join(' ') : ''}`,
    node: process.version,
    pages: pages.length,
    rounds,
    featureSet,
    stages: Object.fromEntries(STAGES.map(([k]) => [k, stat(stages.get(k) ?? [])])),
    pith,
    readability,
    linkedomParse: stat(linkedomMs),
    ratioMedian,
    ratioTotal,
    pithFasterShare: pithWins / n,
  };
  // A run rewrites tracked files only when asked to (--save); otherwise its results go to the ignored local/ folder.
  const resultsDir = values.save ? join(REPO_ROOT, 'eval', 'results') : join(REPO_ROOT, 'eval', 'results', 'local');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, values.dir ? 'bench-dir.json' : 'bench.json');
  writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
  process.stdout.write(`wrote ${file}${values.save ? '' : ' (--save writes eval/results/)'}\n`);
  if (values.save && !values.dir) process.stdout.write(`docs:benchmarks: ${writeBenchmarkDocs().join(', ') || 'docs already current'}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
