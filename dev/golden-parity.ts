// The golden-parity check: the runtime classifier (onnxruntime-web, in Node or in workerd) must reproduce the
// PyTorch probabilities and the Python Viterbi labels that training/export.py saved in models/<set>.golden.json.
// Pure (no I/O): the caller reads the golden file, so that the same check runs in both runtimes. Used by
// training/check-parity.ts (called by export.py) and by the golden-parity suites of test/.

import { viterbi } from '../src/core/decode/viterbi.js';
import type { Classifier } from '../src/types.js';

export interface GoldenPage {
  id: string;
  nBlocks: number;
  /** [nBlocks, nUnaryFeatures] row-major, normalised as the model expects. */
  unaryFeatures: number[];
  /** [nBlocks - 1, nEdgeFeatures] row-major. */
  edgeFeatures: number[];
  unary: number[];
  pairwise: number[];
  viterbiLabels: number[];
  /** Present when the model has a page stage: [nBlocks, nPageFeatures] row-major, its [nBlocks, 2] outputs, labels. */
  pageFeatures?: number[];
  page?: number[];
  pageViterbiLabels?: number[];
}

export interface GoldenFile {
  version: string;
  lambda: number;
  /** The page stage's pairwise weight, when the model has a page stage. */
  pageLambda?: number;
  tolerance: number;
  pages: GoldenPage[];
}

export interface PageParity {
  id: string;
  nBlocks: number;
  /** Largest absolute difference of a unary or pairwise probability (Infinity when the lengths differ). */
  maxAbsDiff: number;
  sameLabels: boolean;
  /** The page stage, when the model has one: its largest output difference and whether its Viterbi labels agree. */
  page?: { maxAbsDiff: number; sameLabels: boolean };
}

export interface GoldenParity {
  pages: PageParity[];
  maxAbsDiff: number;
  /** Every page within the golden file's tolerance and with the same Viterbi labels. */
  ok: boolean;
}

function maxAbsDiff(a: Float32Array, b: number[]): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/** Run every golden page through the classifier and compare with the saved PyTorch outputs. */
export async function checkGoldenParity(classifier: Classifier, golden: GoldenFile): Promise<GoldenParity> {
  const pages: PageParity[] = [];
  for (const page of golden.pages) {
    const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
    const diff = Math.max(maxAbsDiff(p.unary, page.unary), maxAbsDiff(p.pairwise, page.pairwise));
    const labels = Array.from(viterbi(p, page.nBlocks, golden.lambda));
    const result: PageParity = { id: page.id, nBlocks: page.nBlocks, maxAbsDiff: diff, sameLabels: labels.join() === page.viterbiLabels.join() };
    if (classifier.info.page) {
      if (!page.pageFeatures || !page.page || !page.pageViterbiLabels || golden.pageLambda === undefined || !classifier.predictPage) {
        // The model has a page stage the golden file does not cover: a failure, not a skip.
        result.page = { maxAbsDiff: Infinity, sameLabels: false };
      } else {
        const pp = await classifier.predictPage(Float32Array.from(page.pageFeatures), page.nBlocks);
        const pageLabels = Array.from(viterbi({ unary: pp, pairwise: p.pairwise }, page.nBlocks, golden.pageLambda));
        result.page = { maxAbsDiff: maxAbsDiff(pp, page.page), sameLabels: pageLabels.join() === page.pageViterbiLabels.join() };
      }
    }
    pages.push(result);
  }
  const worst = pages.reduce((m, p) => Math.max(m, p.maxAbsDiff, p.page?.maxAbsDiff ?? 0), 0);
  const pageOk = (p: PageParity): boolean => p.maxAbsDiff <= golden.tolerance && p.sameLabels;
  return {
    pages,
    maxAbsDiff: worst,
    ok: pages.every((p) => pageOk(p) && (p.page === undefined || (p.page.maxAbsDiff <= golden.tolerance && p.page.sameLabels))),
  };
}
