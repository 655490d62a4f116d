// The edge cache (Cache API, caches.default), shared by every route that serves extractions (the feed proxy
// reuses cacheKeyFor/cacheLookup/cacheStore so an article costs one extraction whichever route asked).
//
// Key: the normalised target URL + the output format + the options that change the output + the model version +
// the parse limits that differ from the defaults (an operator who changes PITH_MAX_* gets new keys, not answers
// made under the old limits; with the defaults the key is what it was), as a synthetic GET URL under the serving origin (/__pith-cache/...; never routed, only a key).
// Stored responses carry `Cache-Control: public, max-age=<PITH_CACHE_TTL_S>` (the Cache API honours it) and an
// ETag. Only successful, non-empty extractions are stored; callers never pass errors here.
// Writes go through ctx.waitUntil so the response is not held up by them.

import { etag, RETAINED_304_HEADERS } from 'hono/etag';
import { DEFAULT_LIMITS, LIMIT_NAMES, type Limits } from '../../config.js';

const CACHE_PATH = '/__pith-cache/v1/';

export interface CacheKeyParts {
  /** Which product: 'extract' for extraction responses. */
  kind: string;
  /** Target URL (already validated). */
  target: URL;
  format: string;
  /** Options that change the output (e.g. debug); names sorted into the key. */
  options: Readonly<Record<string, string>>;
  modelVersion: string;
  /** The parse limits the extraction ran under (settings.limits). */
  limits: Readonly<Limits>;
}

/** Normalised form of a target URL for keys: lower-case scheme and host, no default port, no fragment, no bare "?". */
export function normaliseTarget(url: URL): string {
  const u = new URL(url.href); // the URL parser already lower-cases the host and drops a default port
  u.hash = '';
  if (u.search === '?') u.search = '';
  return u.href;
}

/** The cache key of an extraction, a GET request under `origin`. */
export function cacheKeyFor(parts: CacheKeyParts, origin: string): Request {
  const params = new URLSearchParams();
  params.set('u', normaliseTarget(parts.target));
  params.set('f', parts.format);
  params.set('m', parts.modelVersion);
  for (const name of LIMIT_NAMES) if (parts.limits[name] !== DEFAULT_LIMITS[name]) params.set(`l.${name}`, String(parts.limits[name]));
  for (const name of Object.keys(parts.options).sort()) params.set(`o.${name}`, parts.options[name]);
  return new Request(new URL(`${CACHE_PATH}${encodeURIComponent(parts.kind)}?${params.toString()}`, origin).href, { method: 'GET' });
}

/** True when the client asked not to be served from cache (`nocache=1` or `Cache-Control: no-cache`/`no-store`). */
export function wantsBypass(request: Request, nocacheOption: boolean): boolean {
  if (nocacheOption) return true;
  const cc = (request.headers.get('cache-control') ?? '').toLowerCase();
  return cc.includes('no-cache') || cc.includes('no-store');
}

/** A stored response for `key`, or undefined. */
export async function cacheLookup(key: Request): Promise<Response | undefined> {
  return caches.default.match(key);
}

/** The cached answer for `key` marked `X-Cache: HIT`, unless the request bypasses the cache. Undefined on a miss. */
export async function serveCached(key: Request, bypass: boolean): Promise<Response | undefined> {
  if (bypass) return undefined;
  const hit = await cacheLookup(key);
  if (hit === undefined) return undefined;
  const response = new Response(hit.body, hit);
  response.headers.set('x-cache', 'HIT');
  return response;
}

/** What cacheStore needs of the execution context. */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** Stores a copy of `response` under `key` for `ttlS` seconds, in the background. */
export function cacheStore(ctx: WaitUntil, key: Request, response: Response, ttlS: number): void {
  if (ttlS <= 0 || response.status !== 200) return;
  const copy = new Response(response.clone().body, response);
  copy.headers.set('cache-control', `public, max-age=${Math.floor(ttlS)}`);
  copy.headers.delete('x-cache');
  ctx.waitUntil(caches.default.put(key, copy).catch((err: unknown) => console.error('pith: cache write failed', err)));
}

/**
 * The end of the cached-answer flow of every route (extract and feed), after a miss: stores `response` under
 * `key` for `ttlS` seconds (0: not stored; nor when the request says Cache-Control: no-store; a bypass still
 * stores, so nocache=1 refreshes the copy); true when it stored. A matching If-None-Match then becomes a 304 in
 * conditionalGet.
 */
export function storeMiss(request: Request, ctx: WaitUntil, key: Request, response: Response, ttlS: number): boolean {
  if (ttlS <= 0 || (request.headers.get('cache-control') ?? '').toLowerCase().includes('no-store')) return false;
  cacheStore(ctx, key, response, ttlS);
  return true;
}

/**
 * Hono's ETag middleware on the cached routes: a GET whose If-None-Match matches the answer's ETag gets a 304 with
 * the ETag, Cache-Control, X-Cache and X-Pith-Items. Every answer of these routes carries its ETag already (stored
 * with the cached copy, or etagFor() of a fresh one), so the middleware never hashes a body itself.
 */
export const conditionalGet = etag({ retainedHeaders: [...RETAINED_304_HEADERS, 'x-cache', 'x-pith-items'] });

/** A strong ETag for a body: the first 128 bits of its SHA-256. */
export async function etagFor(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  let hex = '';
  for (let i = 0; i < 16; i++) hex += digest[i].toString(16).padStart(2, '0');
  return `"${hex}"`;
}

/**
 * The caching headers a client sees on an extraction answer (miss, hit or 304): `Vary: Accept` when the format
 * was negotiated from Accept, and `Cache-Control: private` instead of `public` when the answer needed a token, so
 * a shared cache never hands it to someone without the token. (The copy in the edge cache stays `public`: the
 * Worker checks the token before it looks there.)
 */
export function withClientCacheHeaders(response: Response, options: { tokenRequired: boolean; varyAccept: boolean }): Response {
  if (options.varyAccept) response.headers.set('vary', 'Accept');
  const cc = response.headers.get('cache-control');
  if (options.tokenRequired && cc !== null && cc.includes('public')) response.headers.set('cache-control', cc.replace('public', 'private'));
  return response;
}
