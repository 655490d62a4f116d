// pith's HTTP surface: the hono app and its routes. Routes parse the request, call the guarded fetch, the
// extractor and the cache, and throw PithError for everything that goes wrong (errors.ts answers them).
//
//   GET  /health                 {"status":"ok","modelVersion":...}
//   GET  /                       a short HTML page with the routes and a form
//   GET  /v1/extract?url=...     JSON by default (format=, nocache=, debug=, token=)
//   POST /v1/extract             text/html body (?url= resolves links) or JSON {html, url}; nothing fetched
//   GET  /parser, /readability, /extract.php, /makefulltextfeed.php   drop-in interfaces (compat/routes.ts)
//   GET  /<target-url>           text/plain by default; options in the query (see options.ts for the rule)

import { Hono, type Context } from 'hono';
import { PithError } from '../../errors.js';
import type { Extraction, Format } from '../../types.js';
import { present, renderOptionsFor, type PresentContext } from '../../core/render/present.js';
import { access } from './access.js';
import { articleKey, storeArticle } from './article-cache.js';
import { cacheKeyFor, conditionalGet, etagFor, serveCached, storeMiss, wantsBypass, withClientCacheHeaders } from './cache.js';
import { settingsOf, type Env, type Settings } from './env.js';
import type { Extractor } from './extractor.js';
import { onError, onNotFound } from './errors.js';
import { htmlCsp } from './csp.js';
import { decodeBody } from '../../io/charset.js';
import { fetchPage } from '../../io/fetch.js';
import { baseUrlOf, readBoundedBody } from './request-body.js';
import { READER_CSP } from '../../core/render/reader.js';
import { sniffBinary } from '../../io/sniff.js';
import { isHtmlMediaType, mediaTypeOf } from '../../io/media-type.js';
import { chooseFormat, wantsReader } from './format.js';
import { checkTarget } from '../../io/guard.js';
import { compatRoutes } from './compat/routes.js';
import { feedRoutes } from './feed/routes.js';
import { INDEX_HTML } from './index-page.js';
import { jobsRoutes } from './jobs/routes.js';
import { parseOptions, splitPrefixTarget, type RequestOptions } from './options.js';

type AppEnv = { Bindings: Env };
type AppContext = Context<AppEnv>;

const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';
/** A reader page runs nothing and loads only https images (core/render/reader.ts). */
const READER_HEADERS = { 'content-security-policy': READER_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } as const;

function nonEmpty(extraction: Extraction): Extraction {
  if (extraction.text.trim() === '') {
    throw new PithError('no_content', 'no main content was found on this page (it may be empty, a login wall or built by JavaScript)');
  }
  return extraction;
}

async function respondRendered(format: Format, extraction: Extraction, context: PresentContext, extraHeaders: Record<string, string>): Promise<Response> {
  const { body, contentType } = present(format, extraction, context);
  const headers = new Headers({ 'content-type': contentType, etag: await etagFor(body), ...extraHeaders, ...(format === 'reader' ? READER_HEADERS : {}) });
  return new Response(body, { status: 200, headers });
}

/** The cached extraction flow shared by GET /v1/extract and the prefix form. */
async function serveTarget(c: AppContext, extractor: Extractor, rawTarget: string, options: RequestOptions, fallback: Format): Promise<Response> {
  const settings = settingsOf(c.env);
  const accept = c.req.header('accept') ?? null;
  // The prefix form opened in a browser reads as a page (format.ts, wantsReader); everything else negotiates.
  const browser = fallback === 'text' && (options.format === undefined || options.format === '') && wantsReader(accept, c.req.header('user-agent') ?? null);
  const format = browser ? 'reader' : chooseFormat(options.format, accept, fallback);
  const target = checkTarget(rawTarget, settings.allowHosts); // 400/403 before anything else
  const modelVersion = extractor.modelVersion;
  const key = cacheKeyFor({ kind: 'extract', target, format, options: options.debug ? { debug: '1' } : {}, modelVersion, limits: settings.limits }, new URL(c.req.url).origin);
  const cacheable = settings.cacheTtlS > 0;

  const clientHeaders = { tokenRequired: settings.token !== '', varyAccept: true };
  const cached = cacheable ? await serveCached(key, wantsBypass(c.req.raw, options.nocache)) : undefined;
  const answer = (response: Response): Response => {
    withClientCacheHeaders(response, clientHeaders);
    if (fallback === 'text') response.headers.set('vary', 'Accept, User-Agent'); // the reader view depends on both
    return response;
  };
  if (cached !== undefined) return answer(cached);

  const page = await fetchPage(target, { ...settings.fetch, allowHosts: settings.allowHosts });
  const extraction = nonEmpty(await extractor.extract(page.html, { url: page.finalUrl, ...renderOptionsFor(format), limits: settings.limits }));
  const response = await respondRendered(
    format,
    extraction,
    { url: page.url, finalUrl: page.finalUrl, encoding: page.encoding, fetchMs: page.fetchMs, blocks: options.debug },
    { 'x-cache': 'MISS', 'cache-control': cacheable ? `public, max-age=${Math.floor(settings.cacheTtlS)}` : 'no-store' },
  );
  // Errors never get here: only a successful, non-empty extraction is stored.
  const stored = storeMiss(c.req.raw, c.executionCtx, key, response, cacheable ? settings.cacheTtlS : 0);
  // the article alone too, for the feed proxy (article-cache.ts)
  if (stored && format === 'html' && !options.debug && extraction.html !== undefined) {
    storeArticle(c.executionCtx, articleKey(target, modelVersion, settings.limits, new URL(c.req.url).origin), extraction.html, settings.cacheTtlS);
  }
  return answer(response);
}

