// The drop-in interfaces as their clients call them, inside workerd against pages from the page server on 127.0.0.1.
// Each request is the one the client sends (docs/interfaces/*.md): Tiny Tiny RSS's mercury_fulltext and FreshRSS's
// Readable extension append the article link to "<endpoint>/parser?url=" without encoding it; FreshRSS's
// Readability host gets a JSON POST {"url"}; Full-Text RSS clients send url= encoded, and forms for inputhtml.

import { beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SENTENCE, NEWS_SENTENCE, feedUrl } from '../feed/helpers';
import { baseEnv, call, page, uniqueId } from '../server/helpers';

const MERCURY_FIELDS = ['title', 'content', 'author', 'date_published', 'lead_image_url', 'dek', 'next_page_url', 'url', 'domain', 'excerpt', 'word_count', 'direction', 'total_pages', 'rendered_pages'];
const READABILITY_FIELDS = ['url', 'title', 'content', 'textContent', 'length', 'excerpt', 'byline', 'dir', 'siteName', 'lang', 'publishedTime'];
const FTR_FIELDS = ['title', 'excerpt', 'date', 'author', 'language', 'url', 'effective_url', 'domain', 'word_count', 'og_url', 'og_title', 'og_description', 'og_image', 'og_type', 'twitter_card', 'twitter_site', 'twitter_creator', 'twitter_image', 'twitter_title', 'twitter_description', 'content'];
// What PHP's curl sends with CURLOPT_ENCODING "UTF-8" and no user agent (both plugins).
const PHP_CURL_HEADERS = { accept: '*/*', 'accept-encoding': 'UTF-8' };

beforeAll(async () => {
  expect((await call('/health')).status).toBe(200);
});

describe('Mercury Parser API: GET /parser', () => {
  it("answers Tiny Tiny RSS's request (link appended unencoded, query and all) with Mercury's fields", async () => {
    const link = page(`/page/article-blog?id=${uniqueId()}&ref=rss`);
    const response = await call(`/parser?url=${link}`, { headers: PHP_CURL_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...MERCURY_FIELDS].sort());
    expect(body.url).toBe(link); // the whole link, &ref=rss included
    expect(body.content).toContain(BLOG_SENTENCE);
    expect(body.domain).toBe('127.0.0.1');
    expect(body.direction).toBe('ltr');
    expect(body.total_pages).toBe(1);
    expect(body.next_page_url).toBeNull();
    expect(typeof body.word_count).toBe('number');
    expect(body.word_count as number).toBeGreaterThan(50);
    expect(typeof body.title).toBe('string');
    // the second request is the cached answer
    const again = await call(`/parser?url=${link}`, { headers: PHP_CURL_HEADERS });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(await again.json()).toEqual(body);
  });

  it('contentType=markdown and text, as mercury-parser takes them', async () => {
    const link = encodeURIComponent(page(`/page/article-news?id=${uniqueId()}`));
    const md = (await (await call(`/parser?url=${link}&contentType=markdown`)).json()) as { content: string };
    expect(md.content).toContain(NEWS_SENTENCE);
    expect(md.content).not.toContain('<p>');
    const text = (await (await call(`/parser?url=${link}&contentType=text`)).json()) as { content: string };
    expect(text.content).toContain(NEWS_SENTENCE);
  });

  it("errors in Mercury's shape: {error: true, messages} with pith's status and code", async () => {
    const missing = await call('/parser');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: true, code: 'invalid_url', messages: expect.stringContaining('url') });
    const blocked = await call('/parser?url=http://10.0.0.1/admin');
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toMatchObject({ error: true, code: 'blocked_target' });
    const gone = await call(`/parser?url=${page('/status/404')}`);
    expect(gone.status).toBe(502);
    expect(await gone.json()).toMatchObject({ error: true, code: 'upstream_error' });
  });

  it('takes the token as X-Api-Key, ?token= or a /t/<token>/ base URL, and refuses without it', async () => {
    const vars = { PITH_TOKEN: 'sesame' };
    const link = page(`/page/article-blog?id=${uniqueId()}`);
    const refused = await call(`/parser?url=${link}`, undefined, vars);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: true, code: 'unauthorized' });
    expect((await call(`/t/wrong/parser?url=${link}`, undefined, vars)).status).toBe(401);
    expect((await call(`/t/sesame/parser?url=${link}`, { headers: PHP_CURL_HEADERS }, vars)).status).toBe(200);
    expect((await call(`/parser?url=${link}`, { headers: { 'x-api-key': 'sesame' } }, vars)).status).toBe(200);
    const viaQuery = await call(`/parser?token=sesame&url=${link}`, undefined, vars);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.headers.get('cache-control')).toMatch(/^private/);
  });
});

