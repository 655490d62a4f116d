// One page of `pith batch`, extracted in the process that calls this: a worker process of the pool (batch-worker.ts),
// or a loop of the benchmarks. Kept apart from batch.ts, so that the coordinating process does not load the model's
// code.

import type { BatchFormat, BatchItem, BatchLine } from './batch.js';
import { gunzipIfNeeded, htmlOf, readFileBounded } from './html-bytes.js';
import { PithError, type PithErrorCode } from '../../errors.js';
import { extract } from './lib.js';
import type { Extraction, FeatureSetName } from '../../types.js';

/** Extracts one item in this thread. Never throws: a failure is a line with `error`. */
export async function extractItem(item: BatchItem, featureSet: FeatureSetName | undefined, format: BatchFormat = 'text'): Promise<BatchLine> {
  const t0 = performance.now();
  const base = 'url' in item ? { id: item.id, url: item.url } : { id: item.id };
  try {
    if ('error' in item) throw new PithError(item.error.code as PithErrorCode, item.error.message);
    // Files are sniffed: a PNG named .html is refused (not_html), not extracted as text.
    const html = 'html' in item ? item.html : htmlOf(await gunzipIfNeeded(readFileBounded(item.path), item.path), item.path.replace(/^.*[\\/]/, ''));
    const result = await extract(html, { featureSet, fingerprint: true, format, ...('url' in item ? { url: item.url } : {}) });
    const ms = round(performance.now() - t0);
    if (format === 'json') return { ...base, ...withRoundedTimings(result), fingerprint: result.fingerprint ?? null, ms };
    const line: BatchLine = { ...base, text: result.text, fingerprint: result.fingerprint ?? null, ms };
    if (format === 'markdown') line.markdown = result.markdown ?? '';
    if (format === 'html') line.html = result.html ?? '';
    return line;
  } catch (err) {
    return { ...base, text: '', fingerprint: null, ms: round(performance.now() - t0), error: (err as Error).message, ...(err instanceof PithError ? { code: err.code } : {}) };
  }
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** The result with its timings rounded to 0.01 ms (more digits are noise), for JSON output. */
export function withRoundedTimings(result: Extraction): Extraction {
  const timings: Record<string, number> = { ...result.timings };
  for (const key of Object.keys(timings)) timings[key] = round(timings[key]);
  return { ...result, timings: timings as unknown as Extraction['timings'] };
}
