// Which format a request wants: `?format=` or content negotiation on Accept. Rendering it is the core's presenter
// (src/core/render/present.ts), shared with every other host.

import { PithError } from '../../errors.js';
import { FORMATS, type Format, isFormat } from '../../types.js';

/** Media types of each format that a plain `Accept` can name, in the order a wildcard prefers them. */
const FORMAT_MEDIA_TYPE: Readonly<Record<Exclude<Format, 'debug' | 'reader'>, string>> = Object.freeze({
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
export function chooseFormat(queryFormat: string | undefined, accept: string | null, fallback: Format): Format {
  if (queryFormat !== undefined && queryFormat !== '') {
    const f = queryFormat.toLowerCase();
    if (!isFormat(f)) throw new PithError('invalid_input', `format "${queryFormat.slice(0, 40)}" is not one of ${FORMATS.join(', ')}`);
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
  let best: Format | null = null;
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

// A browser's User-Agent (the engines' tokens after Mozilla/5.0) that is not a crawler or a feed fetcher.
const BROWSER_UA = /^Mozilla\/5\.0 \(.*\b(?:Chrome|Firefox|Safari|Edg|OPR)\//;
const NOT_A_PERSON = /bot|crawl|spider|slurp|fetch|feed|rss|curl|wget|headless|lighthouse/i;

/**
 * Whether a prefix-form request with no ?format= is a person opening the link in a browser: Accept names
 * text/html and the User-Agent is a browser's. They get the reader view (format 'reader') instead of text.
 */
export function wantsReader(accept: string | null, userAgent: string | null): boolean {
  if (accept === null || !accept.toLowerCase().includes('text/html') || userAgent === null) return false;
  return BROWSER_UA.test(userAgent) && !NOT_A_PERSON.test(userAgent);
}