describe('Readability server: /readability', () => {
  it("answers FreshRSS Readable's POST {\"url\"} with Readability's fields", async () => {
    const link = page(`/page/article-news?id=${uniqueId()}`);
    const response = await call('/readability', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"url": "${link}"}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...READABILITY_FIELDS].sort());
    expect(body.content).toContain(NEWS_SENTENCE);
    expect(body.textContent).toContain(NEWS_SENTENCE);
    expect(body.length).toBe((body.textContent as string).length);
    const viaGet = (await (await call(`/readability?url=${encodeURIComponent(link)}`)).json()) as Record<string, unknown>;
    expect(viaGet.textContent).toBe(body.textContent);
  });

  it('counts a POST once against the rate limit', async () => {
    const vars = { PITH_RATE_LIMITER: baseEnv.TEST_RATE_LIMITER, PITH_RATE_LIMIT_PERIOD_S: '60' };
    const headers = { 'content-type': 'application/json', 'cf-connecting-ip': `readability-${uniqueId()}` };
    const body = JSON.stringify({ url: page('/page/article-news') });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('/readability', { method: 'POST', headers, body }, vars)).status);
    expect(statuses).toEqual([200, 200, 200, 429]); // limit 3 per 60 s in vitest.config.ts
  });

  it('refuses a body without a url, and bad JSON', async () => {
    const noUrl = await call('/readability', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noUrl.status).toBe(400);
    const bad = await call('/readability', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_input');
  });
});

describe('Full-Text RSS: extract.php', () => {
  it("GET url= answers FTR's JSON fields", async () => {
    const link = page(`/page/article-blog?id=${uniqueId()}`);
    const response = await call(`/extract.php?url=${encodeURIComponent(link)}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...FTR_FIELDS].sort());
    expect(body.url).toBe(link);
    expect(body.effective_url).toBe(link);
    expect(body.domain).toBe('127.0.0.1');
    expect(body.content).toContain(BLOG_SENTENCE);
    expect(typeof body.word_count).toBe('number');
  });

  it('POST inputhtml as a form: nothing fetched, links resolved against url; links=remove and content=0', async () => {
    const html = await (await fetch(page('/page/article-news'))).text();
    const form = new URLSearchParams({ inputhtml: html, url: 'https://news.example/tram', links: 'remove' });
    const response = await call('/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.content).toContain(NEWS_SENTENCE);
    expect(body.content).not.toContain('<a ');
    expect(body.domain).toBe('news.example');
    // text in the form is not decoded again by the page's own <meta charset>
    const latin = new URLSearchParams({ inputhtml: `<html><head><meta charset="iso-8859-1"></head><body><article><p>${'Café crème et pâtisserie au coin de la rue, chaque matin à huit heures. '.repeat(4)}</p></article></body></html>` });
    const accents = (await (await call('/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: latin.toString() })).json()) as { content: string };
    expect(accents.content).toContain('Café crème et pâtisserie');
    const multipart = new FormData();
    multipart.set('inputhtml', html);
    multipart.set('content', '0');
    const bare = (await (await call('/extract.php', { method: 'POST', body: multipart })).json()) as Record<string, unknown>;
    expect('content' in bare).toBe(false);
    expect(typeof bare.title).toBe('string');
  });

  it('links=footnotes numbers the links and lists them', async () => {
    const html = '<html><body><article><h1>Notes</h1><p>The council met on Tuesday and the <a href="/vote">vote</a> passed after a long debate about the route of the new line through the old town and its narrow streets.</p><p>Work starts next spring, the mayor said, and the first trams run two years later if the budget holds and the contracts are signed in time.</p></article></body></html>';
    const form = new URLSearchParams({ inputhtml: html, url: 'https://news.example/', links: 'footnotes' });
    const body = (await (await call('/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })).json()) as { content: string };
    expect(body.content).toContain('vote<sup>[1]</sup>');
    expect(body.content).toContain('<li>https://news.example/vote</li>');
  });

  it('refuses what it cannot take: no url, a bad links value, a JSON body', async () => {
    expect((await call('/extract.php')).status).toBe(400);
    expect((await call(`/extract.php?url=${encodeURIComponent(page('/page/article-blog'))}&links=sometimes`)).status).toBe(400);
    expect((await call('/extract.php', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(400);
  });
});

describe('Full-Text RSS: makefulltextfeed.php', () => {
  it('format=json with max: the first max items as JSON, articles filled', async () => {
    const id = uniqueId();
    const response = await call(`/makefulltextfeed.php?url=${encodeURIComponent(feedUrl('rss2.rss', id))}&max=1&format=json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { rss: { channel: { title: string; item: Array<Record<string, unknown>> } } };
    expect(body.rss.channel.title).toBe('The Slow Kitchen & Friends');
    expect(body.rss.channel.item).toHaveLength(1);
    expect(String(body.rss.channel.item[0]['content:encoded'])).toContain(BLOG_SENTENCE);
  });

  it('exc=1 drops the item whose article failed; links=remove strips links; the answer is RSS', async () => {
    const id = uniqueId();
    const response = await call(`/makefulltextfeed.php?url=${encodeURIComponent(feedUrl('rss2.rss', id))}&max=10&exc=1&links=remove`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const xml = await response.text();
    expect(xml).toContain(BLOG_SENTENCE);
    expect(xml).toContain(NEWS_SENTENCE);
    expect(xml).not.toContain('A page that is gone');
    const articles = [...xml.matchAll(/<content:encoded><!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]);
    expect(articles).toHaveLength(2);
    for (const a of articles) expect(a).not.toContain('<a ');
  });

  it('takes the FTR key= as the token', async () => {
    const vars = { PITH_TOKEN: 'sesame' };
    const url = encodeURIComponent(feedUrl('rss2.rss', uniqueId()));
    expect((await call(`/makefulltextfeed.php?url=${url}`, undefined, vars)).status).toBe(401);
    expect((await call(`/makefulltextfeed.php?url=${url}&key=sesame`, undefined, vars)).status).toBe(200);
  });
});
