// Access control for the extraction routes: an optional bearer token and per-client rate limiting.
//
// Token: when the secret PITH_TOKEN is set, every extraction request must carry it, as
// `Authorization: Bearer <token>` or as `?token=<token>` (feed readers and browsers cannot set headers).
//
// Rate limit, per client, off by default. The client is the address Cloudflare's edge puts in CF-Connecting-IP
// (the edge sets it on every request and overwrites one a client sends; X-Forwarded-For and X-Real-IP are the
// client's to choose and are ignored). An IPv4 address is one client; an IPv6 address counts by its /64, the
// block one subscriber gets, so rotating addresses inside it gains nothing; an IPv4-mapped IPv6 address
// (::ffff:a.b.c.d) is the IPv4 client it names.
// 1. the Workers rate-limiting binding PITH_RATE_LIMITER when configured (shared across the edge location);
// 2. else, when PITH_RATE_LIMIT_PER_MIN > 0, a token bucket inside this isolate: each client gets that many
//    requests per minute, refilled continuously, bursts up to the same number. It limits what one isolate
//    serves, not a global rate (Cloudflare runs many isolates), so it is a brake, not a quota. At most
//    MAX_TRACKED_CLIENTS buckets (and the overflow one) are kept, and only a bucket that has refilled completely is ever forgotten (it
//    is the same as a new one): new clients cannot push out someone who is being limited. When every tracked
//    client is still being limited, new clients share one overflow bucket until some bucket refills.
// Locally (`npm start`) the dev server keeps a CF-Connecting-IP the client sends, so there the key can be chosen
// by the client; the table bound and the overflow bucket still cap what rotating it gains.
// A refused request throws PithError 'rate_limited' (429 with Retry-After).
//
// access() is both checks as Hono middleware, applied to the route groups (app.ts, feed/routes.ts, jobs/routes.ts).

import type { Context, MiddlewareHandler } from 'hono';
import { timingSafeEqual } from 'hono/utils/buffer';
import { PithError } from '../../errors.js';
import { settingsOf, type Env, type Settings } from './env.js';
import { parseOptions } from './options.js';
import { parseIpv6 } from '../../io/guard.js';

const BEARER = /^bearer\s+(.+)$/i;
export const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Throws 'unauthorized' unless the request carries the token (when one is configured). The comparison is Hono's
 * timing-safe one (it compares SHA-256 digests, so the time does not depend on where the strings differ).
 */
export async function requireToken(request: Request, queryToken: string | undefined, settings: Settings): Promise<void> {
  if (settings.token === '') return;
  const header = BEARER.exec(request.headers.get('authorization') ?? '');
  const given = header !== null ? header[1].trim() : queryToken;
  if (given === undefined || given === '') {
    throw new PithError('unauthorized', 'this pith needs a token: send "Authorization: Bearer <token>" or add ?token=<token>');
  }
  if (!(await timingSafeEqual(given, settings.token))) throw new PithError('unauthorized', 'the token is not valid');
}

/**
 * Client key for rate limiting: CF-Connecting-IP, an IPv6 address reduced to its /64, an IPv4-mapped one
 * (::ffff:a.b.c.d, in any spelling) keyed as the IPv4 address it carries, not as the one /64 they all share.
 */
export function clientKey(request: Request): string {
  const ip = (request.headers.get('cf-connecting-ip') ?? '').trim().toLowerCase();
  if (ip === '') return 'unknown';
  const groups = ip.includes(':') ? parseIpv6(ip) : null;
  if (groups === null) return ip.slice(0, 64);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Buckets in recency order (Map order: least recently seen first). */
const buckets = new Map<string, Bucket>();
/** The bucket new clients share while the table is full of clients still being limited. */
const OVERFLOW_KEY = '(overflow)';
/** How many of the least recently seen buckets one insertion looks at for a refilled one to forget. */
const EVICTION_SCAN = 32;

function refill(bucket: Bucket, perMinute: number, nowMs: number): void {
  bucket.tokens = Math.min(perMinute, bucket.tokens + (nowMs - bucket.updatedMs) * (perMinute / 60_000));
  bucket.updatedMs = nowMs;
}

/** Forgets refilled buckets among the least recently seen; true when there is room for a new one. */
function makeRoom(perMinute: number, nowMs: number): boolean {
  let scanned = 0;
  for (const [key, bucket] of buckets) {
    if (scanned++ >= EVICTION_SCAN || buckets.size < MAX_TRACKED_CLIENTS) break;
    if (key === OVERFLOW_KEY) continue;
    refill(bucket, perMinute, nowMs);
    if (bucket.tokens >= perMinute) buckets.delete(key);
  }
  return buckets.size < MAX_TRACKED_CLIENTS;
}

/** In-isolate token bucket. Returns 0 when the request may go, else the seconds until it may. */
export function takeToken(key: string, perMinute: number, nowMs: number = Date.now()): number {
  let bucket = buckets.get(key);
  if (bucket === undefined && buckets.size >= MAX_TRACKED_CLIENTS && !makeRoom(perMinute, nowMs)) {
    key = OVERFLOW_KEY;
    bucket = buckets.get(key);
  }
  if (bucket === undefined) {
    bucket = { tokens: perMinute, updatedMs: nowMs };
  } else {
    buckets.delete(key); // re-inserted below: Map order is recency order
    refill(bucket, perMinute, nowMs);
  }
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / (perMinute / 60_000) / 1000));
}

/** Forgets every bucket (tests). */
export function resetRateLimitTable(): void {
  buckets.clear();
}

/** How many clients the in-isolate limiter tracks (tests). */
export function trackedClients(): number {
  return buckets.size;
}

/** Throws 'rate_limited' when the client has used its share. */
export async function enforceRateLimit(request: Request, env: Env, settings: Settings): Promise<void> {
  const key = clientKey(request);
  const limiter = env.PITH_RATE_LIMITER;
  if (limiter !== undefined) {
    const { success } = await limiter.limit({ key });
    if (!success) {
      throw new PithError('rate_limited', `too many requests from ${key}: try again in ${settings.rateLimitPeriodS} s`, { retryAfterS: settings.rateLimitPeriodS });
    }
    return;
  }
  if (settings.rateLimitPerMin <= 0) return;
  const waitS = takeToken(key, settings.rateLimitPerMin);
  if (waitS > 0) {
    throw new PithError('rate_limited', `too many requests from ${key}: at most ${settings.rateLimitPerMin} a minute, try again in ${waitS} s`, { retryAfterS: waitS });
  }
}

type AccessEnv = { Bindings: Env };

/** The `?token=` of a request, when its route group takes one there (the prefix forms split their query first). */
export type TokenOf<E extends AccessEnv> = (c: Context<E>) => string | undefined;

/** pith's own query parameters (token=, pith_token=): every route but the prefix forms. */
const queryToken = (c: Context): string | undefined => parseOptions(new URL(c.req.url).searchParams).token;

/**
 * The access check of the extraction, feed and job routes as middleware: the rate limit, then the token, before the
 * route does any work. `tokenOf` is read only when a token is configured.
 */
export function access<E extends AccessEnv>(tokenOf: TokenOf<E> = queryToken): MiddlewareHandler<E> {
  return async (c, next) => {
    const settings = settingsOf(c.env);
    await enforceRateLimit(c.req.raw, c.env ?? {}, settings);
    await requireToken(c.req.raw, settings.token === '' ? undefined : tokenOf(c), settings);
    await next();
  };
}
