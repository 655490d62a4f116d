// The articles of a feed's items: fetched and extracted through exactly what GET /v1/extract?format=html
// uses (the guarded fetch, the Worker's extractor, the renderer), cached as articles (../article-cache.ts) and
// as html-format answers, so an article costs one extraction whichever route asks first, and polling a feed
// again costs only its new items.
//
// fillArticles() runs them a few at a time under one deadline. When the deadline passes the feed is answered
// with what is done; articles still running go on in waitUntil so they reach the cache for the next poll, and
// no new one starts.

import { PithError } from '../../../errors.js';
import type { Extractor } from '../extractor.js';
import { articleKey, cachedArticle, storeArticle } from '../article-cache.js';
import { cacheKeyFor, cacheStore, etagFor, type WaitUntil } from '../cache.js';
import type { Settings } from '../env.js';
import { fetchPage } from '../../../io/fetch.js';
import { present } from '../../../core/render/present.js';
import { checkTarget } from '../../../io/guard.js';

export interface ArticleContext {
  extractor: Extractor;
  settings: Settings;
  /** Origin of the serving request (cache keys live under it). */
  origin: string;
  ctx: WaitUntil;
}

/**
 * The clean article HTML of `link`, from the extract cache or fetched and extracted (and then cached like
 * GET /v1/extract?format=html would). Null when the page has no main content. Throws PithError for
 * anything the extract route would answer with an error (blocked, upstream error, time-out, not HTML...).
 */
export async function articleFor(link: string, context: ArticleContext): Promise<string | null> {
  const { extractor, settings } = context;
  const target = checkTarget(link, settings.allowHosts);
  const key = articleKey(target, extractor.modelVersion, settings.limits, context.origin);
  const cacheable = settings.cacheTtlS > 0;
  if (cacheable) {
    const hit = await cachedArticle(key);
    if (hit !== undefined) return hit;
  }
  const page = await fetchPage(target, { ...settings.fetch, allowHosts: settings.allowHosts });
  const extraction = await extractor.extract(page.html, { url: page.finalUrl, format: 'html', limits: settings.limits });
  if (extraction.text.trim() === '' || extraction.html === undefined) return null; // never cached, as in the extract route
  if (cacheable) {
    storeArticle(context.ctx, key, extraction.html, settings.cacheTtlS);
    // and the html-format answer, as GET /v1/extract?format=html would have stored it
    const { body, contentType } = present('html', extraction, { url: page.url, finalUrl: page.finalUrl, encoding: page.encoding, fetchMs: page.fetchMs });
    const documentKey = cacheKeyFor({ kind: 'extract', target, format: 'html', options: {}, modelVersion: extractor.modelVersion, limits: settings.limits }, context.origin);
    cacheStore(context.ctx, documentKey, new Response(body, { headers: { 'content-type': contentType, etag: await etagFor(body) } }), settings.cacheTtlS);
  }
  return extraction.html;
}

export interface FillOutcome {
  /** Item index -> article HTML, for the items that got one. */
  articles: Map<number, string>;
  filled: number;
  /** Items that keep their original content: no usable link, failed fetch or extraction, no content, or beyond max. */
  kept: number;
  /** Items whose article was not done (or not started) when the deadline passed. */
  timedOut: number;
  /** What happened to each item, in feed order (the three counts above, per item). */
  statuses: ItemStatus[];
}

export type ItemStatus = 'filled' | 'kept' | 'timed-out';

export interface FillPlan {
  /** Items in feed order: the article link of each, null for items pith leaves alone. */
  links: ReadonlyArray<string | null>;
  /** How many articles run at the same time. */
  concurrency: number;
  /** Date.now() value after which no article starts and the feed is answered. */
  deadlineAt: number;
  ctx: WaitUntil;
  /** Gets one article (articleFor in the server; tests may pass another). */
  fetchArticle: (link: string) => Promise<string | null>;
}

type Result = { done: true; article: string | null } | { done: false };

/** Runs the articles of `plan` and says which items were filled, kept or timed out. */
export async function fillArticles(plan: FillPlan): Promise<FillOutcome> {
  // One job per distinct link: items that share a link share the article.
  const jobs = new Map<string, number[]>();
  plan.links.forEach((link, index) => {
    if (link === null) return;
    const items = jobs.get(link);
    if (items === undefined) jobs.set(link, [index]);
    else items.push(index);
  });
  const queue = [...jobs.keys()];
  const results = new Map<string, Result>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length && Date.now() < plan.deadlineAt) {
      const link = queue[next++];
      results.set(link, { done: false });
      try {
        results.set(link, { done: true, article: await plan.fetchArticle(link) });
      } catch (err) {
        results.set(link, { done: true, article: null });
        if (!(err instanceof PithError) || err.code === 'internal' || err.code === 'model_missing' || err.code === 'model_mismatch') {
          console.error(`pith: feed article ${link.slice(0, 200)} failed`, err);
        }
      }
    }
  };
  const workers = Promise.all(Array.from({ length: Math.max(1, Math.min(plan.concurrency, queue.length)) }, worker));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, plan.deadlineAt - Date.now()));
  });
  await Promise.race([workers, deadline]);
  clearTimeout(timer);
  plan.ctx.waitUntil(workers); // late articles still reach the cache

  // A snapshot taken now: whatever finishes later is not in this answer.
  const outcome: FillOutcome = { articles: new Map(), filled: 0, kept: 0, timedOut: 0, statuses: [] };
  plan.links.forEach((link, index) => {
    const result = link === null ? undefined : results.get(link);
    if (link !== null && (result === undefined || !result.done)) {
      outcome.timedOut++;
      outcome.statuses.push('timed-out');
    } else if (result !== undefined && result.done && result.article !== null) {
      outcome.articles.set(index, result.article);
      outcome.filled++;
      outcome.statuses.push('filled');
    } else {
      outcome.kept++;
      outcome.statuses.push('kept');
    }
  });
  return outcome;
}
