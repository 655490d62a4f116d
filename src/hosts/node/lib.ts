// The Node library entry: `import { extract } from 'pith'`.

import './brotli.js';
import { extractWith, type ExtractOptions } from '../../core/extract.js';
import { loadNodeClassifier } from './model-assets.js';
import type { Extraction, FeatureSetName } from '../../types.js';

export interface NodeExtractOptions extends ExtractOptions {
  /** Which shipped model to use: 'pith' (default) or 'paper' (the paper's 128 + 25 features). */
  featureSet?: FeatureSetName;
}

/**
 * Extracts the main content of one HTML page. No network access; the model is loaded from the package's
 * models/ folder on first use and reused.
 */
export async function extract(html: string, options: NodeExtractOptions = {}): Promise<Extraction> {
  const classifier = await loadNodeClassifier(options.featureSet ?? 'pith');
  return extractWith(classifier, html, options);
}

export { extractWith } from '../../core/extract.js';
export type { ExtractOptions } from '../../core/extract.js';
export { PithError } from '../../errors.js';
export type { PithErrorCode } from '../../errors.js';
export { DEFAULT_LIMITS } from '../../config.js';
export type { Limits } from '../../config.js';
export type { BlockResult, Classifier, Extraction, FeatureSetName, Fingerprint, Potentials, Timings } from '../../types.js';
export {
  EMPTY_SIMHASH,
  NEAR_DUPLICATE_DISTANCE,
  fingerprintOf,
  hammingDistance,
  isNearDuplicate,
  simhash,
  simhashBands,
} from '../../core/fingerprint/simhash.js';
export { Readability, isProbablyReaderable } from './readability.js';
export type { ReadabilityArticle, ReadabilityOptions, ReaderableOptions, DocumentLike } from './readability.js';
