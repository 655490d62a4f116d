// The clean article HTML of a page, cached on its own for the feed proxy. The feed needs only the article (the
// fragment that goes into content:encoded), not the html-format document around it; it used to cut the article
// back out of that document by matching the exact whitespace format.ts writes. Both routes that extract an html
// article store it here (GET /v1/extract?format=html on a miss, and the feed itself), so an article costs one
// extraction whichever route asks first. The key is the extract key of the target with kind 'article'.

import type { Limits } from '../../config.js';
import { cacheKeyFor, cacheLookup, cacheStore, type WaitUntil } from './cache.js';

/** Cache key of the article of `target`, extracted under `limits`, under the serving `origin`. */
export function articleKey(target: URL, modelVersion: string, limits: Readonly<Limits>, origin: string): Request {
  return cacheKeyFor({ kind: 'article', target, format: 'html', options: {}, modelVersion, limits }, origin);
}

/** The cached article HTML for `key`, or undefined. */
export async function cachedArticle(key: Request): Promise<string | undefined> {
  const hit = await cacheLookup(key);
  return hit === undefined ? undefined : hit.text();
}

/** Stores a non-empty article for `ttlS` seconds, in the background. */
export function storeArticle(ctx: WaitUntil, key: Request, articleHtml: string, ttlS: number): void {
  cacheStore(ctx, key, new Response(articleHtml, { headers: { 'content-type': 'text/html; charset=utf-8' } }), ttlS);
}
