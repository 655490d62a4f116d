// Drop-in interfaces for the clients people already run, on pith's extraction path, access checks and cache:
//
//   GET  /parser?url=               Mercury Parser API (Tiny Tiny RSS mercury_fulltext, FreshRSS Readable)
//   GET  /readability?url=          a Readability.js server (Readability's fields as JSON)
//   POST /readability  {"url"}      the same, as FreshRSS Readable's "Readability host" sends it
//   GET|POST /extract.php           Full-Text RSS: url or inputhtml; content=, links=, xss=
//   GET  /makefulltextfeed.php      Full-Text RSS feeds: url, max, links, exc, format=json (the feed proxy's route)
//
// Every route also answers under /t/<token>/..., for clients that only append a path to a base URL (the Mercury
// plugins), and takes the token as ?token=, ?key= (Full-Text RSS), X-Api-Key (Mercury) or Authorization: Bearer.
// Contracts: docs/interfaces/{mercury,readability,full-text-rss}.md.

import { Hono, type Context } from 'hono';
import { PithError } from '../../../errors.js';
import type { Extraction, Format } from '../../../types.js';
import { fullTextRssArticleOf } from '../../../core/compat/full-text-rss.js';
import { isLinkPolicy, type LinkPolicy } from '../../../core/compat/links.js';
import { mercuryArticleOf } from '../../../core/compat/mercury.js';
import { readabilityArticleOf } from '../../../core/compat/readability.js';
import { fetchPage } from '../../../io/fetch.js';
import { mediaTypeOf } from '../../../io/media-type.js';
import { checkTarget } from '../../../io/guard.js';
import { sniffBinary } from '../../../io/sniff.js';
import { access } from '../access.js';
import { cacheKeyFor, conditionalGet, etagFor, serveCached, storeMiss, wantsBypass, withClientCacheHeaders } from '../cache.js';
import { settingsOf, type Settings } from '../env.js';
import { errorResponse } from '../errors.js';
import type { Extractor } from '../extractor.js';
import { serveFeed, type FeedEnv } from '../feed/routes.js';
import { TRUE_VALUE } from '../options.js';
import { baseUrlOf, readBoundedBody } from '../request-body.js';

type CompatEnv = { Bindings: FeedEnv };
type CompatContext = Context<CompatEnv>;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Query names each route keeps for itself; any other name after `url=` belongs to an unencoded target URL. */
const MERCURY_NAMES: ReadonlySet<string> = new Set(['contentType', 'headers', 'token', 'nocache']);
const READABILITY_NAMES: ReadonlySet<string> = new Set(['token', 'nocache']);
const FTR_NAMES: ReadonlySet<string> = new Set(['key', 'token', 'content', 'links', 'xss', 'lang', 'max', 'exc', 'format', 'nocache', 'summary', 'html', 'accept', 'inputhtml', 'parser', 'debug', 'callback', 'use_extracted_title', 'l']);

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * The query of a drop-in route: its parameters, and `url` whole even when the client did not percent-encode it
 * (the Mercury plugins append the article link as it is: /parser?url=https://site/a?id=1&page=2). After `url=`,
 * a name the route does not know continues the target URL.
 */
export function compatQuery(search: string, own: ReadonlySet<string>): { url: string | undefined; params: URLSearchParams } {
  const params = new URLSearchParams();
  let url: string | undefined;
  for (const pair of (search.startsWith('?') ? search.slice(1) : search).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    if (url === undefined && name === 'url') url = value;
    else if (url !== undefined && !own.has(name)) url += `&${pair}`;
    else params.append(name, value);
  }
  return { url: url?.trim(), params };
}

/** The token as each client family sends it: ?token=, ?key=, X-Api-Key, /t/<token>/ (Authorization is read by access()). */
function compatToken(c: CompatContext): string | undefined {
  const params = new URL(c.req.url).searchParams;
  return params.get('token') ?? params.get('key') ?? c.req.header('x-api-key') ?? c.req.param('token') ?? undefined;
}

function requiredUrl(url: string | undefined, example: string): string {
  if (url === undefined || url === '') throw new PithError('invalid_url', `missing url parameter: ${example}`);
  return HAS_SCHEME.test(url) ? url : `https://${url}`;
}

function nonEmpty(extraction: Extraction): Extraction {
  if (extraction.text.trim() === '') {
    throw new PithError('no_content', 'no main content was found on this page (it may be empty, a login wall or built by JavaScript)');
  }
  return extraction;
}

interface Fetched {
  extraction: Extraction;
  html: string;
  url: string;
  finalUrl: string;
}

/**
 * Fetch, extract and answer JSON, through the edge cache like GET /v1/extract: `format` names the answer in the
 * cache key, `options` the parameters that change it.
 */
async function serveJson(
  c: CompatContext,
  extractor: Extractor,
  rawTarget: string,
  params: URLSearchParams,
  answer: { format: string; options: Record<string, string>; core: Format; body: (fetched: Fetched) => unknown },
): Promise<Response> {
  const settings = settingsOf(c.env);
  const target = checkTarget(rawTarget, settings.allowHosts); // 400/403 before anything else
  const key = cacheKeyFor({ kind: 'compat', target, format: answer.format, options: answer.options, modelVersion: extractor.modelVersion, limits: settings.limits }, new URL(c.req.url).origin);
  const cacheable = settings.cacheTtlS > 0;
  const clientHeaders = { tokenRequired: settings.token !== '', varyAccept: false };
  const nocache = TRUE_VALUE.test(params.get('nocache') ?? '');
  const cached = cacheable ? await serveCached(key, wantsBypass(c.req.raw, nocache)) : undefined;
  if (cached !== undefined) return withClientCacheHeaders(cached, clientHeaders);

  const page = await fetchPage(target, { ...settings.fetch, allowHosts: settings.allowHosts });
  const extraction = nonEmpty(await extractor.extract(page.html, { url: page.finalUrl, format: answer.core, limits: settings.limits }));
  const body = JSON.stringify(answer.body({ extraction, html: page.html, url: page.url, finalUrl: page.finalUrl }));
  const response = new Response(body, {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      etag: await etagFor(body),
      'x-cache': 'MISS',
      'cache-control': cacheable ? `public, max-age=${Math.floor(settings.cacheTtlS)}` : 'no-store',
    },
  });
  storeMiss(c.req.raw, c.executionCtx, key, response, cacheable ? settings.cacheTtlS : 0);
  return withClientCacheHeaders(response, clientHeaders);
}

