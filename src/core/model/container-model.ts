// The main-content container model: logistic models over the container candidates' features
// (src/core/features/container.ts), checked once at load; the container is the deepest of the k best-scored candidates.
// Pure: the model comes in as parsed JSON.

import containerModelJson from '../../../models/container.json' with { type: 'json' };
import { PithError } from '../../errors.js';
import { CONTAINER_FEATURES, type ContainerCandidate, type ContainerPage, containerCandidates } from '../features/container.js';
import type { CdomNode } from '../../types.js';

/** models/container.json: logistic models over standardised features; several models are averaged (ensemble). */
export interface ContainerModel {
  version: string;
  featureNames: string[];
  mean: number[];
  std: number[];
  models: { weights: number[]; bias: number }[];
  /** The container is the deepest of the k best-scored candidates. */
  k: number;
  /** Column of each model feature in CONTAINER_FEATURES. */
  columns: number[];
}

/** Checks a parsed container model file; the message says what to fix. */
export function loadContainerModel(json: unknown, source = 'models/container.json'): ContainerModel {
  const j = json as Partial<ContainerModel> | null;
  const fail = (what: string): never => {
    throw new PithError('model_mismatch', `${source}: ${what}: re-run training/container.py`);
  };
  if (j === null || typeof j !== 'object') return fail('not a JSON object');
  if (!Array.isArray(j.featureNames) || j.featureNames.length === 0) return fail('featureNames missing');
  const n = j.featureNames.length;
  const columns = j.featureNames.map((name) => {
    const c = CONTAINER_FEATURES.indexOf(name);
    if (c < 0) fail(`feature "${name}" is not computed by src/core/features/container.ts (${CONTAINER_FEATURES.join(', ')})`);
    return c;
  });
  const isNums = (a: unknown, len: number): boolean =>
    Array.isArray(a) && a.length === len && a.every((x) => typeof x === 'number' && Number.isFinite(x));
  if (!isNums(j.mean, n) || !isNums(j.std, n)) fail(`mean and std need ${n} finite numbers`);
  if (!Array.isArray(j.models) || j.models.length === 0) fail('models missing');
  for (const m of j.models!) if (!isNums(m.weights, n) || !isNums([m.bias], 1)) fail(`every model needs ${n} weights and a bias`);
  if (typeof j.k !== 'number' || !Number.isInteger(j.k) || j.k < 1) fail('k must be a positive integer');
  return {
    version: typeof j.version === 'string' ? j.version : 'container',
    featureNames: j.featureNames,
    mean: j.mean!,
    std: j.std!.map((s) => (s === 0 ? 1 : s)),
    models: j.models!,
    k: j.k!,
    columns,
  };
}

/** The shipped model (models/container.json), checked once at module load. */
export const CONTAINER_MODEL: ContainerModel = loadContainerModel(containerModelJson);

/** Probability that each candidate is the main-content container (mean over the model's logistic models). */
export function scoreCandidates(candidates: readonly ContainerCandidate[], model: ContainerModel = CONTAINER_MODEL): Float64Array {
  const n = model.columns.length;
  const z = new Float64Array(n);
  const out = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const f = candidates[i].features;
    for (let j = 0; j < n; j++) z[j] = (f[model.columns[j]] - model.mean[j]) / model.std[j];
    let p = 0;
    for (const m of model.models) {
      let s = m.bias;
      for (let j = 0; j < n; j++) s += m.weights[j] * z[j];
      p += 1 / (1 + Math.exp(-s));
    }
    out[i] = p / model.models.length;
  }
  return out;
}

/**
 * Index of the deepest (largest `depths[i]`) among the k highest scores; ties in depth go to the higher score,
 * then to the earlier candidate. -1 when there are no candidates.
 */
export function deepestOfTopK(scores: ArrayLike<number>, depths: ArrayLike<number>, k: number): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  let best = -1;
  for (const i of order.slice(0, Math.max(1, k))) {
    if (best < 0 || depths[i] > depths[best] || (depths[i] === depths[best] && scores[i] > scores[best])) best = i;
  }
  return best;
}

export interface ContainerPrediction {
  /** The predicted container, null when the page has no text. */
  node: CdomNode | null;
  /** Its probability under the model (0 when node is null). */
  score: number;
}

/** The patent's decision: score every candidate, keep the k best, return the deepest of them. */
export function predictContainer(
  page: ContainerPage,
  model: ContainerModel = CONTAINER_MODEL,
  k: number = model.k,
): ContainerPrediction {
  const candidates = containerCandidates(page);
  if (candidates.length === 0) return { node: null, score: 0 };
  const scores = scoreCandidates(candidates, model);
  const i = deepestOfTopK(scores, candidates.map((c) => c.features[0]), k);
  return { node: candidates[i].node, score: scores[i] };
}
