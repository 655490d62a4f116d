// Output formats: which one a request wants, and the one switch that renders an Extraction in it.
// The core renders text, markdown and sanitised HTML (extract(..., {format})); this file only picks the
// field, wraps HTML in a small document and builds the JSON answer.

import { PithError } from '../errors.js';
import { OUTPUT_FORMATS, type Extraction, type OutputFormat, type RenderedFormat, isOutputFormat } from '../types.js';

/** Media types in Accept headers that name a format. */
const MEDIA_TYPE_FORMAT: ReadonlyMap<string, OutputFormat> = new Map([
  ['text/plain', 'text'],
  ['text/markdown', 'markdown'],
  ['text/x-markdown', 'markdown'],
  ['text/html', 'html'],
  ['application/json', 'json'],
]);

const CONTENT_TYPE: Readonly<Record<OutputFormat, string>> = Object.freeze({
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  debug: 'text/html; charset=utf-8',
});

/**
 * The format of a request: `?format=` wins; else the Accept header's best-rated format pith knows; else `fallback`.
 * A browser navigation (its Accept lists application/xhtml+xml) gets `fallback`, not html: opening a pith URL in
 * a browser shows the text. An unknown `?format=` is a 400.
 */
export function chooseFormat(queryFormat: string | undefined, accept: string | null, fallback: OutputFormat): OutputFormat {
  if (queryFormat !== undefined && queryFormat !== '') {
    const f = queryFormat.toLowerCase();
    if (!isOutputFormat(f)) throw new PithError('invalid_input', `format "${queryFormat.slice(0, 40)}" is not one of ${OUTPUT_FORMATS.join(', ')}`);
    return f;
  }
  if (accept === null || accept.includes('application/xhtml+xml')) return fallback;
  let best: OutputFormat | null = null;
  let bestQ = 0;
  for (const item of accept.split(',')) {
    const [type, ...params] = item.trim().toLowerCase().split(';');
    const format = MEDIA_TYPE_FORMAT.get(type.trim());
    if (format === undefined) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (Number.isFinite(q) && q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best ?? fallback;
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
        // SimHash of `text` (src/fingerprint/simhash.ts); the routes ask the core for it on json.
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
