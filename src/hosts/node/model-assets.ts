// Node loader of the classifier: models/ from the package root, ORT's wasm from node_modules. Node only (fs);
// the Worker uses worker-assets.ts instead.

import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PithError } from '../../errors.js';
import type { Classifier, FeatureSetName } from '../../types.js';
import { createOnnxClassifier } from '../../core/model/onnx-classifier.js';
import { parseSidecar } from '../../core/model/sidecar.js';

/**
 * The package root: the first folder above this file whose package.json is named "pith". Works from src/hosts/node
 * (tsx, vitest) and from dist/src/hosts/node (compiled).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pith') return dir;
      } catch {
        // not a readable manifest: keep climbing
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new PithError('model_missing', `cannot find the pith package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

let modelDir: string | null = null;

/** The models/ folder that ships with the package (found once: extract() asks on every call). */
export function defaultModelDir(): string {
  modelDir ??= join(packageRoot(), 'models');
  return modelDir;
}

async function readAsset(path: string, hint: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    throw new PithError('model_missing', `${path} not found: ${hint}`);
  }
}

const cache = new Map<string, Promise<Classifier>>();

/**
 * The classifier of feature set `set` from `dir` (default: the package's models/), created once per process and
 * folder; concurrent first calls share one promise. A failed load is not cached.
 */
export function loadNodeClassifier(set: FeatureSetName = 'pith', dir?: string): Promise<Classifier> {
  const folder = resolve(dir ?? defaultModelDir());
  const key = `${folder}\0${set}`;
  let pending = cache.get(key);
  if (pending === undefined) {
    pending = load(set, folder);
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

async function load(set: FeatureSetName, folder: string): Promise<Classifier> {
  const hint = `train and export the model (training/train.py --set ${set}, then training/export.py --set ${set})`;
  const [unary, pairwise, sidecarBytes] = await Promise.all([
    readAsset(join(folder, `${set}-unary.onnx`), hint),
    readAsset(join(folder, `${set}-pairwise.onnx`), hint),
    readAsset(join(folder, `${set}.json`), hint),
  ]);
  const sidecar = parseSidecar(JSON.parse(new TextDecoder().decode(sidecarBytes)));
  if (sidecar.featureSet !== set) {
    throw new PithError('model_mismatch', `${join(folder, `${set}.json`)} is for feature set ${sidecar.featureSet}, not ${set}: re-export the model`);
  }
  const page = sidecar.page
    ? await readAsset(join(folder, `${set}-page.onnx`), `export the page stage (training/page.py export), or re-export ${set}.json without it`)
    : undefined;
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm');
  const binary = await readAsset(wasmPath, 'reinstall onnxruntime-web (npm install)');
  return createOnnxClassifier({ unary, pairwise, page, sidecar, wasm: { binary } });
}
