// One URL of a bulk job: robots.txt, the extraction cache, the guarded fetch with retries, extraction. Everything
// the on-demand route uses is reused as is: checkTarget (the address guard), fetchPage (limits, redirects each
// checked, charset), the Worker's extractor, the presenter and the Cache API under the same keys, so a URL
// extracted on demand is a cache hit for a job and the other way round.
//
// Failures of the page (blocked, 4xx/5xx, time-out, not HTML, too large, no content, robots.txt) become a failed
// result line; nothing here throws for them. Retryable failures (429, 5xx, time-outs, connection errors) are tried
// again with exponential backoff and jitter, `options.attempts` times in all.

import { PithError, type PithErrorCode } from '../../../errors.js';
import type { Extraction, Format } from '../../../types.js';
import { isAllowed, parseRobots, robotsFromStatus, ALLOW_ALL, DISALLOW_ALL, type RobotsPolicy } from '../../../io/robots.js';
import type { JobResult } from '../../../io/ndjson.js';
import type { Extractor } from '../extractor.js';
import { cacheKeyFor, cacheLookup, cacheStore, etagFor, type WaitUntil } from '../cache.js';
import type { Settings } from '../env.js';
import { fetchPage, guardedFetch } from '../../../io/fetch.js';
import { present, type ExtractionJson } from '../../../core/render/present.js';
import { checkTarget } from '../../../io/guard.js';
import type { JobOptions } from './job-types.js';

/** The product token robots.txt groups are matched against; the User-Agent header (io/fetch.ts) starts with it. */
export const ROBOTS_AGENT = 'pith';
const ROBOTS_TTL_MS = 60 * 60 * 1000;
const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 5_000;
const ROBOTS_CACHE_MAX = 10_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

export interface UrlContext {
  extractor: Extractor;
  settings: Settings;
  options: JobOptions;
  ctx: WaitUntil;
  /** The HTML comes from an archive (WARC), not from the live page. */
  archived?: boolean;
}

/** Codes of failures that are not about one page: the message is retried instead (and dead-lettered at last). */
const INFRASTRUCTURE_CODES: ReadonlySet<string> = new Set(['model_missing', 'model_mismatch']);

// ---- robots.txt, per origin, cached in the isolate for an hour ----

const robotsCache = new Map<string, { policy: Promise<RobotsPolicy>; expiresAt: number }>();

async function loadRobots(origin: string, context: UrlContext): Promise<RobotsPolicy> {
  const { settings, options } = context;
  try {
    const body = await guardedFetch(`${origin}/robots.txt`, {
      timeoutMs: Math.min(ROBOTS_TIMEOUT_MS, options.timeoutMs),
      maxBytes: ROBOTS_MAX_BYTES,
      maxRedirects: settings.fetch.maxRedirects,
      allowHosts: settings.allowHosts,
      accept: 'text/plain,*/*;q=0.1',
      acceptMediaType: () => true,
      rejectCode: 'not_html',
      wanted: 'robots.txt',
    });
    return parseRobots(new TextDecoder().decode(body.bytes), ROBOTS_AGENT);
  } catch (err) {
    if (err instanceof PithError) {
      const status = err.details?.upstreamStatus;
      if (typeof status === 'number') return robotsFromStatus(status); // 4xx: no rules; 5xx: disallow all (RFC 9309)
      if (err.code === 'upstream_too_large') return ALLOW_ALL; // the RFC lets a crawler ignore what is past its limit
      // Unreachable or blocked: the page fetch will fail with its own, more precise error.
      return ALLOW_ALL;
    }
    throw err;
  }
}

/** The robots.txt policy of `origin` (cached for an hour per isolate; concurrent callers share one fetch). */
export function robotsFor(origin: string, context: UrlContext): Promise<RobotsPolicy> {
  const now = Date.now();
  const known = robotsCache.get(origin);
  if (known !== undefined && known.expiresAt > now) return known.policy;
  if (robotsCache.size >= ROBOTS_CACHE_MAX) robotsCache.delete(robotsCache.keys().next().value as string);
  const policy = loadRobots(origin, context);
  robotsCache.set(origin, { policy, expiresAt: now + ROBOTS_TTL_MS });
  policy.catch(() => robotsCache.delete(origin));
  return policy;
}

