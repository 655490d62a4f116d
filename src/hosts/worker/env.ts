// The Worker's bindings and the settings derived from them (parsed once per env object, not per request).

import { parseAllowHosts } from '../../io/guard.js';
import { DEFAULT_FETCH_LIMITS, type FetchLimits } from '../../io/fetch.js';
import type { TcpProbe } from '../../io/fetch-errors.js';
import { tcpOpens } from './tcp-probe.js';

export interface Env {
  /** Comma-separated hosts or addresses that bypass the address guard (development only). */
  PITH_ALLOW_HOSTS?: string;
  /** Edge-cache TTL of extractions, seconds (default 3600; 0 turns the cache off). */
  PITH_CACHE_TTL_S?: string;
  /** Deadline for fetching a page, all redirects and the body included, milliseconds (default 10000). */
  PITH_FETCH_TIMEOUT_MS?: string;
  /** Largest page fetched or posted, bytes after decompression (default 5242880). */
  PITH_MAX_BYTES?: string;
  /** Secret: when set, extraction routes require `Authorization: Bearer <token>` or `?token=`. */
  PITH_TOKEN?: string;
  /** Workers rate-limiting binding; when present it limits each client IP. */
  PITH_RATE_LIMITER?: RateLimit;
  /** Period of PITH_RATE_LIMITER in seconds, used for Retry-After (default 60). */
  PITH_RATE_LIMIT_PERIOD_S?: string;
  /** In-isolate fallback: requests per minute per client IP when no binding is configured (default 0 = off). */
  PITH_RATE_LIMIT_PER_MIN?: string;
}

export interface Settings {
  allowHosts: ReadonlySet<string>;
  cacheTtlS: number;
  /** Fetch limits, and the Worker's TCP probe that tells DNS from TLS failures (passed on with the limits). */
  fetch: FetchLimits & { tcpProbe: TcpProbe };
  token: string;
  rateLimitPeriodS: number;
  rateLimitPerMin: number;
}

/** A numeric variable: `fallback` when unset or blank; throws (saying how to fix it) below `min` or not a number. */
export function numberVar(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) {
    const what = min === 0 ? 'a non-negative number' : `a number >= ${min}`;
    throw new Error(`${name}="${value}" is not ${what}: fix the variable in wrangler.toml or --var`);
  }
  return n;
}

const settingsCache = new WeakMap<object, Settings>();

/** Settings of an env object, computed on first use and kept for the life of the isolate. */
export function settingsOf(env: Env | undefined): Settings {
  const key: object = env ?? settingsCache;
  const known = settingsCache.get(key);
  if (known !== undefined) return known;
  const e: Env = env ?? {};
  const settings: Settings = Object.freeze({
    allowHosts: parseAllowHosts(e.PITH_ALLOW_HOSTS),
    cacheTtlS: numberVar(e.PITH_CACHE_TTL_S, 3600, 'PITH_CACHE_TTL_S'),
    fetch: Object.freeze({
      timeoutMs: numberVar(e.PITH_FETCH_TIMEOUT_MS, DEFAULT_FETCH_LIMITS.timeoutMs, 'PITH_FETCH_TIMEOUT_MS'),
      maxBytes: numberVar(e.PITH_MAX_BYTES, DEFAULT_FETCH_LIMITS.maxBytes, 'PITH_MAX_BYTES'),
      maxRedirects: DEFAULT_FETCH_LIMITS.maxRedirects,
      tcpProbe: tcpOpens,
    }),
    token: (e.PITH_TOKEN ?? '').trim(),
    rateLimitPeriodS: numberVar(e.PITH_RATE_LIMIT_PERIOD_S, 60, 'PITH_RATE_LIMIT_PERIOD_S'),
    rateLimitPerMin: numberVar(e.PITH_RATE_LIMIT_PER_MIN, 0, 'PITH_RATE_LIMIT_PER_MIN'),
  });
  settingsCache.set(key, settings);
  return settings;
}
