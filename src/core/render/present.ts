// The one presenter: an Extraction in a Format (text, markdown, html, json, debug, reader), for every host. The Worker's
// answers, `pith extract`, `pith batch --format json` lines, job result lines and feed articles all come from here,
// so "json" has one shape; a host that adds fields (batch's id and ms) wraps it.

import { PithError } from '../../errors.js';
import type { BlockResult, Extraction, FeatureSetName, Fingerprint, Format, PageMetadata, DecodeRung, Timings } from '../../types.js';
import { escapeHtmlAttr, escapeHtmlText } from './html.js';

/** Media type of each format's body. */
export const CONTENT_TYPE: Readonly<Record<Format, string>> = Object.freeze({
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  debug: 'text/html; charset=utf-8',
  reader: 'text/html; charset=utf-8',
});

/** Where the page came from and what to include: what the host knows beyond the Extraction. */
export interface PresentContext {
  /** Target URL asked for (absent for HTML given without a url). */
  url?: string;
  /** URL the page came from after redirects (default: `url`). */
  finalUrl?: string;
  /** Encoding the page was decoded from, when the host decoded bytes. */
  encoding?: string;
  /** Milliseconds spent fetching the page (default 0: nothing fetched). */
  fetchMs?: number;
  /** json: include the labelled blocks. */
  blocks?: boolean;
  /** json: indent (the CLI pretty-prints); default compact. */
  indent?: number;
}

/**
 * The JSON shape of an extraction, the same from every host. `markdown` and `html` (the sanitised fragment) are
 * there when the host had the core render them, `blocks` when asked for.
 */
export interface ExtractionJson {
  url: string | null;
  finalUrl: string | null;
  title: string | null;
  metadata: PageMetadata;
  text: string;
  markdown?: string;
  html?: string;
  wordCount: number;
  fingerprint: Fingerprint | null;
  modelVersion: string;
  featureSet: FeatureSetName;
  decoder: DecodeRung;
  truncated: boolean;
  truncatedReason?: string;
  encoding?: string;
  timings: { fetchMs: number } & Timings;
  blocks?: BlockResult[];
}

export interface Presented {
  body: string;
  contentType: string;
}

const roundMs = (ms: number): number => Math.round(ms * 100) / 100;

/** The extraction as the one JSON shape (an object: a host that adds fields spreads it into its own). */
export function extractionJson(extraction: Extraction, context: PresentContext = {}): ExtractionJson {
  // Rounded to 0.01 ms (more digits are noise); totalMs is the sum of the rounded stages, so they still add up.
  const timings: Record<string, number> = { fetchMs: roundMs(context.fetchMs ?? 0) };
  let totalMs = 0;
  for (const [key, ms] of Object.entries(extraction.timings)) {
    if (ms === undefined) continue;
    timings[key] = roundMs(ms);
    if (key !== 'domMs' && key !== 'totalMs' && key !== 'loadMs') totalMs += timings[key]; // loadMs is not a stage of this page
  }
  timings.totalMs = roundMs(totalMs);
  const json: ExtractionJson = {
    url: context.url ?? null,
    finalUrl: context.finalUrl ?? context.url ?? null,
    title: extraction.title,
    metadata: extraction.metadata,
    text: extraction.text,
    ...(extraction.markdown !== undefined ? { markdown: extraction.markdown } : {}),
    ...(extraction.html !== undefined ? { html: extraction.html } : {}),
    wordCount: extraction.wordCount,
    fingerprint: extraction.fingerprint ?? null,
    modelVersion: extraction.modelVersion,
    featureSet: extraction.featureSet,
    decoder: extraction.decoder,
    truncated: extraction.truncated,
    ...(extraction.truncatedReason !== undefined ? { truncatedReason: extraction.truncatedReason } : {}),
    ...(context.encoding !== undefined ? { encoding: context.encoding } : {}),
    timings: timings as unknown as ExtractionJson['timings'],
  };
  if (context.blocks === true) json.blocks = extraction.blocks;
  return json;
}

const withNewline = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);

/** Renders an extraction in `format`. The only place that knows what each format's body is. */
export function present(format: Format, extraction: Extraction, context: PresentContext = {}): Presented {
  switch (format) {
    case 'text':
      return { body: withNewline(extraction.text), contentType: CONTENT_TYPE.text };
    case 'json':
      return { body: JSON.stringify(extractionJson(extraction, context), null, context.indent) + (context.indent ? '\n' : ''), contentType: CONTENT_TYPE.json };
    case 'markdown':
      if (extraction.markdown === undefined) throw new PithError('not_acceptable', 'this pith cannot render markdown: ask for text or json');
      return { body: withNewline(extraction.markdown), contentType: CONTENT_TYPE.markdown };
    case 'html':
      if (extraction.html === undefined) throw new PithError('not_acceptable', 'this pith cannot render html: ask for text or json');
      return { body: htmlDocument(extraction, context), contentType: CONTENT_TYPE.html };
    case 'reader':
      if (extraction.readerHtml === undefined) throw new PithError('not_acceptable', 'this pith cannot render the reader view: ask for text or json');
      return { body: extraction.readerHtml, contentType: CONTENT_TYPE.reader };
    case 'debug':
      if (extraction.debugHtml === undefined) throw new PithError('not_acceptable', 'this pith cannot render the debug view: ask for text or json');
      return { body: withNewline(extraction.debugHtml), contentType: CONTENT_TYPE.debug };
  }
}

/** The sanitised content HTML (already safe: the core sanitises it) in a minimal standalone document. */
function htmlDocument(extraction: Extraction, context: PresentContext): string {
  const lang = extraction.metadata?.language ?? null;
  const source = context.finalUrl ?? context.url;
  return (
    `<!doctype html>\n<html${lang === null ? '' : ` lang="${escapeHtmlAttr(lang)}"`}>\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtmlText(extraction.title ?? '')}</title>\n` +
    (source === undefined ? '' : `<link rel="canonical" href="${escapeHtmlAttr(source)}">\n`) +
    `</head>\n<body>\n<article>\n${extraction.html ?? ''}\n</article>\n</body>\n</html>\n`
  );
}

/**
 * What a host asks the core to render for a format it will present, when it renders no more than it must (the
 * Worker): json carries text, metadata and the fingerprint, not markdown or html.
 */
export function renderOptionsFor(format: Format): { format: Format; fingerprint: boolean } {
  return format === 'json' ? { format: 'text', fingerprint: true } : { format, fingerprint: false };
}
