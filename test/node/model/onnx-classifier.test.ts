// The ONNX runner (onnxruntime-web in Node): concurrent pages, empty pages, feature widths. Parity with PyTorch is
// the golden-parity suite (golden-parity.test.ts).
import { describe, expect, it } from 'vitest';
import { readGoldenFile } from '../../../dev/golden-file.js';
import { loadNodeClassifier } from '../../../src/hosts/node/model-assets.js';

function maxAbsDiff(a: Float32Array, b: number[]): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe.each(['pith', 'paper'] as const)('ONNX classifier, %s models', (set) => {
  it('serves concurrent pages without mixing them up, and a page of 0 blocks', async () => {
    const golden = readGoldenFile(set);
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
  it('the shipped pith model has a page stage (its parity is in the golden-parity suite)', async () => {
    const classifier = await loadNodeClassifier('pith');
    expect(classifier.info.page, 'models/pith.json has no page stage: run training/page.py export').toBeDefined();
    expect(classifier.predictPage).toBeDefined();
    expect(classifier.info.page!.lambda).toBe(readGoldenFile('pith').pageLambda);
  });

  it('rejects page features whose width disagrees with the sidecar', async () => {
    const classifier = await loadNodeClassifier('pith');
    const nP = classifier.info.page!.featureNames.length;
    await expect(classifier.predictPage!(new Float32Array(2 * (nP + 1)), 2)).rejects.toMatchObject({ code: 'model_mismatch' });
  });
});
