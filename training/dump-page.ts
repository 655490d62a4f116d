// Page-feature dump for the second stage (issue 10): every page of a first-stage dump is parsed again, its first
// pass run by a net that never saw it, and its page features (src/core/features/page-context.ts, the code inference runs)
// written beside the first-stage arrays.
//
//   npm run dump:page -- [--set pith] [--data DIR] [--run DIR] [--models DIR] [--schema page-3|page-4|page-5]
//
// First pass: a training page gets the unary probabilities of the fold net trained without its site
// (<run>/folds/<k>/, from `training/page.py folds`); validation and excluded pages get those of the shipped first
// stage (--models, default models/), as at inference. Both run through the runtime's ONNX classifier.
// A dump of another source (index.json `source`, e.g. the Readability train pages of `npm run dump -- --source
// readability`, whose sites no first-stage net saw) gets every first pass from the shipped first stage.
// Writes DIR/page.f32 (float32 [totalBlocks, nPage] row-major, the rows of unary.f32) and DIR/page-index.json.

import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPage } from '../dev/corpus.js';
import { loadReadabilityAsCorpusPage } from './news-pages.js';
import { loadNodeClassifier } from '../src/hosts/node/model-assets.js';
import { computeFeatures } from '../src/core/features/features.js';
import { PAGE_FEATURE_SCHEMA, PAGE_FEATURE_SCHEMAS, type PageFeatureSchema, computePageFeatures, pageFeatureNames } from '../src/core/features/page-context.js';
import { extractMetadata } from '../src/core/metadata/metadata.js';
import type { DomNode } from '../src/core/parse/dom.js';
import { parsePage } from '../src/core/blocks/page.js';
import type { Classifier } from '../src/types.js';
import type { IndexPage } from './dump-dataset.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: 'pith' },
      data: { type: 'string' },
      run: { type: 'string' },
      models: { type: 'string', default: join(REPO_ROOT, 'models') },
      schema: { type: 'string', default: PAGE_FEATURE_SCHEMA },
    },
  });
  const schema = values.schema as PageFeatureSchema;
  if (!PAGE_FEATURE_SCHEMAS.includes(schema)) throw new Error(`--schema must be one of ${PAGE_FEATURE_SCHEMAS.join(', ')}`);
  if (values.set !== 'pith') throw new Error('the page stage is built on the pith feature set');
  const dataDir = resolve(values.data ?? join(REPO_ROOT, 'training', 'data', 'pith'));
  const runDir = resolve(values.run ?? join(REPO_ROOT, 'training', 'runs', 'pith'));
  const index = JSON.parse(readFileSync(join(dataDir, 'index.json'), 'utf8')) as {
    dataHash: string;
    totalBlocks: number;
    pages: IndexPage[];
    source?: string;
  };
  const source = index.source ?? 'wcxb';
  if (source !== 'wcxb' && source !== 'readability' && source !== 'readability-val') throw new Error(`${dataDir}: unknown source ${source}`);
  const folds = source !== 'wcxb'
    ? { k: 0, dataHash: index.dataHash, folds: {} as Record<string, number> }
    : (JSON.parse(readFileSync(join(runDir, 'folds', 'folds.json'), 'utf8')) as { k: number; dataHash: string; folds: Record<string, number> });
  if (folds.dataHash !== index.dataHash) throw new Error(`${runDir}/folds was trained on another dump: run training/page.py folds again`);
  const shipped = await loadNodeClassifier('pith', values.models);
  const foldNets: Classifier[] = [];
  for (let k = 0; k < folds.k; k++) foldNets.push(await loadNodeClassifier('pith', join(runDir, 'folds', String(k))));

  const names = pageFeatureNames(schema);
  const nP = names.length;
  const fd = openSync(join(dataDir, 'page.f32'), 'w');
  const hash = createHash('sha256');
  let rows = 0;
  const t0 = performance.now();
  for (let j = 0; j < index.pages.length; j++) {
    const entry = index.pages[j];
    if (entry.nBlocks === 0) continue;
    if (entry.blockOffset !== rows) throw new Error(`page ${entry.id}: block offset ${entry.blockOffset}, ${rows} rows written`);
    const corpusPage = source === 'wcxb' ? loadPage(entry.id) : loadReadabilityAsCorpusPage(entry.id);
    const page = parsePage(corpusPage.html, { url: corpusPage.url });
    const features = computeFeatures(page, 'pith');
    if (features.nBlocks !== entry.nBlocks) throw new Error(`page ${entry.id}: ${features.nBlocks} blocks now, ${entry.nBlocks} in the dump: dump again`);
    const fold = entry.split === 'train' && source === 'wcxb' ? folds.folds[entry.id] : undefined;
    if (entry.split === 'train' && source === 'wcxb' && fold === undefined) throw new Error(`page ${entry.id} has no fold: run training/page.py folds again`);
    const classifier = fold === undefined ? shipped : foldNets[fold];
    const { unary } = await classifier.predict(features.unary, features.edge, features.nBlocks);
    const meta = extractMetadata(page.document as DomNode, { url: corpusPage.url });
    const facts = { kinds: meta.kinds, title: meta.title, url: corpusPage.url, canonicalUrl: meta.canonicalUrl };
    const pageFeatures = computePageFeatures(page, features, unary, facts, schema); // [nBlocks, nP]
    for (let i = 0; i < pageFeatures.length; i++) {
      if (!Number.isFinite(pageFeatures[i])) throw new Error(`page ${entry.id}: page feature ${names[i % nP]} is not finite`);
    }
    const bytes = new Uint8Array(pageFeatures.buffer, pageFeatures.byteOffset, pageFeatures.byteLength);
    writeSync(fd, bytes);
    hash.update(bytes);
    rows += entry.nBlocks;
    if ((j + 1) % 200 === 0 || j + 1 === index.pages.length) {
      process.stderr.write(`dump:page ${j + 1}/${index.pages.length} pages, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }
  closeSync(fd);
  if (rows !== index.totalBlocks) throw new Error(`wrote ${rows} rows, the dump has ${index.totalBlocks} blocks`);
  const pageIndex = {
    pageFeatureSchema: schema,
    pageFeatureNames: names,
    dataHash: index.dataHash,
    pageDataHash: hash.digest('hex'),
    firstPass: source === 'wcxb'
      ? { train: `out of fold: ${folds.k} fold nets by site (training/page.py folds)`, val: shipped.info.version }
      : { train: `${source} pages: the shipped first stage (no net saw their sites)`, val: shipped.info.version },
    totalBlocks: rows,
  };
  writeFileSync(join(dataDir, 'page-index.json'), JSON.stringify(pageIndex, null, 1) + '\n');
  console.log(`dump:page -> ${dataDir}/page.f32: ${rows} blocks x ${nP} page features in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

main().catch((err: unknown) => {
  process.stderr.write(`dump:page: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
