// Early, explicit failure when the trained models are not in models/ (eval and bench need both sets).

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FeatureSetName } from '../src/types.js';

const MODELS_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'models');

/** Exits with code 2 and the commands that make the models when a sidecar is missing. */
export function requireModels(sets: readonly FeatureSetName[], tool: string): void {
  const missing = sets.filter((set) => !existsSync(join(MODELS_DIR, `${set}.json`))).map((set) => `models/${set}.json`);
  if (missing.length === 0) return;
  process.stderr.write(
    `${tool}: ${missing.join(', ')} missing. Make the models first (see training/):\n` +
      '  npm run dump\n' +
      '  /usr/bin/python3 training/train.py --set <pith|paper> --config default\n' +
      '  /usr/bin/python3 training/export.py --set <pith|paper>\n',
  );
  process.exit(2);
}
