// Reading models/<set>.golden.json in Node (workerd imports the JSON instead). See ./golden-parity.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultModelDir } from '../src/hosts/node/model-assets.js';
import type { FeatureSetName } from '../src/types.js';
import type { GoldenFile } from './golden-parity.js';

export function readGoldenFile(set: FeatureSetName, dir = defaultModelDir()): GoldenFile {
  const path = join(dir, `${set}.golden.json`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as GoldenFile;
  } catch {
    throw new Error(`${path} is missing: run training/train.py --set ${set} and training/export.py --set ${set}`);
  }
}
