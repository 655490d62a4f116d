// The model contract: the feature code and the shipped models agree (same feature names in the same order, same
// schema version), and extract() refuses a model that does not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURE_SCHEMA, featureNames } from '../../../src/core/features/features.js';
import { extractWith } from '../../../src/core/extract.js';
import { defaultModelDir, loadNodeClassifier } from '../../../src/hosts/node/model-assets.js';
import { checkSidecar, parseSidecar } from '../../../src/core/model/sidecar.js';

describe.each(['pith', 'paper'] as const)('models/%s.json', (set) => {
  it("has the code's feature names, in order, and its feature schema", () => {
    const path = `${defaultModelDir()}/${set}.json`;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new Error(`${path} is missing: npm run dump -- --set ${set}, then training/train.py and training/export.py --set ${set}`);
    }
    const sidecar = parseSidecar(JSON.parse(text));
    expect(sidecar.featureSet).toBe(set);
    checkSidecar(sidecar, featureNames(set));
    expect(sidecar.featureSchema).toBe(FEATURE_SCHEMA[set]);
  });
});

describe('extract() checks the model contract', () => {
  it('refuses a classifier whose feature names differ from the code, saying which feature and what to do', async () => {
    const real = await loadNodeClassifier('pith');
    const names = [...real.info.unaryFeatureNames];
    [names[3], names[4]] = [names[4], names[3]];
    const swapped = { info: { ...real.info, unaryFeatureNames: names }, predict: real.predict.bind(real) };
    const err = await extractWith(swapped, '<p>Some text.</p>').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PithError', code: 'model_mismatch' });
    expect((err as Error).message).toBe(`feature 3 is \`${names[4]}\` in the code but \`${names[3]}\` in models/pith.json: re-export the model`);
    await expect(extractWith(real, '<p>Some text.</p>')).resolves.toMatchObject({ featureSet: 'pith' });
  });
});
