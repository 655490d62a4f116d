// The feature code and the shipped models agree: same feature names in the same order, same schema version.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURE_SCHEMA, featureNames } from '../../../src/parse/features.js';
import { defaultModelDir } from '../../../src/model/node-assets.js';
import { checkSidecar, parseSidecar } from '../../../src/model/sidecar.js';

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
