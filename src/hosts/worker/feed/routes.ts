// The full-text feed proxy: a feed in, the same feed out with each item's clean article in it.
//
//   GET /v1/feed?url=<feed-url>&max=10     options: max=0..50 (default 10), dedupe=1, nocache=1, token=<secret>
//   GET /feed/<feed-url>[?<its query>]     the same; max/dedupe/nocache/token in the query as for the prefix
//                                          extract route (pith_max=, pith_dedupe=, pith_nocache= always belong
//                                          to pith; bare max= when a number, dedupe= when a flag value)
//
// Flow: access checks -> feed cache -> guarded fetch of the feed -> readFeed (415 not_a_feed, 422 invalid_feed)
// -> the first `max` items' articles, a few at a time, under one time budget (articles.ts) -> spliceArticles
// -> the same kind of feed with its own content type. Header X-Pith-Items: filled=N; kept=N; timed-out=N
// (filled + kept + timed-out = items in the feed; items beyond max count as kept).
// dedupe=1 drops items that are near-duplicates of an earlier item (same SimHash of the clean article, or of
// title + description when the item has no article, within 3 of 64 bits: dedupe.ts); the header then ends in
// "; dropped=N" and the other three count only the items left in the feed.
// The feed answer is cached for PITH_FEED_CACHE_TTL_S (default 300 s) unless an item timed out: the next poll
// then tries again, and finds the late articles in the extract cache. nocache=1 (or Cache-Control: no-cache)
// re-reads the feed only; its articles still come from the extract cache.
// Concurrency 4 stays under the Workers limit of 6 simultaneous outgoing connections per request.
//
// Variables (strings, like the rest of wrangler.toml's [vars]):
//   PITH_FEED_BUDGET_MS       total time for one feed request, feed fetch included (default 20000)
//   PITH_FEED_CONCURRENCY     articles fetched and extracted at the same time (default 4)
//   PITH_FEED_CACHE_TTL_S     edge-cache TTL of feed answers, seconds (default 300; 0 = not cached)

import { Hono, type Context } from 'hono';
import { PithError } from '../../../errors.js';
import { access } from '../access.js';
import type { Extractor } from '../extractor.js';
import { cacheKeyFor, conditionalGet, etagFor, serveCached, storeMiss, wantsBypass, withClientCacheHeaders } from '../cache.js';
import { numberVar, settingsOf, type Env } from '../env.js';
import { decodeBody } from '../../../io/charset.js';
import { guardedFetch } from '../../../io/fetch.js';
import { checkTarget } from '../../../io/guard.js';
import { FLAG_VALUE, TRUE_VALUE, parseOptions, splitPrefixTarget, type RequestOptions } from '../options.js';
import { articleFor, fillArticles, type ItemStatus } from './articles.js';
import { nearDuplicateItems } from './dedupe.js';
import { FEED_CONTENT_TYPE, feedAsJson, readFeed, spliceArticles } from './feed-xml.js';
import { applyLinkPolicy, type LinkPolicy } from '../../../core/compat/links.js';

export interface FeedEnv extends Env {
  PITH_FEED_BUDGET_MS?: string;
  PITH_FEED_CONCURRENCY?: string;
  PITH_FEED_CACHE_TTL_S?: string;
}

export interface FeedSettings {
  budgetMs: number;
  concurrency: number;
  cacheTtlS: number;
}

/** Items filled when the request does not say (max=). */
export const DEFAULT_MAX_ITEMS = 10;
/** Most items filled per request, whatever max= says. */
export const MAX_ITEMS_CAP = 50;

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';
const MAX_VALUE = /^\d{1,6}$/;

type FeedAppEnv = { Bindings: FeedEnv };

const feedSettingsCache = new WeakMap<object, FeedSettings>();

/** Feed settings of an env object, computed once per env. */
export function feedSettingsOf(env: FeedEnv | undefined): FeedSettings {
  const key: object = env ?? feedSettingsCache;
  const known = feedSettingsCache.get(key);
  if (known !== undefined) return known;
  const e: FeedEnv = env ?? {};
  const settings: FeedSettings = Object.freeze({
    budgetMs: numberVar(e.PITH_FEED_BUDGET_MS, 20_000, 'PITH_FEED_BUDGET_MS'),
    concurrency: Math.floor(numberVar(e.PITH_FEED_CONCURRENCY, 4, 'PITH_FEED_CONCURRENCY', 1)),
    cacheTtlS: numberVar(e.PITH_FEED_CACHE_TTL_S, 300, 'PITH_FEED_CACHE_TTL_S'),
  });
  feedSettingsCache.set(key, settings);
  return settings;
}

