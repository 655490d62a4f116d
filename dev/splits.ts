// The committed train/validation split of the WCXB dev corpus (training/splits.json, written by
// training/splits.ts): every training and evaluation script reads it here. Node only.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Splits {
  train: string[];
  val: string[];
  /** Pages left out of training and validation, with the reason. */
  excluded: { id: string; reason: string }[];
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const SPLITS_PATH = join(REPO_ROOT, 'training', 'splits.json');

/** The committed train/val split (training/splits.json). */
export function readSplits(path = SPLITS_PATH): Splits {
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`npx tsx training/splits.ts\` to create it`);
  }
  const s = JSON.parse(readFileSync(path, 'utf8')) as Partial<Splits>;
  if (!Array.isArray(s.train) || !Array.isArray(s.val)) {
    throw new Error(`${path} has no train/val arrays: regenerate it with \`npx tsx training/splits.ts\``);
  }
  return { train: s.train, val: s.val, excluded: Array.isArray(s.excluded) ? s.excluded : [] };
}
