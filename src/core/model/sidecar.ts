// The model sidecar (models/<set>.json, written by training/export.py): the contract between a trained model and
// the code that feeds it. Pure: no I/O.

import { PithError } from '../../errors.js';
import type { FeatureSetName, ModelInfo } from '../../types.js';

export interface BlockMetrics {
  accuracy: number;
  precision: number;
  recall: number;
  f1: number;
  blocks: number;
}

export interface Sidecar {
  version: string;
  featureSet: FeatureSetName;
  featureSchema: string | null;
  schemaHash?: string | null;
  unaryFeatureNames: string[];
  edgeFeatureNames: string[];
  /** Training-split statistics; standardised = clip((x - mean) / std, ±featureClip), std 0 read as 1. */
  unaryMean: number[];
  unaryStd: number[];
  edgeMean: number[];
  edgeStd: number[];
  /** Clip of standardised features; 0 or absent = no clip. */
  featureClip?: number;
  /** Weight of the pairwise log-probabilities in Viterbi. */
  lambda: number;
  labels: Record<'0' | '1', string>;
  /** Pairwise classes, index 2*y_i + y_{i+1}. */
  pairwiseLabels: string[];
  trainingConfig: Record<string, unknown>;
  dataHash: string;
  metrics: Record<string, unknown>;
  createdAt: string;
  /** The page-level second stage (models/<set>-page.onnx), when the model has one. */
  page?: PageSidecar;
}

/** The second stage's part of the sidecar: its input contract and decoding weight. */
export interface PageSidecar {
  featureSchema: string;
  featureNames: string[];
  /** Training-split statistics of the page features (out-of-fold first passes); standardised like the others. */
  mean: number[];
  std: number[];
  /** Weight of the first stage's pairwise log-probabilities when Viterbi decodes the second stage's potentials. */
  lambda: number;
  metrics?: Record<string, unknown>;
}

const FEATURE_SETS: readonly FeatureSetName[] = ['paper', 'pith'];

function sidecarFile(sidecar: { featureSet?: unknown }): string {
  return `models/${typeof sidecar.featureSet === 'string' ? sidecar.featureSet : '<set>'}.json`;
}

/** Checks the shape of a parsed sidecar JSON; throws PithError('model_mismatch') saying what is wrong. */
export function parseSidecar(json: unknown): Sidecar {
  const s = json as Partial<Sidecar> | null;
  const fail = (what: string): never => {
    throw new PithError('model_mismatch', `${sidecarFile(s ?? {})} ${what}: re-export the model (training/export.py)`);
  };
  if (s === null || typeof s !== 'object') return fail('is not a JSON object');
  if (typeof s.version !== 'string') fail('has no version');
  if (!FEATURE_SETS.includes(s.featureSet as FeatureSetName)) fail(`has an unknown featureSet ${String(s.featureSet)}`);
  if (typeof s.lambda !== 'number' || !Number.isFinite(s.lambda) || s.lambda < 0) fail('has no valid lambda');
  const names = (key: 'unaryFeatureNames' | 'edgeFeatureNames'): string[] => {
    const v = s[key];
    if (!Array.isArray(v) || v.length === 0 || !v.every((n) => typeof n === 'string')) fail(`has no ${key}`);
    return v as string[];
  };
  const stats = (key: 'unaryMean' | 'unaryStd' | 'edgeMean' | 'edgeStd', length: number): void => {
    const v = s[key];
    if (!Array.isArray(v) || v.length !== length || !v.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      fail(`has no ${key} of ${length} finite numbers`);
    }
  };
  const nU = names('unaryFeatureNames').length;
  const nE = names('edgeFeatureNames').length;
  stats('unaryMean', nU);
  stats('unaryStd', nU);
  stats('edgeMean', nE);
  stats('edgeStd', nE);
  if (s.featureClip !== undefined && s.featureClip !== null && (typeof s.featureClip !== 'number' || s.featureClip < 0)) {
    fail('has an invalid featureClip');
  }
  if (s.page !== undefined) {
    const page = s.page as Partial<PageSidecar> | null;
    if (page === null || typeof page !== 'object') fail('has a `page` that is not an object');
    const names = page!.featureNames;
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) fail('has no page.featureNames');
    for (const key of ['mean', 'std'] as const) {
      const v = page![key];
      if (!Array.isArray(v) || v.length !== names!.length || !v.every((n) => typeof n === 'number' && Number.isFinite(n))) {
        fail(`has no page.${key} of ${names!.length} finite numbers`);
      }
    }
    if (typeof page!.lambda !== 'number' || !Number.isFinite(page!.lambda) || page!.lambda < 0) fail('has no valid page.lambda');
    if (typeof page!.featureSchema !== 'string') fail('has no page.featureSchema');
  }
  return s as Sidecar;
}

/**
 * The model contract: throws PithError('model_mismatch') unless the code's feature names equal the model's, in
 * order: "feature 17 is `x` in the code but `y` in models/pith.json: re-export the model". extract() runs it once
 * per classifier (on its ModelInfo, which carries the sidecar's names).
 */
export function checkSidecar(
  sidecar: Pick<Sidecar, 'featureSet' | 'unaryFeatureNames' | 'edgeFeatureNames'> & { page?: { featureNames: string[] } },
  names: { unary: string[]; edge: string[]; page?: string[] },
): void {
  const file = sidecarFile(sidecar);
  const compare = (kind: string, code: string[], model: string[]): void => {
    const n = Math.max(code.length, model.length);
    for (let i = 0; i < n; i++) {
      if (code[i] !== model[i]) {
        const inCode = code[i] === undefined ? 'missing' : `\`${code[i]}\``;
        const inModel = model[i] === undefined ? 'missing' : `\`${model[i]}\``;
        throw new PithError(
          'model_mismatch',
          `${kind}feature ${i} is ${inCode} in the code but ${inModel} in ${file}: re-export the model`,
          { kind: kind.trim() || 'unary', index: i, code: code[i], model: model[i] },
        );
      }
    }
  };
  compare('', names.unary, sidecar.unaryFeatureNames);
  compare('edge ', names.edge, sidecar.edgeFeatureNames);
  if (sidecar.page !== undefined && names.page !== undefined) compare('page ', names.page, sidecar.page.featureNames);
}

export function sidecarInfo(sidecar: Sidecar): ModelInfo {
  return {
    version: sidecar.version,
    featureSet: sidecar.featureSet,
    lambda: sidecar.lambda,
    unaryFeatureNames: sidecar.unaryFeatureNames,
    edgeFeatureNames: sidecar.edgeFeatureNames,
    ...(sidecar.page ? { page: { featureNames: sidecar.page.featureNames, lambda: sidecar.page.lambda } } : {}),
  };
}
