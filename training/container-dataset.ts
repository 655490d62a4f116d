// Dataset of the main-content container model (src/core/features/container.ts), and the per-block container columns for
// the block-model ablation.
//
//   npx tsx training/container-dataset.ts [--limit N] [--out DIR]
//     Parses every train and val page, aligns its blocks with the ground truth (dev/align.ts), and writes
//     DIR (default training/data/container/, gitignored):
//       candidates.f32  float32 LE [nCandidates, nCols] row-major: CONTAINER_FEATURES, then node_chars
//                       (characters of the candidate's text) and content_chars (of them, in aligned content blocks)
//       index.json      feature names, column names, pages {id, split, offset, count, pageChars, contentChars}
//     Labels are made in training/container.py from node_chars/content_chars (threshold chosen there).
//
//   npx tsx training/container-dataset.ts --block-columns [--dump training/data/pith]
//     For every page of the block dump (same order, same block counts; a dump of the Readability.js pages too),
//     the predicted container with the shipped models/container.json: writes DUMP/container.f32, float32 LE [totalBlocks, 2] row-major:
//     inside_container (0/1) and container_score, plus DUMP/container.json (column names, model version,
//     pages whose block count no longer matches the dump).
//
// Pages below the dump's minimum alignment coverage (0.5, training/dump-dataset.ts) are left out of the
// candidate set, as they are out of block training.

import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPage } from '../dev/corpus.js';
import { loadReadabilityAsCorpusPage } from './news-pages.js';
import { readSplits } from '../dev/splits.js';
import { CONTAINER_MODEL, predictContainer } from '../src/core/model/container-model.js';
import { CONTAINER_FEATURES, blocksInside, containerCandidates } from '../src/core/features/container.js';
import { parsePage } from '../src/core/blocks/page.js';
import type { CdomNode } from '../src/types.js';
import { alignBlocks } from '../dev/align.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_COVERAGE = 0.5;
const STAT_COLUMNS = ['node_chars', 'content_chars'];

/** Aligned content characters under each CDOM node (leaves: nCharacters when labelled 1). */
export function contentCharsByNode(blocks: readonly CdomNode[], labels: ArrayLike<number>): Map<CdomNode, number> {
  const out = new Map<CdomNode, number>();
  for (let i = 0; i < blocks.length; i++) {
    if (labels[i] !== 1) continue;
    const c = blocks[i].props.nCharacters;
    for (let n: CdomNode | null = blocks[i]; n !== null; n = n.parent) out.set(n, (out.get(n) ?? 0) + c);
  }
  return out;
}

