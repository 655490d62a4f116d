// onnxruntime-web inside workerd: the Worker's classifier reproduces the PyTorch outputs of the golden file.
import { describe, expect, it } from 'vitest';
import golden from '../../models/pith.golden.json' with { type: 'json' };
import { getWorkerClassifier } from '../../src/model/worker-assets.js';
import { viterbi } from '../../src/model/viterbi.js';

function maxAbsDiff(a: Float32Array, b: number[]): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe('getWorkerClassifier (workerd)', () => {
  it('matches the golden PyTorch probabilities within 1e-5', async () => {
    const [classifier, again] = await Promise.all([getWorkerClassifier(), getWorkerClassifier()]);
    expect(again).toBe(classifier);
    expect(classifier.info.version).toBe(golden.version);
    expect(classifier.info.featureSet).toBe('pith');
    for (const page of golden.pages) {
      const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
      expect(maxAbsDiff(p.unary, page.unary), `page ${page.id} unary`).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDiff(p.pairwise, page.pairwise), `page ${page.id} pairwise`).toBeLessThanOrEqual(1e-5);
      expect(Array.from(viterbi(p, page.nBlocks, golden.lambda)), `page ${page.id} labels`).toEqual(page.viterbiLabels);
    }
  });

  it('runs the page stage and matches its golden PyTorch probabilities within 1e-5', async () => {
    const classifier = await getWorkerClassifier();
    expect(classifier.info.page, 'the bundled models/pith.json has no page stage').toBeDefined();
    expect(classifier.info.page!.lambda).toBe(golden.pageLambda);
    for (const page of golden.pages) {
      const p = await classifier.predict(Float32Array.from(page.unaryFeatures), Float32Array.from(page.edgeFeatures), page.nBlocks);
      const pp = await classifier.predictPage!(Float32Array.from(page.pageFeatures), page.nBlocks);
      expect(maxAbsDiff(pp, page.page), `page ${page.id} page stage`).toBeLessThanOrEqual(1e-5);
      expect(Array.from(viterbi({ unary: pp, pairwise: p.pairwise }, page.nBlocks, golden.pageLambda)), `page ${page.id} labels`).toEqual(
        page.pageViterbiLabels,
      );
    }
  });
});