/** Reads a POST /v1/extract body: text/html (charset from header, BOM or <meta>) or JSON {html, url}; bounded (request-body.ts). */
async function readPostedHtml(c: AppContext, settings: Settings): Promise<{ html: string; url?: string }> {
  const contentType = c.req.header('content-type') ?? '';
  const mediaType = mediaTypeOf(contentType);
  const readBody = (): Promise<Uint8Array> => readBoundedBody(c.req.raw, settings);
  const htmlOf = (bytes: Uint8Array, type: string): string => {
    const binary = sniffBinary(bytes);
    if (binary !== null) throw new PithError('not_html', `the posted body is labelled ${mediaType} but holds ${binary}, not HTML`, { mediaType });
    return decodeBody(bytes, type).text;
  };
  const queryUrl = c.req.query('url');
  if (isHtmlMediaType(mediaType)) {
    return { html: htmlOf(await readBody(), contentType), url: queryUrl };
  }
  if (mediaType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(await readBody()));
    } catch (err) {
      if (err instanceof PithError) throw err;
      throw new PithError('invalid_input', 'the body is not valid JSON: send {"html": "<html>...", "url": "https://..."}');
    }
    const record = (parsed ?? {}) as Record<string, unknown>;
    if (typeof record.html !== 'string') throw new PithError('invalid_input', 'the JSON body needs an "html" string: {"html": "<html>...", "url": "https://..."}');
    if (record.url !== undefined && typeof record.url !== 'string') throw new PithError('invalid_input', '"url" must be a string');
    return { html: record.html, url: (record.url as string | undefined) ?? queryUrl };
  }
  throw new PithError('not_html', `POST a text/html body or application/json {"html", "url"}, not ${mediaType === '' ? 'a body without Content-Type' : mediaType}`, { mediaType });
}

/** Path and query of the request as received: the prefix form's target URL and its query. */
function pathAndQueryOf(c: AppContext): string {
  const requestUrl = new URL(c.req.url);
  return requestUrl.pathname + requestUrl.search;
}

/** Builds the app around an extractor (src/hosts/worker/index.ts passes the real one). */
export function createApp(extractor: Extractor): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound(onNotFound);
  app.use('*', htmlCsp); // Content-Security-Policy on every HTML answer (csp.ts)

  app.get('/health', async (c) => {
    await extractor.ready(); // a healthy pith can run its model
    return c.json({ status: 'ok', modelVersion: extractor.modelVersion }, 200, { 'cache-control': 'no-store' });
  });

  app.get('/', (c) => c.html(INDEX_HTML));
  app.get('/robots.txt', (c) => c.text(ROBOTS_TXT));
  app.get('/favicon.ico', () => new Response(null, { status: 204, headers: { 'cache-control': 'public, max-age=86400' } }));

  // Rate limit and token (access.ts) before any work, on every route that extracts, fetches or queues.
  app.use('/v1/extract', access());
  app.get('/v1/extract', conditionalGet, async (c) => {
    const options = parseOptions(new URL(c.req.url).searchParams);
    const url = c.req.query('url') ?? c.req.query('pith_url');
    if (url === undefined || url.trim() === '') throw new PithError('invalid_url', 'missing url parameter: GET /v1/extract?url=https://example.com/article');
    return serveTarget(c, extractor, url.trim(), options, 'json');
  });

  app.post('/v1/extract', async (c) => {
    const settings = settingsOf(c.env);
    const options = parseOptions(new URL(c.req.url).searchParams);
    const format = chooseFormat(options.format, c.req.header('accept') ?? null, 'json');
    const posted = await readPostedHtml(c, settings);
    const url = baseUrlOf(posted.url);
    const extraction = nonEmpty(await extractor.extract(posted.html, { url, ...renderOptionsFor(format), limits: settings.limits }));
    return respondRendered(format, extraction, { url, fetchMs: 0, blocks: options.debug }, { 'cache-control': 'no-store', vary: 'Accept' });
  });

  app.route('/', feedRoutes(extractor)); // GET /v1/feed, GET /feed/<feed-url> (feed/routes.ts)
  app.route('/', jobsRoutes(extractor)); // POST /v1/jobs, GET /v1/jobs/<id>[/results|/duplicates] (jobs/routes.ts)
  // Mercury, Readability-server and Full-Text RSS interfaces (compat/routes.ts), also under /t/<token>/
  const compat = compatRoutes(extractor);
  app.route('/', compat);
  app.route('/t/:token', compat);

  // Unknown API paths are not targets.
  app.all('/v1/*', (c) => onNotFound(c));

  // The prefix form: everything else is a target URL.
  const prefixToken = (c: AppContext): string | undefined => splitPrefixTarget(pathAndQueryOf(c), true).options.token;
  app.get('/*', conditionalGet, access(prefixToken), async (c) => {
    const { target, options } = splitPrefixTarget(pathAndQueryOf(c), settingsOf(c.env).token !== '');
    return serveTarget(c, extractor, target, options, 'text');
  });

  return app;
}
