// Access control for the extraction routes: an optional bearer token and per-client rate limiting.
//
// Token: when the secret PITH_TOKEN is set, every extraction request must carry it, as
// `Authorization: Bearer <token>` or as `?token=<token>` (feed readers and browsers cannot set headers).
//
// Rate limit, per client IP (CF-Connecting-IP), off by default:
// 1. the Workers rate-limiting binding PITH_RATE_LIMITER when configured (shared across the edge location);
// 2. else, when PITH_RATE_LIMIT_PER_MIN > 0, a token bucket inside this isolate: each client gets that many
//    requests per minute, refilled continuously, bursts up to the same number. It limits what one isolate
//    serves, not a global rate (Cloudflare runs many isolates), so it is a brake, not a quota. At most
//    MAX_TRACKED_CLIENTS buckets are kept; the least recently seen client is forgotten first.
// A refused request throws PithError 'rate_limited' (429 with Retry-After).

import { timingSafeEqual } from 'hono/utils/buffer';
import { PithError } from '../errors.js';
import type { Env, Settings } from './env.js';

const BEARER = /^bearer\s+(.+)$/i;
const MAX_TRACKED_CLIENTS = 10_000;
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

/** Client key for rate limiting. */
export function clientKey(request: Request): string {
  return request.headers.get('cf-connecting-ip') ?? request.headers.get('x-real-ip') ?? 'unknown';
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const buckets = new Map<string, Bucket>();

/** In-isolate token bucket. Returns 0 when the request may go, else the seconds until it may. */
export function takeToken(key: string, perMinute: number, nowMs: number = Date.now()): number {
  const refillPerMs = perMinute / 60_000;
  let bucket = buckets.get(key);
  if (bucket === undefined) {
    bucket = { tokens: perMinute, updatedMs: nowMs };
    if (buckets.size >= MAX_TRACKED_CLIENTS) buckets.delete(buckets.keys().next().value as string);
  } else {
    buckets.delete(key); // re-inserted below: Map order is recency order
    bucket.tokens = Math.min(perMinute, bucket.tokens + (nowMs - bucket.updatedMs) * refillPerMs);
    bucket.updatedMs = nowMs;
  }
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
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
