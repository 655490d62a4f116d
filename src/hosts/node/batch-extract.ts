// One page of `pith batch`, extracted in the process that calls this: a worker process of the pool (batch-worker.ts),
// or a loop of the benchmarks. Kept apart from batch.ts, so that the coordinating process does not load the model's
// code.

import type { BatchItem, BatchLine } from './batch.js';
import { gunzipIfNeeded, htmlOf, pageFileBytesOf, readFileBounded } from './html-bytes.js';
import { PithError, type PithErrorCode } from '../../errors.js';
import { extract } from './lib.js';
import { extractionJson } from '../../core/render/present.js';
import type { FeatureSetName, Format } from '../../types.js';
import { limitsOf, type Limits } from '../../config.js';

/** Extracts one item in this thread. Never throws: a failure is a line with `error`. */
export async function extractItem(item: BatchItem, featureSet: FeatureSetName | undefined, format: Format = 'text', limits: Readonly<Limits> = limitsOf()): Promise<BatchLine> {
  const t0 = performance.now();
  const base = 'url' in item ? { id: item.id, url: item.url } : { id: item.id };
  try {
    if ('error' in item) throw new PithError(item.error.code as PithErrorCode, item.error.message);
    // Files are sniffed: a PNG named .html is refused (not_html), not extracted as text.
    const maxBytes = pageFileBytesOf(limits);
    const html = 'html' in item ? item.html : htmlOf(await gunzipIfNeeded(readFileBounded(item.path, maxBytes), item.path, maxBytes), item.path.replace(/^.*[\\/]/, ''));
    const result = await extract(html, { featureSet, fingerprint: true, format, limits, ...('url' in item ? { url: item.url } : {}) });
    const ms = round(performance.now() - t0);
    if (format === 'json') return { id: item.id, ...extractionJson(result, { url: 'url' in item ? item.url : undefined, blocks: true }), ms };
    const line: BatchLine = { ...base, text: result.text, fingerprint: result.fingerprint ?? null, ms };
    if (format === 'markdown') line.markdown = result.markdown ?? '';
    if (format === 'html') line.html = result.html ?? '';
    return line;
  } catch (err) {
    return { ...base, text: '', fingerprint: null, ms: round(performance.now() - t0), error: (err as Error).message, ...(err instanceof PithError ? { code: err.code } : {}) };
  }
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