/** Politeness delay of a host: the job's, raised to robots.txt's Crawl-delay (at most 30 s). */
export async function hostDelayMs(origin: string, context: UrlContext): Promise<number> {
  const policy = await robotsFor(origin, context);
  return Math.max(context.options.hostDelayMs, Math.min(30_000, (policy.crawlDelayS ?? 0) * 1000));
}

// ---- retries ----

/** Whether a failed fetch is worth another attempt: 429, 5xx, time-outs and connection errors. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof PithError)) return false;
  if (err.code === 'upstream_timeout') return true;
  if (err.code !== 'upstream_error') return false;
  const status = err.details?.upstreamStatus;
  if (typeof status !== 'number') return true; // could not connect
  return status === 429 || status >= 500;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1): 0.5 s, 1 s, 2 s ... at most 8 s, with jitter. */
export function backoffMs(attempt: number, random: number = Math.random()): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(base * (0.5 + random / 2));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---- results ----

function failure(url: string, err: unknown): JobResult {
  if (err instanceof PithError) {
    const status = err.details?.upstreamStatus;
    return { url, ok: false, error: { code: err.code, message: err.message, ...(typeof status === 'number' ? { upstreamStatus: status } : {}) } };
  }
  console.error(`pith: job URL ${url.slice(0, 200)} failed unexpectedly`, err);
  return { url, ok: false, error: { code: 'internal', message: 'pith failed on this page; the operator has been told in the logs' } };
}

/** What a job line takes from the JSON answer (cached or just rendered). */
type JsonBody = Pick<ExtractionJson, 'finalUrl' | 'title' | 'metadata' | 'text' | 'fingerprint'>;

function okResult(url: string, json: JsonBody, format: JobOptions['format'], formatBody: string | null): JobResult {
  const base = { url, finalUrl: json.finalUrl ?? url, ok: true as const, title: json.title };
  const content = format === 'text' ? { text: json.text } : format === 'markdown' ? { markdown: formatBody ?? '' } : { html: formatBody ?? '' };
  return { ...base, ...content, fingerprint: json.fingerprint, metadata: json.metadata };
}

/** Result of one URL, and its text (for near-duplicate signatures; '' for a failure). */
export interface UrlOutcome {
  result: JobResult;
  text: string;
}

/** The cached json (and, for markdown/html jobs, the cached body of that format), or null on any miss. */
async function fromCache(target: URL, context: UrlContext): Promise<{ json: JsonBody; formatBody: string | null } | null> {
  const { extractor, options, settings } = context;
  const jsonHit = await cacheLookup(cacheKeyFor({ kind: 'extract', target, format: 'json', options: {}, modelVersion: extractor.modelVersion, limits: settings.limits }, options.origin));
  if (jsonHit === undefined) return null;
  const json = (await jsonHit.json()) as JsonBody;
  if (options.format === 'text') return { json, formatBody: null };
  const formatHit = await cacheLookup(cacheKeyFor({ kind: 'extract', target, format: options.format, options: {}, modelVersion: extractor.modelVersion, limits: settings.limits }, options.origin));
  return formatHit === undefined ? null : { json, formatBody: await formatHit.text() };
}

/** Renders `format` exactly as GET /v1/extract does and stores it in the cache under the same key. */
async function renderAndStore(format: Format, target: URL, extraction: Extraction, page: { url: string; finalUrl: string; encoding: string; fetchMs: number }, context: UrlContext): Promise<string> {
  const { body, contentType } = present(format, extraction, page);
  const { settings, extractor, options } = context;
  if (settings.cacheTtlS > 0) {
    const key = cacheKeyFor({ kind: 'extract', target, format, options: {}, modelVersion: extractor.modelVersion, limits: settings.limits }, options.origin);
    const response = new Response(body, { headers: { 'content-type': contentType, etag: await etagFor(body) } });
    cacheStore(context.ctx, key, response, settings.cacheTtlS);
  }
  return body;
}