/** The max= value: digits only; above the cap it is the cap. */
export function parseMax(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_MAX_ITEMS;
  if (!MAX_VALUE.test(value)) throw new PithError('invalid_input', `max "${value.slice(0, 20)}" is not a number of items (0 to ${MAX_ITEMS_CAP})`);
  return Math.min(Number(value), MAX_ITEMS_CAP);
}

/**
 * Splits the prefix form (`/<feed-url>?<query>`) into the feed URL, pith's options and max. `pith_max` always
 * belongs to pith, a bare `max` when its value is a number; the feed keeps everything else (see options.ts).
 */
export function splitFeedPrefix(
  pathAndQuery: string,
  tokenConfigured: boolean,
): { target: string; options: RequestOptions; max: string | undefined; dedupe: boolean } {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return { ...splitPrefixTarget(pathAndQuery, tokenConfigured), max: undefined, dedupe: false };
  let max: string | undefined;
  let dedupe = false;
  const rest: string[] = [];
  for (const pair of pathAndQuery.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (name === 'pith_max' || (name === 'max' && MAX_VALUE.test(value))) max = value;
    else if (name === 'pith_dedupe' || (name === 'dedupe' && FLAG_VALUE.test(value))) dedupe = TRUE_VALUE.test(value);
    else rest.push(pair);
  }
  const path = pathAndQuery.slice(0, q) + (rest.length > 0 ? `?${rest.join('&')}` : '');
  return { ...splitPrefixTarget(path, tokenConfigured), max, dedupe };
}

function itemsHeader(filled: number, kept: number, timedOut: number, dropped: number | null): string {
  return `filled=${filled}; kept=${kept}; timed-out=${timedOut}${dropped === null ? '' : `; dropped=${dropped}`}`;
}

/**
 * Full-Text RSS's way of answering (makefulltextfeed.php): only the first `max` items, `excludeFailed` (exc=1) drops
 * the items whose article could not be had, `links` handles the articles' links, `json` answers the feed as JSON.
 */
export interface FeedShape {
  onlyFirstMax: boolean;
  excludeFailed: boolean;
  links: LinkPolicy;
  json: boolean;
}

