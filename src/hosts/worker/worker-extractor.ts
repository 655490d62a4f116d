// The Worker's extractor: the core pipeline (extractWith) over the classifier of this isolate.
// The model version comes from the sidecar at build time, so a cache hit never has to start the model;
// the ONNX session is created on the first extraction (or /health) and reused for the life of the isolate.

import sidecarJson from '../../../models/pith.json' with { type: 'json' };
import { extractWith } from '../../core/extract.js';
import { getWorkerClassifier } from './model-assets.js';
import type { Extractor } from './extractor.js';

const SIDECAR_VERSION: string = (sidecarJson as { version: string }).version;

export const workerExtractor: Extractor = {
  modelVersion: SIDECAR_VERSION,
  ready: async () => {
    await getWorkerClassifier();
  },
  extract: async (html, options) => extractWith(await getWorkerClassifier(), html, options),
};
