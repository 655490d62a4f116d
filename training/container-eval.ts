// Word-F1 of the main-content container as an extractor, on the validation split.
//
//   npx tsx training/container-eval.ts [--runs training/runs/container] [--limit N] [--json OUT]
//
// For every val page (training/splits.json, all of them, as eval/run-eval.ts): the text of the predicted container
// ("keep everything in the container", src/core/render/text.ts) scored against the ground truth with dev/score.ts, for
// each model variant in --runs (written by training/container.py) and k = 1..8; beside it the rows "everything"
// (the CDOM root), "nothing", the oracle container (the training label, needs the alignment), the shipped block
// model (lib extract) and the block model restricted to the predicted container of the shipped container model.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPage } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';
import { type PageScore, scorePage, summarise } from '../dev/score.js';
import { extract } from '../src/hosts/node/lib.js';
import { CONTAINER_MODEL, type ContainerModel, deepestOfTopK, loadContainerModel, scoreCandidates } from '../src/core/model/container-model.js';
import { blocksInside, containerCandidates } from '../src/core/features/container.js';
import { parsePage } from '../src/core/blocks/page.js';
import { renderText } from '../src/core/render/text.js';
import type { CdomNode } from '../src/types.js';
import { alignBlocks } from '../dev/align.js';
import { contentCharsByNode } from './container-dataset.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KS = [1, 2, 3, 4, 5, 6, 7, 8];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: join(REPO_ROOT, 'training', 'runs', 'container') },
      limit: { type: 'string', default: '0' },
      json: { type: 'string', default: '' },
    },
  });
  const runs = resolve(values.runs);
  const limit = Number.parseInt(values.limit, 10);
  const jsonOut = values.json === '' ? '' : resolve(values.json);
  const summary = JSON.parse(readFileSync(join(runs, 'summary.json'), 'utf8')) as { labelShare: number };
  const variants: [string, ContainerModel][] = readdirSync(runs)
    .filter((f) => f.endsWith('.json') && f !== 'summary.json')
    .sort()
    .map((f) => [f.slice(0, -5), loadContainerModel(JSON.parse(readFileSync(join(runs, f), 'utf8')), join(runs, f))]);
  let ids = readSplits().val;
  if (limit > 0) ids = ids.slice(0, limit);

  const rows = new Map<string, PageScore[]>();
  const add = (row: string, s: PageScore): void => {
    const r = rows.get(row);
    if (r) r.push(s);
    else rows.set(row, [s]);
  };
  const t0 = performance.now();
  for (let j = 0; j < ids.length; j++) {
    const cp = loadPage(ids[j]);
    const ref = { id: cp.id, pageType: cp.pageType, mainContent: cp.groundTruth.mainContent, with: cp.groundTruth.with, without: cp.groundTruth.without };
    const page = parsePage(cp.html, { url: cp.url });
    const textBlocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
    const textOf = (node: CdomNode | null): string => renderText(textBlocks, blocksInside(page, node));
    add('nothing', scorePage('', ref));
    add('everything (CDOM root)', scorePage(textOf(page.root), ref));
    // oracle: the training label
    const { labels } = alignBlocks(page.blocks.map((b) => b.text), cp.groundTruth.mainContent);
    const content = contentCharsByNode(page.blocks, labels);
    const cands = containerCandidates(page);
    const total = page.root ? (content.get(page.root) ?? 0) : 0;
    let oracle: CdomNode | null = page.root;
    if (total > 0) {
      let bestChars = Number.POSITIVE_INFINITY;
      for (const c of cands) {
        if ((content.get(c.node) ?? 0) >= summary.labelShare * total - 1e-6 && c.node.props.nCharacters < bestChars) {
          bestChars = c.node.props.nCharacters;
          oracle = c.node;
        }
      }
    }
    add('oracle container (label)', scorePage(textOf(oracle), ref));
    const depths = cands.map((c) => c.features[0]);
    for (const [name, model] of variants) {
      const scores = scoreCandidates(cands, model);
      for (const k of KS) {
        const i = deepestOfTopK(scores, depths, k);
        add(`${name} k=${k}`, scorePage(textOf(i < 0 ? null : cands[i].node), ref));
      }
    }
    // the block model alone and inside the shipped container
    const ex = await extract(cp.html, { url: cp.url });
    if (ex.blocks.length === page.blocks.length) {
      add('block model (pith)', scorePage(ex.text, ref));
      const i = deepestOfTopK(scoreCandidates(cands, CONTAINER_MODEL), depths, CONTAINER_MODEL.k);
      const inside = blocksInside(page, i < 0 ? null : cands[i].node);
      const both = ex.blocks.map((b) => (b.label === 1 && inside[b.index] === 1 ? 1 : 0));
      add(`block model ∩ shipped container (k=${CONTAINER_MODEL.k})`, scorePage(renderText(textBlocks, both), ref));
    } else {
      process.stderr.write(`page ${cp.id}: extract gave ${ex.blocks.length} blocks, parsePage ${page.blocks.length}: block-model rows skip it\n`);
    }
    if ((j + 1) % 50 === 0 || j + 1 === ids.length) {
      process.stderr.write(`container eval: ${j + 1}/${ids.length} pages, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }
  const table: Record<string, ReturnType<typeof summarise>> = {};
  console.log('| row | pages | word P | word R | word F1 |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [row, scores] of rows) {
    const s = summarise(scores);
    table[row] = s;
    console.log(`| ${row} | ${s.n} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${s.f1.toFixed(3)} |`);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(table, null, 1) + '\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
