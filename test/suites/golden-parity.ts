// One golden-parity suite, run by two runners: test/node/model/golden-parity.test.ts (onnxruntime-web in Node)
// and test/workers/golden-parity.test.ts (onnxruntime-web inside workerd). The check itself is
// dev/golden-parity.ts, the one training/check-parity.ts runs after an export.

import { describe, expect, it } from 'vitest';
import { checkGoldenParity, type GoldenFile } from '../../dev/golden-parity.js';
import type { Classifier } from '../../src/types.js';

export function describeGoldenParity(runtime: string, golden: GoldenFile, loadClassifier: () => Promise<Classifier>): void {
  describe(`golden parity of the ${golden.version} models (${runtime})`, () => {
    it('the golden file covers a one-block page', () => {
      expect(golden.pages.length).toBeGreaterThan(0);
      expect(golden.pages.some((p) => p.nBlocks === 1)).toBe(true);
    });

    it('loads the model once and it is the model of the golden file', async () => {
      const [classifier, again] = await Promise.all([loadClassifier(), loadClassifier()]);
      expect(again).toBe(classifier);
      expect(classifier.info.version).toBe(golden.version);
      expect(classifier.info.lambda).toBe(golden.lambda);
    });

    it('reproduces the PyTorch probabilities within the tolerance and the Python Viterbi labels', async () => {
      const parity = await checkGoldenParity(await loadClassifier(), golden);
      expect(parity.pages.length).toBe(golden.pages.length);
      for (const p of parity.pages) {
        expect(p.maxAbsDiff, `page ${p.id}: largest probability difference`).toBeLessThanOrEqual(golden.tolerance);
        expect(p.sameLabels, `page ${p.id}: Viterbi labels`).toBe(true);
      }
      expect(parity.ok).toBe(true);
    });
  });
}