const asBytes = (a: Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function buildCandidates(limit: number, outDir: string): void {
  const splits = readSplits();
  const jobs = [
    ...(limit > 0 ? splits.train.slice(0, limit) : splits.train).map((id) => ({ id, split: 'train' })),
    ...(limit > 0 ? splits.val.slice(0, Math.max(2, Math.round(limit / 4))) : splits.val).map((id) => ({ id, split: 'val' })),
  ];
  mkdirSync(outDir, { recursive: true });
  const fd = openSync(join(outDir, 'candidates.f32'), 'w');
  const nF = CONTAINER_FEATURES.length;
  const nCols = nF + STAT_COLUMNS.length;
  const pages: object[] = [];
  const skipped: object[] = [];
  let offset = 0;
  const t0 = performance.now();
  for (let j = 0; j < jobs.length; j++) {
    const { id, split } = jobs[j];
    try {
      const cp = loadPage(id);
      const page = parsePage(cp.html, { url: cp.url });
      const { labels, coverage } = alignBlocks(page.blocks.map((b) => b.text), cp.groundTruth.mainContent);
      if (page.root === null || coverage < MIN_COVERAGE) {
        skipped.push({ id, split, reason: page.root === null ? 'no text' : `coverage ${coverage.toFixed(3)}` });
        continue;
      }
      const cands = containerCandidates(page);
      const content = contentCharsByNode(page.blocks, labels);
      const rows = new Float32Array(cands.length * nCols); // [count, nCols] row-major
      for (let i = 0; i < cands.length; i++) {
        rows.set(cands[i].features, i * nCols);
        rows[i * nCols + nF] = cands[i].node.props.nCharacters;
        rows[i * nCols + nF + 1] = content.get(cands[i].node) ?? 0;
      }
      writeSync(fd, asBytes(rows));
      pages.push({
        id, split, domain: cp.domain, pageType: cp.pageType, offset, count: cands.length,
        pageChars: page.root.props.nCharacters, contentChars: content.get(page.root) ?? 0,
      });
      offset += cands.length;
    } catch (err) {
      skipped.push({ id, split, reason: `error: ${err instanceof Error ? err.message : String(err)}` });
    }
    if ((j + 1) % 100 === 0 || j + 1 === jobs.length) {
      process.stderr.write(`container dataset: ${j + 1}/${jobs.length} pages, ${offset} candidates, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }
  closeSync(fd);
  const index = { featureNames: CONTAINER_FEATURES, columns: [...CONTAINER_FEATURES, ...STAT_COLUMNS], totalCandidates: offset, minCoverage: MIN_COVERAGE, pages, skipped };
  writeFileSync(join(outDir, 'index.json'), JSON.stringify(index, null, 1) + '\n');
  console.log(`wrote ${outDir}: ${pages.length} pages, ${offset} candidates (${skipped.length} pages skipped)`);
}

interface DumpPage {
  id: string;
  blockOffset: number;
  nBlocks: number;
}

function buildBlockColumns(dumpDir: string): void {
  const index = JSON.parse(readFileSync(join(dumpDir, 'index.json'), 'utf8')) as { totalBlocks: number; dataHash: string; pages: DumpPage[]; source?: string };
  // a dump of the Readability.js pages (`npm run dump -- --source readability|readability-val`) reads those pages
  const load = (index.source ?? 'wcxb') === 'wcxb' ? loadPage : loadReadabilityAsCorpusPage;
  const cols = new Float32Array(index.totalBlocks * 2); // [totalBlocks, 2] row-major
  const mismatched: object[] = [];
  const t0 = performance.now();
  for (let j = 0; j < index.pages.length; j++) {
    const p = index.pages[j];
    if (p.nBlocks === 0) continue;
    try {
      const cp = load(p.id);
      const page = parsePage(cp.html, { url: cp.url });
      if (page.blocks.length !== p.nBlocks) {
        mismatched.push({ id: p.id, dump: p.nBlocks, now: page.blocks.length });
        continue; // zeros: "no container" for this page
      }
      const pred = predictContainer(page);
      const inside = blocksInside(page, pred.node);
      for (let b = 0; b < p.nBlocks; b++) {
        cols[(p.blockOffset + b) * 2] = inside[b];
        cols[(p.blockOffset + b) * 2 + 1] = pred.score;
      }
    } catch (err) {
      mismatched.push({ id: p.id, error: err instanceof Error ? err.message : String(err) });
    }
    if ((j + 1) % 100 === 0 || j + 1 === index.pages.length) {
      process.stderr.write(`block columns: ${j + 1}/${index.pages.length} pages, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }
  writeFileSync(join(dumpDir, 'container.f32'), asBytes(cols));
  const meta = { dumpDataHash: index.dataHash, columns: ['inside_container', 'container_score'], layout: 'float32 LE [totalBlocks, 2] row-major', model: CONTAINER_MODEL.version, k: CONTAINER_MODEL.k, mismatched };
  writeFileSync(join(dumpDir, 'container.json'), JSON.stringify(meta, null, 1) + '\n');
  console.log(`wrote ${join(dumpDir, 'container.f32')}: ${index.totalBlocks} blocks, ${mismatched.length} pages mismatched (zeros)`);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string', default: '0' },
      out: { type: 'string', default: join(REPO_ROOT, 'training', 'data', 'container') },
      dump: { type: 'string', default: join(REPO_ROOT, 'training', 'data', 'pith') },
      'block-columns': { type: 'boolean', default: false },
    },
  });
  if (values['block-columns']) buildBlockColumns(resolve(values.dump));
  else buildCandidates(Number.parseInt(values.limit, 10), resolve(values.out));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
