// Output formats: which one a request wants, and the one switch that renders an Extraction in it.
// The core renders text, markdown and sanitised HTML (extract(..., {format})); this file only picks the
// field, wraps HTML in a small document and builds the JSON answer.

import { PithError } from '../../errors.js';
import { OUTPUT_FORMATS, type Extraction, type OutputFormat, type RenderedFormat, isOutputFormat } from '../../types.js';

const CONTENT_TYPE: Readonly<Record<OutputFormat, string>> = Object.freeze({
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  debug: 'text/html; charset=utf-8',
});

/** Media types of each format that a plain `Accept` can name, in the order a wildcard prefers them. */
const FORMAT_MEDIA_TYPE: Readonly<Record<Exclude<OutputFormat, 'debug'>, string>> = Object.freeze({
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  json: 'application/json',
});

/** q of one Accept parameter list (1 when absent; NaN when malformed, which counts as 0). */
function qualityOf(params: string[]): number {
  for (const p of params) {
    const [name, value] = p.split('=', 2).map((x) => x.trim());
    if (name === 'q') {
      const q = Number(value);
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

/**
 * The format of a request: `?format=` wins; else content negotiation on the Accept header (RFC 9110 §12.5.1):
 * text/plain, text/markdown (or text/x-markdown), text/html and application/json name a format; `text/*`,
 * `application/*` and the full wildcard match the formats of that type (the route's `fallback` first); q=0 refuses. The
 * highest q wins; on a tie the first listed. No Accept header means `fallback`; an Accept that none of pith's formats
 * satisfies is a 406 `not_acceptable`. A browser navigation (its Accept lists application/xhtml+xml) gets
 * `fallback`, not html: opening a pith URL in a browser shows the text. An unknown `?format=` is a 400.
 */
export function chooseFormat(queryFormat: string | undefined, accept: string | null, fallback: OutputFormat): OutputFormat {
  if (queryFormat !== undefined && queryFormat !== '') {
    const f = queryFormat.toLowerCase();
    if (!isOutputFormat(f)) throw new PithError('invalid_input', `format "${queryFormat.slice(0, 40)}" is not one of ${OUTPUT_FORMATS.join(', ')}`);
    return f;
  }
  if (accept === null || accept.trim() === '' || accept.includes('application/xhtml+xml')) return fallback;
  // Candidates in preference order for wildcards: the route's own format first.
  const candidates = (Object.keys(FORMAT_MEDIA_TYPE) as Array<keyof typeof FORMAT_MEDIA_TYPE>).sort((a, b) => Number(b === fallback) - Number(a === fallback));
  const ranges = accept.split(',').map((item) => {
    const [range, ...params] = item.trim().toLowerCase().split(';');
    const [type = '', subtype = ''] = range.trim().split('/');
    return { type, subtype, q: qualityOf(params) };
  });
  let best: OutputFormat | null = null;
  let bestKey: [number, number, number] = [0, -1, 0]; // q, specificity, -position: larger is better
  for (const format of candidates) {
    const [type, subtype] = FORMAT_MEDIA_TYPE[format].split('/');
    // The most specific range that matches the format decides its q (RFC 9110: more specific ranges override).
    let key: [number, number, number] | null = null;
    ranges.forEach((r, position) => {
      let specificity = -1;
      if (r.type === type && (r.subtype === subtype || (format === 'markdown' && r.subtype === 'x-markdown'))) specificity = 2;
      else if (r.type === type && r.subtype === '*') specificity = 1;
      else if (r.type === '*' && r.subtype === '*') specificity = 0;
      if (specificity >= 0 && (key === null || specificity > key[1])) key = [r.q, specificity, -position];
    });
    if (key === null || key[0] <= 0) continue;
    const k: [number, number, number] = key;
    if (best === null || k[0] > bestKey[0] || (k[0] === bestKey[0] && (k[1] > bestKey[1] || (k[1] === bestKey[1] && k[2] > bestKey[2])))) {
      best = format;
      bestKey = k;
    }
  }
  if (best === null) {
    throw new PithError(
      'not_acceptable',
      `pith answers text/plain, text/markdown, text/html or application/json, none of which "Accept: ${accept.slice(0, 120)}" takes: change the Accept header or add ?format=`,
    );
  }
  return best;
}

export interface RenderContext {
  /** Target URL asked for (absent for posted HTML without a url). */
  url?: string;
  /** URL the page came from after redirects. */
  finalUrl?: string;
  /** Encoding the page was decoded from. */
  encoding?: string;
  /** Milliseconds spent fetching the page (0 for posted HTML). */
  fetchMs: number;
  /** Include the labelled blocks (json only). */
  debug: boolean;
}

export interface Rendered {
  body: string;
  contentType: string;
}

/** Renders an extraction in `format`. The only place that knows the formats. */
export function renderExtraction(format: OutputFormat, extraction: Extraction, context: RenderContext): Rendered {
  switch (format) {
    case 'text':
      return { body: extraction.text.endsWith('\n') ? extraction.text : `${extraction.text}\n`, contentType: CONTENT_TYPE.text };
    case 'json': {
      const body: Record<string, unknown> = {
        url: context.url ?? null,
        finalUrl: context.finalUrl ?? context.url ?? null,
        title: extraction.title,
        metadata: extraction.metadata ?? null,
        text: extraction.text,
        wordCount: extraction.wordCount,
        // SimHash of `text` (src/core/fingerprint/simhash.ts); the routes ask the core for it on json.
        fingerprint: extraction.fingerprint ?? null,
        modelVersion: extraction.modelVersion,
        featureSet: extraction.featureSet,
        decoder: extraction.decoder,
        truncated: extraction.truncated,
        ...(extraction.truncatedReason !== undefined ? { truncatedReason: extraction.truncatedReason } : {}),
        ...(context.encoding !== undefined ? { encoding: context.encoding } : {}),
        timings: { fetchMs: context.fetchMs, ...extraction.timings },
      };
      if (context.debug) body.blocks = extraction.blocks;
      return { body: JSON.stringify(body), contentType: CONTENT_TYPE.json };
    }
    case 'markdown':
      if (extraction.markdown === undefined) throw new PithError('not_acceptable', 'this pith cannot render markdown: ask for text or json');
      return { body: extraction.markdown.endsWith('\n') ? extraction.markdown : `${extraction.markdown}\n`, contentType: CONTENT_TYPE.markdown };
    case 'html':
      if (extraction.html === undefined) throw new PithError('not_acceptable', 'this pith cannot render html: ask for text or json');
      return { body: htmlDocument(extraction, context), contentType: CONTENT_TYPE.html };
    case 'debug':
      if (extraction.debugHtml === undefined) throw new PithError('not_acceptable', 'this pith cannot render the debug view: ask for text or json');
      return { body: extraction.debugHtml, contentType: CONTENT_TYPE.debug };
  }
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const HTML_SPECIAL = /[&<>"]/g;

function escapeHtml(s: string): string {
  return s.replace(HTML_SPECIAL, (ch) => HTML_ESCAPES[ch]);
}

/** The sanitised content HTML (already safe: the core sanitises it) in a minimal standalone document. */
function htmlDocument(extraction: Extraction, context: RenderContext): string {
  const title = extraction.title ?? '';
  const lang = extraction.metadata?.language ?? null;
  const source = context.finalUrl ?? context.url;
  return (
    `<!doctype html>\n<html${lang === null ? '' : ` lang="${escapeHtml(lang)}"`}>\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n` +
    (source === undefined ? '' : `<link rel="canonical" href="${escapeHtml(source)}">\n`) +
    `</head>\n<body>\n<article>\n${extraction.html ?? ''}\n</article>\n</body>\n</html>\n`
  );
}

/** Whether the core must fingerprint the text for a format: only JSON answers carry the fingerprint. */
export function coreFingerprintFor(format: OutputFormat): boolean {
  return format === 'json';
}

/** What the core must render for a format: JSON carries the plain text and metadata only. */
export function coreFormatFor(format: OutputFormat): RenderedFormat {
  return format === 'json' ? 'text' : format;
}