export async function serveFeed(
  c: Context<FeedAppEnv>,
  extractor: Extractor,
  rawTarget: string,
  options: RequestOptions,
  maxValue: string | undefined,
  dedupe: boolean,
  shape?: FeedShape,
): Promise<Response> {
  const startedAt = Date.now();
  const settings = settingsOf(c.env);
  const feedSettings = feedSettingsOf(c.env);
  const max = parseMax(maxValue);
  const target = checkTarget(rawTarget, settings.allowHosts); // 400/403 before anything else
  const origin = new URL(c.req.url).origin;
  const keyOptions: Record<string, string> = dedupe ? { max: String(max), dedupe: '1' } : { max: String(max) };
  if (shape !== undefined) keyOptions.ftr = `${Number(shape.onlyFirstMax)}${Number(shape.excludeFailed)}${shape.links}`;
  const key = cacheKeyFor({ kind: 'feed', target, format: shape?.json ? 'feed-json' : 'feed', options: keyOptions, modelVersion: extractor.modelVersion, limits: settings.limits }, origin);
  const cacheable = feedSettings.cacheTtlS > 0;

  const clientHeaders = { tokenRequired: settings.token !== '', varyAccept: false };
  const cached = cacheable ? await serveCached(key, wantsBypass(c.req.raw, options.nocache)) : undefined;
  if (cached !== undefined) return withClientCacheHeaders(cached, clientHeaders);

  const fetched = await guardedFetch(target, {
    ...settings.fetch,
    allowHosts: settings.allowHosts,
    accept: FEED_ACCEPT,
    // XML of any label, text/* (feeds are often served as text/html or text/plain: the body decides), or no type.
    acceptMediaType: (mediaType) =>
      mediaType === '' || mediaType.startsWith('text/') || mediaType.endsWith('/xml') || mediaType.endsWith('+xml') || mediaType === 'application/octet-stream',
    rejectCode: 'not_a_feed',
    wanted: 'an RSS, RSS 1.0 (RDF) or Atom feed',
  });
  const feed = readFeed(decodeBody(fetched.bytes, fetched.contentType).text, fetched.finalUrl, max, dedupe);
  const ctx = c.executionCtx;
  const articleContext = { extractor, settings, origin, ctx };
  const outcome = await fillArticles({
    links: feed.items.map((item, index) => (index < max && item.fillable ? item.link : null)),
    concurrency: feedSettings.concurrency,
    deadlineAt: startedAt + feedSettings.budgetMs,
    ctx,
    fetchArticle: (link) => articleFor(link, articleContext),
  });
  const dropped = dedupe
    ? nearDuplicateItems(feed.items.map((item, index) => ({ article: outcome.articles.get(index) ?? null, teaser: item.teaser })))
    : new Set<number>();
  // The items left in the feed, by what happened to them.
  const left = (status: ItemStatus): number => outcome.statuses.filter((s, index) => s === status && !dropped.has(index)).length;
  if (shape !== undefined) {
    outcome.statuses.forEach((status, index) => {
      if ((shape.onlyFirstMax && index >= max) || (shape.excludeFailed && status !== 'filled')) dropped.add(index);
    });
    if (shape.links !== 'preserve') for (const [index, html] of outcome.articles) outcome.articles.set(index, applyLinkPolicy(html, shape.links));
  }
  for (const index of dropped) outcome.articles.delete(index);
  const xml = spliceArticles(feed, outcome.articles, dropped);
  const body = shape?.json ? JSON.stringify(feedAsJson(xml)) : xml;
  const store = cacheable && outcome.timedOut === 0;
  const etag = await etagFor(body);
  const response = new Response(body, {
    status: 200,
    headers: {
      'content-type': shape?.json ? 'application/json; charset=utf-8' : FEED_CONTENT_TYPE[feed.kind],
      'x-pith-items': itemsHeader(left('filled'), left('kept'), left('timed-out'), dedupe ? dropped.size : null),
      'x-cache': 'MISS',
      'cache-control': store ? `public, max-age=${Math.floor(feedSettings.cacheTtlS)}` : 'no-store',
      etag,
    },
  });
  storeMiss(c.req.raw, ctx, key, response, store ? feedSettings.cacheTtlS : 0);
  return withClientCacheHeaders(response, clientHeaders);
}

/** What follows /feed in the prefix form: the feed URL and its query. */
function feedPathAndQueryOf(c: Context<FeedAppEnv>): string {
  const requestUrl = new URL(c.req.url);
  return (requestUrl.pathname + requestUrl.search).slice('/feed'.length);
}

/** The feed routes, mounted by createApp() before its catch-all prefix route. */
export function feedRoutes(extractor: Extractor): Hono<FeedAppEnv> {
  const app = new Hono<FeedAppEnv>();
  app.use('/v1/feed', access());
  app.use('/feed/*', access((c) => splitFeedPrefix(feedPathAndQueryOf(c), true).options.token));

  app.get('/v1/feed', conditionalGet, async (c) => {
    const params = new URL(c.req.url).searchParams;
    const url = params.get('url') ?? params.get('pith_url');
    if (url === null || url.trim() === '') throw new PithError('invalid_url', 'missing url parameter: GET /v1/feed?url=https://example.com/feed.xml&max=10');
    const dedupe = params.get('dedupe') ?? params.get('pith_dedupe');
    if (dedupe !== null && dedupe !== '' && !FLAG_VALUE.test(dedupe)) {
      throw new PithError('invalid_input', `dedupe "${dedupe.slice(0, 20)}" is not a flag: use dedupe=1 to drop near-duplicate items`);
    }
    return serveFeed(c, extractor, url.trim(), parseOptions(params), params.get('max') ?? params.get('pith_max') ?? undefined, dedupe !== null && TRUE_VALUE.test(dedupe));
  });

  app.get('/feed/*', conditionalGet, async (c) => {
    const pathAndQuery = feedPathAndQueryOf(c);
    if (pathAndQuery === '/' || pathAndQuery === '') {
      throw new PithError('invalid_url', 'no feed URL: use GET /feed/https://example.com/feed.xml or GET /v1/feed?url=...');
    }
    const { target, options, max, dedupe } = splitFeedPrefix(pathAndQuery, settingsOf(c.env).token !== '');
    return serveFeed(c, extractor, target, options, max, dedupe);
  });

  return app;
}
