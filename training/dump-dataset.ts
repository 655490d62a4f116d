// Dataset dump: parse every corpus page, compute its block and edge features, label its blocks by alignment with
// the ground truth, and write compact binary arrays plus an index for the Python training code.
//
//   npm run dump -- --set pith|paper [--limit N] [--out DIR] [--min-coverage 0.5] [--no-report]
//                   [--source wcxb|readability|readability-val]
//
// --source readability dumps the train part of the Readability.js test pages instead (training/news-pages.ts), to
// DIR training/data/<set>-readability/ by default: extra training pages of the page stage, never of the first stage;
// readability-val their validation part (split "val", DIR <set>-readability-val/), which is only scored.
//
// Writes DIR (default training/data/<set>/, gitignored):
//   unary.f32   float32 little-endian [totalBlocks, nUnary] row-major, pages concatenated
//   edge.f32    float32 little-endian [totalEdges, nEdge] row-major (nBlocks - 1 rows per page)
//   labels.u8   uint8 [totalBlocks], 1 = content
//   words.u32   uint32 little-endian [totalBlocks]: the block's word count, tokenised as the benchmark's word-F1
//               (dev/score.ts); for loss weights and word-weighted metrics in training, not a feature
//   index.json  feature set, schema and its hash, feature names, data hash, pages with offsets, split, coverage
// and, on a full run, the alignment report training/reports/alignment.md.
//
// Splits come from training/splits.json (by site, near-duplicates together). A page whose alignment coverage is
// below --min-coverage, whose parse throws, or whose features are not finite gets split "excluded" with a reason
// (listed in the report); its rows are still written when it has features, so tools can look at it.
// --limit N keeps the first N train pages and max(2, N/4) val pages (the CI smoke run).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CorpusPage, type PageType, loadPage } from '../dev/corpus.js';
import { loadReadabilityAsCorpusPage, readabilityIds } from './news-pages.js';
import { readSplits } from '../dev/splits.js';
import { tokenize } from '../dev/score.js';
import { FEATURE_SCHEMA, computeFeatures, featureNames } from '../src/core/features/features.js';
import { parsePage } from '../src/core/blocks/page.js';
import type { FeatureSetName } from '../src/types.js';
import { type AlignStats, alignBlocks } from '../dev/align.js';
import { type PageRecord, writeAlignmentReport } from './alignment-report.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Pages below this share of aligned ground-truth characters are excluded from training and model selection.
 * Chosen from the coverage distribution (training/reports/alignment.md): above 0.5 almost every page aligns
 * nearly completely (median ~0.99); below it the blocks lack most of the ground truth (content rendered by
 * script, consent walls, a ground truth written from another version of the page), so their 0 labels would
 * teach the model that real content is boilerplate.
 */
export const MIN_COVERAGE = 0.5;

/**
 * sha256 of the ordered feature names and the schema version of a set: the contract between this dump, the
 * trained model's sidecar and the runtime feature code.
 */
export function featureSchemaHash(set: FeatureSetName): string {
  const names = featureNames(set);
  const text = [`set=${set}`, `schema=${FEATURE_SCHEMA[set]}`, 'unary:', ...names.unary, 'edge:', ...names.edge].join('\n');
  return createHash('sha256').update(text).digest('hex');
}

export interface IndexPage {
  id: string;
  domain: string;
  pageType: PageType;
  split: 'train' | 'val' | 'excluded';
  blockOffset: number;
  nBlocks: number;
  edgeOffset: number;
  coverage: number;
  /** Present for excluded pages: why. */
  reason?: string;
}

interface Args {
  set: FeatureSetName;
  limit: number;
  out: string;
  minCoverage: number;
  report: boolean;
  source: 'wcxb' | 'readability' | 'readability-val';
}

function readArgs(argv: string[]): Args {
  const { values } = parseArgs({
    args: argv,
    options: {
      set: { type: 'string', default: 'pith' },
      limit: { type: 'string', default: '0' },
      out: { type: 'string', default: '' },
      'min-coverage': { type: 'string', default: String(MIN_COVERAGE) },
      'no-report': { type: 'boolean', default: false },
      source: { type: 'string', default: 'wcxb' },
    },
  });
  if (values.set !== 'pith' && values.set !== 'paper') throw new Error(`--set must be "pith" or "paper", got "${values.set}"`);
  if (values.source !== 'wcxb' && values.source !== 'readability' && values.source !== 'readability-val') {
    throw new Error(`--source must be "wcxb", "readability" or "readability-val", got "${values.source}"`);
  }
  const args: Args = {
    set: values.set,
    limit: Number.parseInt(values.limit, 10),
    out: values.out,
    minCoverage: Number.parseFloat(values['min-coverage']),
    report: !values['no-report'] && values.source === 'wcxb',
    source: values.source,
  };
  if (!Number.isFinite(args.limit) || args.limit < 0) throw new Error('--limit must be a non-negative integer');
  if (!(args.minCoverage >= 0 && args.minCoverage <= 1)) throw new Error('--min-coverage must be in [0, 1]');
  args.out = resolve(args.out || join(REPO_ROOT, 'training', 'data', args.source === 'wcxb' ? args.set : `${args.set}-${args.source}`));
  return args;
}

