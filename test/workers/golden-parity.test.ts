// The golden-parity suite (test/suites/golden-parity.ts) inside workerd: the Worker's classifier reproduces the
// PyTorch outputs of models/pith.golden.json.
import { expect, it } from 'vitest';
import golden from '../../models/pith.golden.json' with { type: 'json' };
import { getWorkerClassifier } from '../../src/hosts/worker/model-assets.js';
import type { GoldenFile } from '../../dev/golden-parity.js';
import { describeGoldenParity } from '../suites/golden-parity.js';

it('the Worker ships the pith feature set', async () => {
  expect((await getWorkerClassifier()).info.featureSet).toBe('pith');
});

describeGoldenParity('workerd', golden as GoldenFile, getWorkerClassifier);
