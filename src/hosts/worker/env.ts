// The Worker's bindings and the settings derived from them (parsed once per env object, not per request).

import { LIMIT_NAMES, limitsOf, type Limits } from '../../config.js';
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
  /**
   * Parse limits (src/config.ts), one variable each: PITH_MAX_INPUT_CHARS, PITH_MAX_DOM_NODES, PITH_MAX_BLOCKS,
   * PITH_MAX_NESTING_DEPTH, PITH_MAX_PARSE_NODES, PITH_MAX_PARSE_ELEMENTS, PITH_MAX_PARSE_STEPS, PITH_MAX_CLASS_NAMES.
   */
  [limitVar: `PITH_MAX_${string}`]: string | undefined;
  /** Workers rate-limiting binding; when present it limits each client IP. */
  PITH_RATE_LIMITER?: RateLimit;
  /** Period of PITH_RATE_LIMITER in seconds, used for Retry-After (default 60). */
  PITH_RATE_LIMIT_PERIOD_S?: string;
  /** In-isolate fallback: requests per minute per client IP when no binding is configured (default 0 = off). */
  PITH_RATE_LIMIT_PER_MIN?: string;
  /** "0": load the model on the first request instead of while the isolate starts (docs/cold-start.md). */
  PITH_LOAD_AT_START?: string;
}

export interface Settings {
  allowHosts: ReadonlySet<string>;
  cacheTtlS: number;
  /** Fetch limits, and the Worker's TCP probe that tells DNS from TLS failures (passed on with the limits). */
  fetch: FetchLimits & { tcpProbe: TcpProbe };
  /** Parse limits, passed to every extraction (DEFAULT_LIMITS with the PITH_MAX_* variables). */
  limits: Readonly<Limits>;
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

/** The variable of a limit: maxInputChars -> PITH_MAX_INPUT_CHARS. */
export function limitVarOf(name: keyof Limits): `PITH_MAX_${string}` {
  return `PITH_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}` as `PITH_MAX_${string}`;
}

function limitsFromVars(e: Env): Readonly<Limits> {
  const overrides: Partial<Limits> = {};
  for (const name of LIMIT_NAMES) {
    const value = e[limitVarOf(name)];
    if (value !== undefined && value.trim() !== '') {
      const n = numberVar(value, 0, limitVarOf(name), 1);
      if (!Number.isSafeInteger(n)) throw new Error(`${limitVarOf(name)}="${value}" is not a whole number: fix the variable in wrangler.toml or --var`);
      overrides[name] = n;
    }
  }
  return limitsOf(overrides);
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
    limits: limitsFromVars(e),
    token: (e.PITH_TOKEN ?? '').trim(),
    rateLimitPeriodS: numberVar(e.PITH_RATE_LIMIT_PERIOD_S, 60, 'PITH_RATE_LIMIT_PERIOD_S'),
    rateLimitPerMin: numberVar(e.PITH_RATE_LIMIT_PER_MIN, 0, 'PITH_RATE_LIMIT_PER_MIN'),
  });
  settingsCache.set(key, settings);
  return settings;
}