/** Mercury's error body, {"error": true, "messages": "..."} with pith's code beside it; status and headers as pith's. */
export async function mercuryErrorResponse(err: unknown): Promise<Response> {
  const base = errorResponse(err);
  const { error } = (await base.json()) as { error: { code: string; message: string } };
  return new Response(JSON.stringify({ error: true, messages: error.message, code: error.code }), { status: base.status, headers: base.headers });
}

const MERCURY_CONTENT_TYPES: Readonly<Record<string, Format>> = { html: 'html', markdown: 'markdown', text: 'text' };

async function serveMercury(c: CompatContext, extractor: Extractor): Promise<Response> {
  const { url, params } = compatQuery(new URL(c.req.url).search, MERCURY_NAMES);
  const contentType = params.get('contentType') ?? 'html';
  const core = MERCURY_CONTENT_TYPES[contentType];
  if (core === undefined) throw new PithError('invalid_input', `contentType "${contentType.slice(0, 40)}" is not html, markdown or text`);
  return serveJson(c, extractor, requiredUrl(url, 'GET /parser?url=https://example.com/article'), params, {
    format: 'mercury',
    options: { contentType },
    core,
    body: ({ extraction, html, finalUrl }) => {
      const article = mercuryArticleOf(extraction, finalUrl, html);
      if (core === 'markdown') article.content = extraction.markdown ?? '';
      else if (core === 'text') article.content = extraction.text;
      return article;
    },
  });
}

async function serveReadability(c: CompatContext, extractor: Extractor, posted: string | undefined): Promise<Response> {
  const { url, params } = compatQuery(new URL(c.req.url).search, READABILITY_NAMES);
  return serveJson(c, extractor, requiredUrl(posted ?? url, 'GET /readability?url=https://example.com/article or POST {"url": "..."}'), params, {
    format: 'readability',
    options: {},
    core: 'html',
    body: ({ extraction, html, finalUrl }) => ({ url: finalUrl, ...readabilityArticleOf(extraction, html) }),
  });
}

/** The url of a POST /readability body: {"url": "..."} (the body is read bounded). */
async function postedReadabilityUrl(c: CompatContext): Promise<string> {
  const settings = settingsOf(c.env);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(await readBoundedBody(c.req.raw, settings)));
  } catch (err) {
    if (err instanceof PithError) throw err;
    throw new PithError('invalid_input', 'the body is not valid JSON: send {"url": "https://example.com/article"}');
  }
  const url = (parsed as Record<string, unknown> | null)?.url;
  if (typeof url !== 'string' || url.trim() === '') throw new PithError('invalid_url', 'the JSON body needs a "url" string: {"url": "https://example.com/article"}');
  return url.trim();
}

/** Full-Text RSS's content= (1 default, 0 none, text/text0..2 plain text) and links= (preserve default). */
function ftrOptions(params: URLSearchParams): { content: 'html' | 'text' | 'none'; links: LinkPolicy } {
  const contentParam = params.get('content') ?? '1';
  const content = contentParam === '0' ? 'none' : contentParam.startsWith('text') ? 'text' : 'html';
  const links = params.get('links') ?? 'preserve';
  if (!isLinkPolicy(links)) throw new PithError('invalid_input', `links "${links.slice(0, 40)}" is not preserve, footnotes or remove`);
  return { content, links };
}

