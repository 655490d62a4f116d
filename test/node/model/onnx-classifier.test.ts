// The ONNX runner (onnxruntime-web in Node) reproduces the PyTorch outputs that training/export.py saved.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultModelDir, loadNodeClassifier } from '../../../src/model/node-assets.js';
import { viterbi } from '../../../src/model/viterbi.js';
import type { FeatureSetName } from '../../../src/types.js';

interface Golden {
  version: string;
  lambda: number;
  tolerance: number;
  pages: {
    id: string;
    nBlocks: number;
    unaryFeatures: number[];
    edgeFeatures: number[];
    unary: number[];
    pairwise: number[];
    viterbiLabels: number[];
    pageFeatures?: number[];
    page?: number[];
    pageViterbiLabels?: number[];
  }[];
  pageLambda?: number;
}

function readGolden(set: FeatureSetName): Golden {
  const path = `${defaultModelDir()}/${set}.golden.json`;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Golden;
  } catch {
    throw new Error(`${path} is missing: run training/train.py --set ${set} and training/export.py --set ${set}`);
  }
}

function maxAbsDiff(a: Float32Array, b: number[]): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe.each(['pith', 'paper'] as const)('ONNX classifier, %s models', (set) => {
  it('reproduces the golden PyTorch probabilities within 1e-5 and the Python Viterbi labels', async () => {
    const golden = readGolden(set);
    const classifier = await loadNodeClassifier(set);
    expect(classifier.info.version).toBe(golden.version);
    expect(classifier.info.lambda).toBe(golden.lambda);
    expect(golden.pages.some((p) => p.nBlocks === 1)).toBe(true);
    for (const page of golden.pages) {
      const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
      expect(maxAbsDiff(p.unary, page.unary), `page ${page.id} unary`).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(p.pairwise, page.pairwise), `page ${page.id} pairwise`).toBeLessThanOrEqual(1e-5);
      expect(Array.from(viterbi(p, page.nBlocks, golden.lambda)), `page ${page.id} labels`).toEqual(page.viterbiLabels);
    }
  });

  it('serves concurrent pages without mixing them up, and a page of 0 blocks', async () => {
    const golden = readGolden(set);
    const classifier = await loadNodeClassifier(set);
    expect(await loadNodeClassifier(set)).toBe(classifier);
    const results = await Promise.all(
      golden.pages.map((page) =>
        classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks),
      ),
    );
    results.forEach((p, i) => expect(maxAbsDiff(p.unary, golden.pages[i].unary)).toBeLessThanOrEqual(1e-5));
    const empty = await classifier.predict(new Float32Array(0), new Float32Array(0), 0);
    expect(empty.unary.length).toBe(0);
    expect(empty.pairwise.length).toBe(0);
  });

  it('rejects features whose width disagrees with the sidecar', async () => {
    const classifier = await loadNodeClassifier(set);
    const nU = classifier.info.unaryFeatureNames.length;
    await expect(classifier.predict(new Float32Array(2 * (nU + 1)), new Float32Array(0), 2)).rejects.toMatchObject({
      code: 'model_mismatch',
    });
  });
});

describe('ONNX classifier, pith page stage', () => {
  it('has a page stage whose net reproduces the golden PyTorch probabilities and Viterbi labels', async () => {
    const golden = readGolden('pith');
    const classifier = await loadNodeClassifier('pith');
    expect(classifier.info.page, 'models/pith.json has no page stage: run training/page.py export').toBeDefined();
    expect(classifier.predictPage).toBeDefined();
    expect(classifier.info.page!.lambda).toBe(golden.pageLambda);
    for (const page of golden.pages) {
      expect(page.pageFeatures, `golden page ${page.id} has no page features: re-export (training/page.py export)`).toBeDefined();
      const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
      const pp = await classifier.predictPage!(Float32Array.from(page.pageFeatures!), page.nBlocks);
      expect(maxAbsDiff(pp, page.page!), `page ${page.id} page stage`).toBeLessThanOrEqual(1e-5);
      expect(Array.from(viterbi({ unary: pp, pairwise: p.pairwise }, page.nBlocks, golden.pageLambda!)), `page ${page.id} labels`).toEqual(
        page.pageViterbiLabels,
      );
    }
  });

  it('rejects page features whose width disagrees with the sidecar', async () => {
    const classifier = await loadNodeClassifier('pith');
    const nP = classifier.info.page!.featureNames.length;
    await expect(classifier.predictPage!(new Float32Array(2 * (nP + 1)), 2)).rejects.toMatchObject({ code: 'model_mismatch' });
  });
});
