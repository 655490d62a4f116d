// Helpers for the feed tests: feed URLs on the page server, the feed routes, and reading the answer with the
// same XML parser the proxy uses.

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import worker from '../../../src/hosts/worker/index';
import type { FeedEnv } from '../../../src/hosts/worker/feed/routes';
import { baseEnv, call, page, uniqueId } from '../server/helpers';

export { call, page, uniqueId };

/**
 * Like call(), with feed variables, and also measures how long the answer took (before the waitUntil work
 * that call() waits for as well).
 */
export async function timedCall(path: string, vars: Partial<FeedEnv>): Promise<{ response: Response; answeredMs: number }> {
  const ctx = createExecutionContext();
  const started = Date.now();
  const response = await worker.fetch(new Request(`https://pith.test${path}`), { ...baseEnv, ...vars }, ctx);
  const answeredMs = Date.now() - started;
  await waitOnExecutionContext(ctx);
  return { response, answeredMs };
}

/** URL of a feed fixture on the page server, with its {{ID}} placeholder set to `id`. */
export function feedUrl(file: string, id: string, type?: string): string {
  return page(`/feeds/${file}?id=${id}${type === undefined ? '' : `&type=${encodeURIComponent(type)}`}`);
}

/** GET /v1/feed for a feed URL, with extra query parameters. */
export function feedPath(url: string, extra = ''): string {
  return `/v1/feed?url=${encodeURIComponent(url)}${extra}`;
}

/** The fixture as the page server sends it (the original the proxy must preserve). */
export async function original(url: string): Promise<string> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`fixture ${url} answered ${response.status}`);
  return response.text();
}

/** X-Pith-Items as numbers. */
export function itemsOf(response: Response): { filled: number; kept: number; timedOut: number } {
  const header = response.headers.get('x-pith-items') ?? '';
  const m = /^filled=(\d+); kept=(\d+); timed-out=(\d+)$/.exec(header);
  if (m === null) throw new Error(`X-Pith-Items is "${header}"`);
  return { filled: Number(m[1]), kept: Number(m[2]), timedOut: Number(m[3]) };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name) => ['item', 'entry', 'link', 'category', 'content:encoded', 'content'].includes(name),
});

/** Validates `xml` (throws with the validator's message) and parses it. */
export function parseXml(xml: string): Record<string, any> {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed: ${valid.err.msg} at ${valid.err.line}:${valid.err.col}`);
  return parser.parse(xml) as Record<string, any>;
}

/** Text of a parsed element ({#text} or a plain string). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && '#text' in value) return String((value as Record<string, unknown>)['#text']);
  return '';
}

// Sentences of the two article fixtures (test/fixtures/server/article-*.html).
export const BLOG_SENTENCE = 'wild yeasts and lactic acid bacteria';
export const NEWS_SENTENCE = 'voted 31 to 12 on Tuesday evening';