/** Extracts fetched (or archived) HTML into a result line, caching like the on-demand route. */
export async function resultOfHtml(
  url: string,
  target: URL,
  page: { html: string; finalUrl: string; encoding: string; fetchMs: number },
  context: UrlContext,
): Promise<UrlOutcome> {
  if (context.archived === true) context = { ...context, settings: { ...context.settings, cacheTtlS: 0 } }; // archived copies never enter the live cache
  const { extractor, options } = context;
  const extraction = await extractor.extract(page.html, { url: page.finalUrl, format: options.format, fingerprint: true, limits: context.settings.limits });
  if (extraction.text.trim() === '') {
    throw new PithError('no_content', 'no main content was found on this page (it may be empty, a login wall or built by JavaScript)');
  }
  const rendered = { url, finalUrl: page.finalUrl, encoding: page.encoding, fetchMs: page.fetchMs };
  const json = JSON.parse(await renderAndStore('json', target, extraction, rendered, context)) as JsonBody;
  const formatBody = options.format === 'text' ? null : await renderAndStore(options.format, target, extraction, rendered, context);
  return { result: okResult(url, json, options.format, formatBody), text: extraction.text };
}

/**
 * Everything for one URL: never throws for a page's failure (it becomes a failed result); throws only for
 * failures of pith itself (the model cannot run), so that the message is retried.
 */
export async function processUrl(url: string, context: UrlContext): Promise<UrlOutcome> {
  const { settings, options } = context;
  try {
    const target = checkTarget(url, settings.allowHosts);
    if (!options.nocache && settings.cacheTtlS > 0) {
      const hit = await fromCache(target, context);
      if (hit !== null) return { result: okResult(url, hit.json, options.format, hit.formatBody), text: hit.json.text };
    }
    const policy = await robotsFor(target.origin, context);
    if (!isAllowed(policy, target.pathname + target.search)) {
      const why = policy === DISALLOW_ALL || policy.disallowAll ? 'its robots.txt could not be read (RFC 9309: assume everything is disallowed)' : `its robots.txt disallows ${target.pathname.slice(0, 200)} for ${ROBOTS_AGENT}`;
      return { result: { url, ok: false, error: { code: 'robots_disallowed', message: `not fetching ${target.host}: ${why}` } }, text: '' };
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const page = await fetchPage(target, { ...settings.fetch, timeoutMs: options.timeoutMs, allowHosts: settings.allowHosts });
        return await resultOfHtml(url, target, page, context);
      } catch (err) {
        if (attempt >= options.attempts || !isRetryable(err)) throw err;
        await sleep(backoffMs(attempt));
      }
    }
  } catch (err) {
    if (err instanceof PithError && INFRASTRUCTURE_CODES.has(err.code)) throw err;
    return { result: failure(url, err), text: '' };
  }
}

/** One page of a WARC job: extracted from its archived HTML, nothing fetched, nothing cached. */
export async function processArchived(url: string, html: string, context: UrlContext, error?: { code: string; message: string }): Promise<UrlOutcome> {
  try {
    if (error !== undefined) throw new PithError(error.code as PithErrorCode, error.message); // its payload did not decode (io/warc-pages.ts)
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new PithError('invalid_url', `the record's URL "${url.slice(0, 200)}" is not a valid URL`);
    }
    return await resultOfHtml(url, target, { html, finalUrl: target.href, encoding: 'utf-8', fetchMs: 0 }, { ...context, archived: true });
  } catch (err) {
    if (err instanceof PithError && INFRASTRUCTURE_CODES.has(err.code)) throw err;
    return { result: failure(url, err), text: '' };
  }
}
