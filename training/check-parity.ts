// PyTorch vs onnxruntime-web parity, through the runtime code that ships (src/model). Called by training/export.py;
// exits 1 when a probability differs by more than the golden file's tolerance or Viterbi decodes differently.
//
//   npx tsx training/check-parity.ts --dir models --set pith

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadNodeClassifier } from '../src/model/node-assets.js';
import { viterbi } from '../src/model/viterbi.js';
import type { FeatureSetName } from '../src/types.js';

interface GoldenPage {
  id: string;
  nBlocks: number;
  unaryFeatures: number[];
  edgeFeatures: number[];
  unary: number[];
  pairwise: number[];
  viterbiLabels: number[];
  /** Present when the model has a page stage (training/page.py export). */
  pageFeatures?: number[];
  page?: number[];
  pageViterbiLabels?: number[];
}

function maxAbsDiff(a: Float32Array, b: number[]): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'models' }, set: { type: 'string', default: 'pith' } } });
const set = values.set as FeatureSetName;
const golden = JSON.parse(readFileSync(join(values.dir, `${set}.golden.json`), 'utf8')) as {
  lambda: number;
  pageLambda?: number;
  tolerance: number;
  pages: GoldenPage[];
};
const classifier = await loadNodeClassifier(set, values.dir);
let worst = 0;
let failed = false;
for (const page of golden.pages) {
  const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
  const diff = Math.max(maxAbsDiff(p.unary, page.unary), maxAbsDiff(p.pairwise, page.pairwise));
  const labels = Array.from(viterbi(p, page.nBlocks, golden.lambda));
  const sameLabels = labels.join() === page.viterbiLabels.join();
  worst = Math.max(worst, diff);
  if (diff > golden.tolerance || !sameLabels) failed = true;
  console.log(`parity ${page.id}: ${page.nBlocks} blocks, max abs diff ${diff.toExponential(2)}, Viterbi labels ${sameLabels ? 'equal' : 'DIFFER'}`);
  if (classifier.info.page) {
    if (!page.pageFeatures || !page.page || !page.pageViterbiLabels || golden.pageLambda === undefined || !classifier.predictPage) {
      console.log(`parity ${page.id}: the model has a page stage but the golden file has no page outputs: re-export it (training/page.py export)`);
      failed = true;
      continue;
    }
    const pp = await classifier.predictPage(Float32Array.from(page.pageFeatures), page.nBlocks);
    const pageDiff = maxAbsDiff(pp, page.page);
    const pageLabels = Array.from(viterbi({ unary: pp, pairwise: p.pairwise }, page.nBlocks, golden.pageLambda));
    const samePage = pageLabels.join() === page.pageViterbiLabels.join();
    worst = Math.max(worst, pageDiff);
    if (pageDiff > golden.tolerance || !samePage) failed = true;
    console.log(`parity ${page.id} page stage: max abs diff ${pageDiff.toExponential(2)}, Viterbi labels ${samePage ? 'equal' : 'DIFFER'}`);
  }
}
console.log(`parity ${set}: max abs diff ${worst.toExponential(2)} (tolerance ${golden.tolerance}) ${failed ? 'FAILED' : 'ok'}`);
process.exit(failed ? 1 : 0);