/** Names of the non-finite features of a [rows, cols] array, or [] when all are finite. */
function nonFinite(values: Float32Array, cols: number, names: string[]): string[] {
  const bad = new Set<string>();
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) bad.add(names[i % cols]);
  return [...bad];
}

/** Commit of the repo and whether the feature code (src/parse) differs from it: recorded so a dump can be traced. */
function codeVersion(): { commit: string; parseCodeDirty: boolean } {
  try {
    const git = (...a: string[]): string => execFileSync('git', a, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', 'HEAD'), parseCodeDirty: git('status', '--porcelain', '--', 'src/core', 'src/types.ts', 'src/config.ts') !== '' };
  } catch {
    return { commit: 'unknown', parseCodeDirty: true };
  }
}

function hashFiles(paths: string[]): string {
  const h = createHash('sha256');
  for (const p of paths) h.update(readFileSync(p));
  return h.digest('hex');
}

function main(): void {
  const args = readArgs(process.argv.slice(2));
  const t0 = performance.now();
  const version = codeVersion();
  if (version.parseCodeDirty) process.stderr.write('warning: src/core has uncommitted changes; the dump records this\n');
  const splits = readSplits();
  const names = featureNames(args.set);
  const nU = names.unary.length;
  const nE = names.edge.length;

  // Pages to dump with their split from splits.json.
  let jobs: { id: string; split: 'train' | 'val' | 'excluded'; reason?: string }[];
  const load: (id: string) => CorpusPage = args.source === 'wcxb' ? loadPage : loadReadabilityAsCorpusPage;
  if (args.source !== 'wcxb') {
    const split = args.source === 'readability' ? ('train' as const) : ('val' as const);
    jobs = readabilityIds(split).map((id) => ({ id, split }));
    if (args.limit > 0) jobs = jobs.slice(0, args.limit);
  } else if (args.limit > 0) {
    jobs = [
      ...splits.train.slice(0, args.limit).map((id) => ({ id, split: 'train' as const })),
      ...splits.val.slice(0, Math.max(2, Math.round(args.limit / 4))).map((id) => ({ id, split: 'val' as const })),
    ];
  } else {
    jobs = [
      ...splits.train.map((id) => ({ id, split: 'train' as const })),
      ...splits.val.map((id) => ({ id, split: 'val' as const })),
      ...splits.excluded.map((e) => ({ id: e.id, split: 'excluded' as const, reason: e.reason })),
    ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  mkdirSync(args.out, { recursive: true });
  const files = { unary: join(args.out, 'unary.f32'), edge: join(args.out, 'edge.f32'), labels: join(args.out, 'labels.u8') };
  const fdU = openSync(files.unary, 'w');
  const fdE = openSync(files.edge, 'w');
  const fdL = openSync(files.labels, 'w');
  const fdW = openSync(join(args.out, 'words.u32'), 'w'); // not in dataHash: side data, not model input
  const asBytes = (a: Float32Array | Uint8Array | Uint32Array): Uint8Array =>
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (new Uint8Array(new Float32Array([1]).buffer)[3] !== 0x3f) throw new Error('the dump assumes a little-endian machine');

  const pages: IndexPage[] = [];
  const records: PageRecord[] = [];
  let blockOffset = 0;
  let edgeOffset = 0;
  let parseMs = 0;
  let featureMs = 0;
  let alignMs = 0;
  const totals: AlignStats = {
    cleanChars: 0, sourceChars: 0, anchorChars: 0, reorderedChars: 0, dpChars: 0, gaps: 0, gapsSkipped: 0, dpCells: 0,
  };
  for (let j = 0; j < jobs.length; j++) {
    const job = jobs[j];
    const corpusPage = load(job.id);
    const entry: IndexPage = {
      id: job.id,
      domain: corpusPage.domain,
      pageType: corpusPage.pageType,
      split: job.split,
      blockOffset,
      nBlocks: 0,
      edgeOffset,
      coverage: 0,
    };
    if (job.reason) entry.reason = job.reason;
    const record: PageRecord = {
      id: job.id, url: corpusPage.url, pageType: corpusPage.pageType, split: job.split, nBlocks: 0, nContent: 0,
      coverage: 0, stats: null, reason: job.reason ?? null, groundTruthChars: corpusPage.groundTruth.mainContent.length,
    };
    try {
      let t = performance.now();
      const page = parsePage(corpusPage.html, { url: corpusPage.url });
      parseMs += performance.now() - t;
      t = performance.now();
      const features = computeFeatures(page, args.set);
      featureMs += performance.now() - t;
      t = performance.now();
      const { labels, coverage, stats } = alignBlocks(page.blocks.map((b) => b.text), corpusPage.groundTruth.mainContent);
      alignMs += performance.now() - t;
      for (const k of Object.keys(totals) as (keyof AlignStats)[]) totals[k] += stats[k];
      const n = features.nBlocks;
      if (n !== page.blocks.length || features.unary.length !== n * nU || features.edge.length !== Math.max(n - 1, 0) * nE) {
        throw new Error(`feature shapes do not match ${n} blocks (${features.unary.length} unary, ${features.edge.length} edge values)`);
      }
      const bad = [...nonFinite(features.unary, nU, names.unary), ...nonFinite(features.edge, nE, names.edge)];
      if (bad.length > 0) throw new Error(`non-finite features: ${bad.join(', ')}`);
      writeSync(fdU, asBytes(features.unary)); // [n, nU] row-major
      writeSync(fdE, asBytes(features.edge)); // [n - 1, nE] row-major
      writeSync(fdL, labels); // [n]
      writeSync(fdW, asBytes(Uint32Array.from(page.blocks, (b) => tokenize(b.text).length))); // [n]
      entry.nBlocks = n;
      entry.coverage = Math.round(coverage * 1e6) / 1e6;
      blockOffset += n;
      edgeOffset += Math.max(n - 1, 0);
      let nContent = 0;
      for (let b = 0; b < n; b++) nContent += labels[b];
      Object.assign(record, { nBlocks: n, nContent, coverage, stats });
      if (entry.split !== 'excluded' && coverage < args.minCoverage) {
        entry.split = 'excluded';
        entry.reason = `alignment coverage ${coverage.toFixed(3)} < ${args.minCoverage}`;
      } else if (entry.split !== 'excluded' && n === 0) {
        entry.split = 'excluded';
        entry.reason = 'no blocks';
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`page ${job.id}: ${message} (excluded)\n`);
      entry.split = 'excluded';
      entry.reason = `error: ${message}`;
    }
    record.split = entry.split;
    record.reason = entry.reason ?? null;
    pages.push(entry);
    records.push(record);
    if ((j + 1) % 100 === 0 || j + 1 === jobs.length) {
      process.stderr.write(`dump ${args.set}: ${j + 1}/${jobs.length} pages, ${blockOffset} blocks, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  }
  closeSync(fdU);
  closeSync(fdE);
  closeSync(fdL);
  closeSync(fdW);

  const index = {
    featureSet: args.set,
    source: args.source,
    featureSchema: FEATURE_SCHEMA[args.set],
    schemaHash: featureSchemaHash(args.set),
    unaryFeatureNames: names.unary,
    edgeFeatureNames: names.edge,
    dataHash: hashFiles([files.unary, files.edge, files.labels]),
    code: version,
    labels: '1 = main content, 0 = boilerplate (alignment of ground_truth.main_content, dev/align.ts)',
    minCoverage: args.minCoverage,
    limit: args.limit || null,
    totalBlocks: blockOffset,
    totalEdges: edgeOffset,
    pages,
  };
  writeFileSync(join(args.out, 'index.json'), JSON.stringify(index, null, 1) + '\n');

  const totalS = (performance.now() - t0) / 1000;
  const count = (s: string): number => pages.filter((p) => p.split === s).length;
  let nContent = 0;
  for (const r of records) nContent += r.nContent;
  const covs = records.filter((r) => r.stats && r.groundTruthChars > 0).map((r) => r.coverage).sort((a, b) => a - b);
  const median = covs.length ? covs[Math.floor(covs.length / 2)] : 0;
  console.log(
    `dump ${args.set} -> ${relative(process.cwd(), args.out) || '.'}: ${pages.length} pages (train ${count('train')}, val ${count('val')}, excluded ${count('excluded')}), ` +
      `${blockOffset} blocks (${((100 * nContent) / Math.max(blockOffset, 1)).toFixed(1)}% content), ${edgeOffset} edges, ` +
      `nU ${nU}, nE ${nE}, coverage median ${median.toFixed(3)}`,
  );
  console.log(
    `time ${totalS.toFixed(1)} s (parse ${(parseMs / 1000).toFixed(1)} s, features ${(featureMs / 1000).toFixed(1)} s, align ${(alignMs / 1000).toFixed(1)} s); ` +
      `DP gaps ${totals.gaps}, left unaligned by the cell limits ${totals.gapsSkipped}`,
  );
  if (args.report && args.limit === 0) {
    const path = writeAlignmentReport(records, {
      minCoverage: args.minCoverage,
      set: args.set,
      code: version,
      totals,
      seconds: { total: totalS, parse: parseMs / 1000, features: featureMs / 1000, align: alignMs / 1000 },
    });
    console.log(`wrote ${relative(process.cwd(), path)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
