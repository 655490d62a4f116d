// PyTorch vs onnxruntime-web parity, through the runtime code that ships (src/core/model) and the one parity check
// (dev/golden-parity.ts). Called by training/export.py; exits 1 when a probability differs by more than the golden
// file's tolerance or Viterbi decodes differently.
//
//   npx tsx training/check-parity.ts --dir models --set pith

import { parseArgs } from 'node:util';
import { readGoldenFile } from '../dev/golden-file.js';
import { checkGoldenParity } from '../dev/golden-parity.js';
import { loadNodeClassifier } from '../src/hosts/node/model-assets.js';
import type { FeatureSetName } from '../src/types.js';

const { values } = parseArgs({ options: { dir: { type: 'string', default: 'models' }, set: { type: 'string', default: 'pith' } } });
const set = values.set as FeatureSetName;
const golden = readGoldenFile(set, values.dir);
const parity = await checkGoldenParity(await loadNodeClassifier(set, values.dir), golden);
for (const page of parity.pages) {
  console.log(
    `parity ${page.id}: ${page.nBlocks} blocks, max abs diff ${page.maxAbsDiff.toExponential(2)}, Viterbi labels ${page.sameLabels ? 'equal' : 'DIFFER'}`,
  );
  if (page.page) {
    const what = Number.isFinite(page.page.maxAbsDiff)
      ? `max abs diff ${page.page.maxAbsDiff.toExponential(2)}, Viterbi labels ${page.page.sameLabels ? 'equal' : 'DIFFER'}`
      : 'no page outputs in the golden file: re-export it (training/page.py export)';
    console.log(`parity ${page.id} page stage: ${what}`);
  }
}
console.log(`parity ${set}: max abs diff ${parity.maxAbsDiff.toExponential(2)} (tolerance ${golden.tolerance}) ${parity.ok ? 'ok' : 'FAILED'}`);
process.exit(parity.ok ? 0 : 1);
