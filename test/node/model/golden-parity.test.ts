// The golden-parity suite (test/suites/golden-parity.ts) in Node: onnxruntime-web reproduces the PyTorch outputs
// that training/export.py saved, for both feature sets.
import { readGoldenFile } from '../../../dev/golden-file.js';
import { loadNodeClassifier } from '../../../src/hosts/node/model-assets.js';
import { describeGoldenParity } from '../../suites/golden-parity.js';

for (const set of ['pith', 'paper'] as const) {
  describeGoldenParity(`Node, ${set}`, readGoldenFile(set), () => loadNodeClassifier(set));
}
