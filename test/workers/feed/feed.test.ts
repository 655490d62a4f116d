// The full-text feed proxy end to end, inside workerd: feeds and articles come from the page server on
// 127.0.0.1 (test/workers/global-setup.ts, fixtures in test/fixtures/feeds/), articles go through the real
// model. Every answer is checked to be well-formed XML with the proxy's own parser.

import { beforeAll, describe, expect, it } from 'vitest';
import { errorOf, extractPath } from '../server/helpers';
import { BLOG_SENTENCE, NEWS_SENTENCE, call, feedPath, feedUrl, itemsOf, original, page, parseXml, textOf, timedCall, uniqueId } from './helpers';

// Inserted (or replaced) article elements, with the line break and indentation an insertion adds.
const ARTICLE_ELEMENT = /\n[ \t]*<content:encoded><!\[CDATA\[[\s\S]*?\]\]><\/content:encoded>/g;

beforeAll(async () => {
  // Start the model once, so that time budgets below measure fetching, not the ONNX session start.
  expect((await call('/health')).status).toBe(200);
});

describe('RSS 2.0', () => {
  it('fills items with the clean article, keeps the teaser of a missing one, keeps order and guids', async () => {
    const id = uniqueId();
    const response = await call(feedPath(feedUrl('rss2.rss', id)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(response.headers.get('x-cache')).toBe('MISS');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(itemsOf(response)).toEqual({ filled: 2, kept: 1, timedOut: 0 });
    const xml = await response.text();
    const rss = parseXml(xml).rss;
    expect(rss['@_xmlns:content']).toBe('http://purl.org/rss/1.0/modules/content/'); // declared because it was missing
    expect(rss['@_xmlns:atom']).toBe('http://www.w3.org/2005/Atom');
    expect(rss.channel.title).toBe('The Slow Kitchen & Friends');
    const items = rss.channel.item as Array<Record<string, any>>;
    expect(items.map((item) => textOf(item.guid))).toEqual([`rss2-${id}-1`, `rss2-${id}-2`, `rss2-${id}-3`]);

    const [blog, gone, news] = items;
    expect(blog.description).toBe('Teaser one: a sourdough starter is a living culture.');
    expect(blog.enclosure['@_url']).toBe(page('/audio/sourdough.mp3'));
    expect(blog.author).toBe('marta@example.com (Marta Lindqvist)');
    expect(blog['content:encoded']).toHaveLength(1);
    const article = blog['content:encoded'][0] as string;
    expect(article).toContain(BLOG_SENTENCE);
    expect(article).toMatch(/<p\b/); // HTML paragraphs
    expect(article).not.toContain('Newsletter'); // navigation is boilerplate
    expect(article).not.toContain('dataLayer'); // scripts never come through

    expect(gone['content:encoded']).toBeUndefined();
    expect(gone.description).toBe('Teaser two: this article no longer exists.');

    expect(news['content:encoded'][0]).toContain(NEWS_SENTENCE);
    expect(news['content:encoded'][0]).not.toContain('We use cookies');
    expect(news.description).toBe('Teaser three: the council voted 31 to 12.');
  });

  it('everything but the inserted elements and the namespace declaration is the feed as received', async () => {
    const id = uniqueId();
    const url = feedUrl('rss2.rss', id);
    const xml = await (await call(feedPath(url))).text();
    const withoutArticles = xml.replace(ARTICLE_ELEMENT, '').replace(' xmlns:content="http://purl.org/rss/1.0/modules/content/"', '');
    expect(withoutArticles).toBe(await original(url));
  });
});

describe('Atom', () => {
  it('adds <content type="html">, keeps summaries, replaces teaser content, leaves out-of-line content alone', async () => {
    const id = uniqueId();
    const url = feedUrl('atom.atom', id);
    const response = await call(feedPath(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(itemsOf(response)).toEqual({ filled: 2, kept: 1, timedOut: 0 });
    const xml = await response.text();
    const feed = parseXml(xml).feed;
    const entries = feed.entry as Array<Record<string, any>>;
    expect(entries.map((e) => e.id)).toEqual([`tag:example.com,2025:atom-${id}-1`, `tag:example.com,2025:atom-${id}-2`, `tag:example.com,2025:atom-${id}-3`]);

    const [blog, news, podcast] = entries;
    expect(blog.summary).toBe('Summary one: a sourdough starter is a living culture.');
    expect(blog.content).toHaveLength(1);
    expect(blog.content[0]['@_type']).toBe('html');
    expect(textOf(blog.content[0])).toContain(BLOG_SENTENCE);
    expect(blog.link).toHaveLength(2); // the enclosure link is kept

    // A relative link is resolved against the feed's URL; the teaser content is replaced, the summary kept.
    expect(news.summary).toBe('Summary two: the council voted.');
    expect(news.content).toHaveLength(1);
    expect(news.content[0]['@_type']).toBe('html');
    expect(textOf(news.content[0])).toContain(NEWS_SENTENCE);
    expect(xml).not.toContain('Content two: only a teaser');

    expect(podcast.content[0]['@_src']).toBe(page('/audio/three.mp3'));
    expect(xml).toContain(`<content type="audio/mpeg" src="${page('/audio/three.mp3')}"/>`);
    expect(feed['@_xml:lang']).toBe('en');
  });
});

describe('RSS 1.0 (RDF)', () => {
  it('fills items (link from <link> or rdf:about) and declares the content namespace', async () => {
    const id = uniqueId();
    const response = await call(feedPath(feedUrl('rdf.rdf', id)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/rdf+xml; charset=utf-8');
    expect(itemsOf(response)).toEqual({ filled: 2, kept: 0, timedOut: 0 });
    const rdf = parseXml(await response.text())['rdf:RDF'];
    expect(rdf['@_xmlns:content']).toBe('http://purl.org/rss/1.0/modules/content/');
    expect(rdf.channel.items['rdf:Seq']['rdf:li']).toHaveLength(2);
    const items = rdf.item as Array<Record<string, any>>;
    expect(items.map((item) => item['@_rdf:about'])).toEqual([page(`/page/article-news?id=${id}`), page(`/page/article-blog?id=${id}`)]);
    expect(items[0]['content:encoded'][0]).toContain(NEWS_SENTENCE);
    expect(items[0]['dc:creator']).toBe('Jonas Keller');
    expect(items[1]['content:encoded'][0]).toContain(BLOG_SENTENCE);
    expect(items[1].description).toBe('RDF teaser two: the link is only in rdf:about.');
  });
});

describe('fidelity', () => {
  it('CDATA, entities, a DOCTYPE, comments, processing instructions and extra namespaces survive byte for byte', async () => {
    const id = uniqueId();
    const url = feedUrl('rich.rss', id);
    const response = await call(feedPath(url));
    expect(response.status).toBe(200);
    expect(itemsOf(response)).toEqual({ filled: 3, kept: 0, timedOut: 0 });
    const xml = await response.text();
    const source = await original(url);
    // Only the article elements differ (the second item's old content:encoded was replaced).
    expect(xml.replace(ARTICLE_ELEMENT, '')).toBe(source.replace(ARTICLE_ELEMENT, ''));
    expect(xml).not.toContain('An old teaser body that pith replaces');
    expect(xml).toContain('<!-- <item><title>commented-out item</title></item> -->');
    expect(xml).toContain('<![CDATA[<p>Teaser with a literal </item> and </channel> inside CDATA.</p>]]>');

    const rss = parseXml(xml).rss;
    const items = rss.channel.item as Array<Record<string, any>>;
    expect(items).toHaveLength(3);
    expect(items.map((item) => textOf(item.guid))).toEqual([page(`/guid/${id}/1`), `rich-${id}-2`, `rich-${id}-3`]);
    expect(items[0].title).toBe('Sourdough: "time" & <patience>');
    expect(items[0]['itunes:duration']).toBe('00:42:17');
    expect(items[0]['media:content']['@_url']).toBe(page('/media/1.jpg'));
    expect(items[0]['dc:creator']).toBe('Marta Lindqvist');
    expect(items[1].title).toBe('Tram line – café owners worried');
    expect(items[2].title).toBe('Ünïcödé and emoji 🍞');
    for (const item of items) expect(item['content:encoded']).toHaveLength(1);
    expect(items[0]['content:encoded'][0]).toContain(BLOG_SENTENCE);
    expect(items[1]['content:encoded'][0]).toContain(NEWS_SENTENCE);
    expect(rss.channel['itunes:author']).toBe('Marta Lindqvist');
  });

  it('links are read with entities and CDATA decoded (the article lands in the extract cache under that URL)', async () => {
    const id = uniqueId();
    await call(feedPath(feedUrl('rich.rss', id)));
    const viaEntity = await call(extractPath(page(`/page/article-blog?id=${id}&x=1`), '&format=html'));
    expect(viaEntity.headers.get('x-cache')).toBe('HIT');
    const viaCdata = await call(extractPath(page(`/page/article-news?id=${id}&y=2`), '&format=html'));
    expect(viaCdata.headers.get('x-cache')).toBe('HIT');
  });

  it('a Latin-1 feed comes out as UTF-8 with its declaration saying so', async () => {
    const id = uniqueId();
    const response = await call(feedPath(feedUrl('latin1.rss', id)));
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const rss = parseXml(xml).rss;
    expect(rss.channel.title).toBe('Café crème à la française');
    expect(rss.channel.item[0].title).toBe('Crème brûlée');
    expect(rss.channel.item[0]['content:encoded'][0]).toContain(BLOG_SENTENCE);
  });

  it('a feed served as text/html is still read as a feed', async () => {
    const response = await call(feedPath(feedUrl('rss2.rss', uniqueId(), 'text/html; charset=utf-8')));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  });
});

describe('limits', () => {
  it('a 100-item feed: only the first max items are filled, all 100 are kept in order', async () => {
    const id = uniqueId();
    const response = await call(feedPath(feedUrl('many.rss', id), '&max=3'));
    expect(response.status).toBe(200);
    expect(itemsOf(response)).toEqual({ filled: 3, kept: 97, timedOut: 0 });
    const items = parseXml(await response.text()).rss.channel.item as Array<Record<string, any>>;
    expect(items.map((item) => textOf(item.guid))).toEqual(Array.from({ length: 100 }, (_, i) => `many-${id}-${i + 1}`));
    expect(items.slice(0, 3).every((item) => item['content:encoded'] !== undefined)).toBe(true);
    expect(items.slice(3).every((item) => item['content:encoded'] === undefined)).toBe(true);
  });

  it('max defaults to 10 and is capped at 50', async () => {
    const id = uniqueId();
    expect(itemsOf(await call(feedPath(feedUrl('many.rss', id))))).toEqual({ filled: 10, kept: 90, timedOut: 0 });
    // Items 1-10 now come from the extract cache; the cap fills 50.
    expect(itemsOf(await call(feedPath(feedUrl('many.rss', id), '&max=5000')))).toEqual({ filled: 50, kept: 50, timedOut: 0 });
  });

  it('max=0 passes the feed through unchanged', async () => {
    const url = feedUrl('rss2.rss', uniqueId());
    const response = await call(feedPath(url, '&max=0'));
    expect(itemsOf(response)).toEqual({ filled: 0, kept: 3, timedOut: 0 });
    expect(await response.text()).toBe(await original(url));
  });

  it('max must be a number', async () => {
    const response = await call(feedPath(feedUrl('rss2.rss', uniqueId()), '&max=all'));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_input');
  });

  it('an article slower than the time budget: the feed answers in time, that item keeps its teaser', async () => {
    const id = uniqueId();
    const { response, answeredMs } = await timedCall(feedPath(feedUrl('budget.rss', id)), { PITH_FEED_BUDGET_MS: '2500', PITH_FETCH_TIMEOUT_MS: '4000' });
    expect(response.status).toBe(200);
    expect(answeredMs).toBeGreaterThanOrEqual(2400);
    expect(answeredMs).toBeLessThan(3500);
    expect(itemsOf(response)).toEqual({ filled: 1, kept: 0, timedOut: 1 });
    expect(response.headers.get('cache-control')).toBe('no-store'); // a partial answer is not cached
    const items = parseXml(await response.text()).rss.channel.item as Array<Record<string, any>>;
    expect(items[0]['content:encoded']).toBeUndefined();
    expect(items[0].description).toBe('Slow teaser.');
    expect(items[1]['content:encoded'][0]).toContain(NEWS_SENTENCE);
  });

  it('articles not started when the budget runs out count as timed out', async () => {
    const id = uniqueId();
    const { response, answeredMs } = await timedCall(feedPath(feedUrl('budget.rss', id)), {
      PITH_FEED_BUDGET_MS: '1500',
      PITH_FETCH_TIMEOUT_MS: '3000',
      PITH_FEED_CONCURRENCY: '1',
    });
    expect(response.status).toBe(200);
    expect(answeredMs).toBeLessThan(2500);
    expect(itemsOf(response)).toEqual({ filled: 0, kept: 0, timedOut: 2 });
    const items = parseXml(await response.text()).rss.channel.item as Array<Record<string, any>>;
    expect(items.every((item) => item['content:encoded'] === undefined)).toBe(true);
  });

  it('item links to private addresses, localhost or other schemes are never fetched and keep their teaser', async () => {
    const response = await call(feedPath(feedUrl('ssrf.rss', uniqueId())));
    expect(response.status).toBe(200);
    expect(itemsOf(response)).toEqual({ filled: 1, kept: 3, timedOut: 0 });
    const items = parseXml(await response.text()).rss.channel.item as Array<Record<string, any>>;
    expect(items.map((item) => item['content:encoded'] !== undefined)).toEqual([false, false, false, true]);
  });
});

describe('not a feed', () => {
  it('an HTML page is 415 not_a_feed', async () => {
    const response = await call(feedPath(page('/page/article-news')));
    expect(response.status).toBe(415);
    const error = await errorOf(response);
    expect(error.code).toBe('not_a_feed');
    expect(error.message).toContain('HTML page');
  });

  it('JSON is 415 not_a_feed, also when served as text/plain', async () => {
    const asJson = await call(feedPath(feedUrl('feed.json', uniqueId())));
    expect(asJson.status).toBe(415);
    expect((await errorOf(asJson)).code).toBe('not_a_feed');
    const asText = await call(feedPath(feedUrl('feed.json', uniqueId(), 'text/plain')));
    expect(asText.status).toBe(415);
    expect((await errorOf(asText)).message).toContain('JSON');
  });

  it('XML that is not a feed (a sitemap) is 415 not_a_feed', async () => {
    const response = await call(feedPath(feedUrl('sitemap.xml', uniqueId())));
    expect(response.status).toBe(415);
    expect((await errorOf(response)).message).toContain('<urlset>');
  });

  it('an image is 415 not_a_feed before its body is read', async () => {
    const response = await call(feedPath(page('/image.png')));
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('not_a_feed');
  });

  it('broken XML is 422 invalid_feed', async () => {
    const response = await call(feedPath(feedUrl('broken.rss', uniqueId())));
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_feed');
    expect(error.message).toMatch(/line \d+/);
  });

  it('the feed fetch has the extract routes\' errors: upstream 404 is 502, a private feed URL 403, no url 400', async () => {
    const missing = await call(feedPath(page('/feeds/nothing.rss')));
    expect(missing.status).toBe(502);
    expect(missing.headers.get('x-upstream-status')).toBe('404');
    expect((await call(feedPath('http://10.0.0.1/feed.xml'))).status).toBe(403);
    expect((await call('/v1/feed')).status).toBe(400);
    expect((await call('/feed/')).status).toBe(400);
  });
});

describe('cache', () => {
  it('the feed answer is cached: MISS then HIT with the same body and X-Pith-Items', async () => {
    const url = feedUrl('rss2.rss', uniqueId());
    const first = await call(feedPath(url));
    expect(first.headers.get('x-cache')).toBe('MISS');
    const body = await first.text();
    const second = await call(feedPath(url));
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(second.headers.get('x-pith-items')).toBe(first.headers.get('x-pith-items'));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await second.text()).toBe(body);
    // max is part of the key
    expect((await call(feedPath(url, '&max=1'))).headers.get('x-cache')).toBe('MISS');
  });

  it('If-None-Match with the ETag is 304', async () => {
    const url = feedUrl('rdf.rdf', uniqueId());
    const etag = (await call(feedPath(url))).headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await call(feedPath(url), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('polling again re-reads the feed (nocache=1) but not the articles: they come from the extract cache', async () => {
    const id = uniqueId();
    const url = feedUrl('rss2.rss', id);
    const hits = async (): Promise<number> => Number(await (await fetch(page(`/hits/${id}-blog`))).text());
    expect(itemsOf(await call(feedPath(url)))).toEqual({ filled: 2, kept: 1, timedOut: 0 });
    expect(await hits()).toBe(1);
    const again = await call(feedPath(url, '&nocache=1'));
    expect(again.headers.get('x-cache')).toBe('MISS');
    expect(itemsOf(again)).toEqual({ filled: 2, kept: 1, timedOut: 0 });
    expect(await hits()).toBe(1);
    // and the extract route sees the same entry
    expect((await call(extractPath(page(`/counted/${id}-blog`), '&format=html'))).headers.get('x-cache')).toBe('HIT');
  });

  it('an article first extracted by /v1/extract?format=html is reused by the feed', async () => {
    const id = uniqueId();
    expect((await call(extractPath(page(`/counted/${id}-blog`), '&format=html'))).headers.get('x-cache')).toBe('MISS');
    await call(feedPath(feedUrl('rss2.rss', id)));
    expect(Number(await (await fetch(page(`/hits/${id}-blog`))).text())).toBe(1);
  });
});

describe('prefix form', () => {
  it('GET /feed/<feed-url>?max=1 keeps the feed\'s own query and shares the cache with /v1/feed', async () => {
    const id = uniqueId();
    const url = feedUrl('rss2.rss', id);
    const response = await call(`/feed/${url}&max=1`);
    expect(response.status).toBe(200);
    expect(itemsOf(response)).toEqual({ filled: 1, kept: 2, timedOut: 0 });
    const guids = (parseXml(await response.text()).rss.channel.item as Array<Record<string, any>>).map((item) => textOf(item.guid));
    expect(guids[0]).toBe(`rss2-${id}-1`); // ?id= reached the page server
    expect((await call(feedPath(url, '&max=1'))).headers.get('x-cache')).toBe('HIT');
  });

  it('pith_max always belongs to pith', async () => {
    const response = await call(`/feed/${feedUrl('many.rss', uniqueId())}&pith_max=2`);
    expect(itemsOf(response)).toEqual({ filled: 2, kept: 98, timedOut: 0 });
  });
});