/** extract.php's parameters: the query, then (POST) an urlencoded or multipart form, whose values win as in PHP. */
async function extractPhpParams(c: CompatContext, settings: Settings): Promise<{ url: string | undefined; params: URLSearchParams }> {
  const query = compatQuery(new URL(c.req.url).search, FTR_NAMES);
  if (c.req.method !== 'POST') return query;
  const contentType = c.req.header('content-type') ?? '';
  const mediaType = mediaTypeOf(contentType);
  if (mediaType !== 'application/x-www-form-urlencoded' && mediaType !== 'multipart/form-data') {
    throw new PithError('invalid_input', `POST extract.php as a form (application/x-www-form-urlencoded or multipart/form-data), not ${mediaType || 'a body without Content-Type'}`);
  }
  const bytes = await readBoundedBody(c.req.raw, settings);
  let form: Iterable<[string, string]>;
  if (mediaType === 'multipart/form-data') {
    try {
      const data = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
      form = [...data.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : ''] as [string, string]);
    } catch {
      throw new PithError('invalid_input', 'the multipart form could not be read');
    }
  } else {
    form = new URLSearchParams(new TextDecoder().decode(bytes));
  }
  let url = query.url;
  for (const [name, value] of form) {
    if (name === 'url') url = value.trim();
    else query.params.set(name, value);
  }
  return { url, params: query.params };
}

async function serveExtractPhp(c: CompatContext, extractor: Extractor): Promise<Response> {
  const settings = settingsOf(c.env);
  const { url, params } = await extractPhpParams(c, settings);
  const options = ftrOptions(params);
  const inputHtml = params.get('inputhtml');
  if (inputHtml === null) {
    return serveJson(c, extractor, requiredUrl(url, 'GET /extract.php?url=https://example.com/article'), params, {
      format: 'full-text-rss',
      options: { content: options.content, links: options.links },
      core: 'html',
      body: ({ extraction, url: asked, finalUrl }) => fullTextRssArticleOf(extraction, { ...options, url: asked, effectiveUrl: finalUrl }),
    });
  }
  // Posted HTML: nothing is fetched, url only resolves links; never cached.
  if (inputHtml.length > settings.fetch.maxBytes) {
    throw new PithError('input_too_large', `inputhtml is ${inputHtml.length} characters, more than the ${settings.fetch.maxBytes} pith takes`);
  }
  const binary = sniffBinary(new TextEncoder().encode(inputHtml.slice(0, 1024)));
  if (binary !== null) throw new PithError('not_html', `inputhtml holds ${binary}, not HTML`);
  const base = baseUrlOf(url === undefined || url === '' ? undefined : url);
  // The form's value is already text (forms are UTF-8): a <meta charset> in it must not decode it again.
  const extraction = nonEmpty(await extractor.extract(inputHtml, { url: base, format: 'html', limits: settings.limits }));
  const body = JSON.stringify(fullTextRssArticleOf(extraction, { ...options, url: base ?? null, effectiveUrl: base ?? null }));
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
}

async function serveMakeFullTextFeed(c: CompatContext, extractor: Extractor): Promise<Response> {
  const { url, params } = compatQuery(new URL(c.req.url).search, FTR_NAMES);
  const { links } = ftrOptions(params);
  const format = params.get('format') ?? 'rss';
  if (format !== 'rss' && format !== 'json') throw new PithError('invalid_input', `format "${format.slice(0, 40)}" is not rss or json`);
  const target = requiredUrl(url?.replace(/^feed:\/\//i, 'http://'), 'GET /makefulltextfeed.php?url=https://example.com/feed.xml&max=10');
  const options = { nocache: TRUE_VALUE.test(params.get('nocache') ?? ''), debug: false, token: compatToken(c) };
  return serveFeed(c, extractor, target, options, params.get('max') ?? undefined, false, {
    onlyFirstMax: true,
    excludeFailed: params.get('exc') === '1',
    links,
    json: format === 'json',
  });
}

/**
 * The drop-in routes; createApp() mounts them at / and at /t/:token, before its catch-all prefix route. The token
 * and rate limit are the access() middleware of every route, run before a body is read; Mercury's route answers
 * every error, the middleware's too, in Mercury's shape.
 */
export function compatRoutes(extractor: Extractor): Hono<CompatEnv> {
  const app = new Hono<CompatEnv>();
  const checked = access<CompatEnv>(compatToken);
  const mercury = new Hono<CompatEnv>();
  mercury.onError((err) => mercuryErrorResponse(err));
  mercury.get('/parser', conditionalGet, checked, (c) => serveMercury(c, extractor));
  app.route('/', mercury);
  for (const path of ['/readability', '/extract.php', '/makefulltextfeed.php']) app.use(path, checked);
  app.get('/readability', conditionalGet, (c) => serveReadability(c, extractor, undefined));
  app.post('/readability', async (c) => serveReadability(c, extractor, await postedReadabilityUrl(c)));
  app.get('/extract.php', conditionalGet, (c) => serveExtractPhp(c, extractor));
  app.post('/extract.php', (c) => serveExtractPhp(c, extractor));
  app.get('/makefulltextfeed.php', conditionalGet, (c) => serveMakeFullTextFeed(c, extractor));
  return app;
}
