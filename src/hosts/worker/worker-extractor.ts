// The Worker's extractor: the core pipeline (extractWith) over the classifier of this isolate.
// The model version comes from the sidecar at build time, so a cache hit never has to start the model;
// the ONNX session is created on the first extraction (or /health) and reused for the life of the isolate.

import sidecarJson from '../../../models/pith.json' with { type: 'json' };
import { extractWith } from '../../core/extract.js';
import { getWorkerClassifier } from './model-assets.js';
import type { Extractor } from './extractor.js';

const SIDECAR_VERSION: string = (sidecarJson as { version: string }).version;

// A small built-in page for the warm-up: every stage of the pipeline runs once before the first real page.
const WARM_UP_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>Warm-up</title></head><body><nav><a href="/">Home</a> ' +
  '<a href="/news">News</a></nav><article><h1>Library hours</h1>' +
  '<p>Residents gathered on Tuesday &amp; Wednesday to discuss the library&#8217;s new opening hours, set after a ' +
  'survey of 1,204 households in which a clear majority asked for evenings. <a href="/report">The report</a>.</p>'.repeat(6) +
  '<ul><li>One</li><li>Two</li></ul></article><footer>&copy; City Paper</footer></body></html>';

/** Loads the model and runs one small page through every stage (while the isolate starts: index.ts). */
export async function warmUp(): Promise<void> {
  await extractWith(await getWorkerClassifier(), WARM_UP_PAGE, { format: 'json', fingerprint: true });
}

export const workerExtractor: Extractor = {
  modelVersion: SIDECAR_VERSION,
  ready: async () => {
    await getWorkerClassifier();
  },
  extract: async (html, options) => {
    const t0 = performance.now();
    const classifier = await getWorkerClassifier();
    const loadMs = performance.now() - t0;
    const extraction = await extractWith(classifier, html, options);
    extraction.timings.loadMs = loadMs;
    return extraction;
  },
};
