// Every route, end to end inside workerd, against pages served from 127.0.0.1.

import { describe, expect, it } from 'vitest';
import { call, errorOf, extractPath, page, pageServerPort, uniqueId } from './helpers';

const BLOG_SENTENCE = 'A sourdough starter is a living culture of wild yeasts and lactic acid bacteria';
const NEWS_SENTENCE = 'The city council voted 31 to 12 on Tuesday evening';

interface ExtractJson {
  url: string;
  finalUrl: string;
  title: string | null;
  text: string;
  wordCount: number;
  modelVersion: string;
  timings: Record<string, number>;
  blocks?: Array<{ text: string; label: number; probability: number }>;
  encoding?: string;
}

describe('GET /health', () => {
  it('answers 200 with status and model version', async () => {
    const res = await call('/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; modelVersion: string };
    expect(body.status).toBe('ok');
    expect(typeof body.modelVersion).toBe('string');
    expect(body.modelVersion.length).toBeGreaterThan(0);
  });
});

describe('GET /', () => {
  it('serves the HTML page with a form', async () => {
    const res = await call('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<form');
    expect(html).toContain('/v1/extract');
    expect(html).toContain('/health');
  });

  it('robots.txt keeps crawlers off and favicon.ico is not treated as a target', async () => {
    expect(await (await call('/robots.txt')).text()).toContain('Disallow: /');
    expect((await call('/favicon.ico')).status).toBe(204);
  });
});

describe('GET /v1/extract', () => {
  it('answers JSON with url, final url, title, text, word count, model version and timings', async () => {
    const target = page(`/page/article-blog?v=${uniqueId()}`);
    const res = await call(extractPath(target));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-cache')).toBe('MISS');
    const body = (await res.json()) as ExtractJson;
    expect(body.url).toBe(target);
    expect(body.finalUrl).toBe(target);
    expect(body.title).toContain('Why sourdough needs time');
    expect(body.text).toContain(BLOG_SENTENCE);
    // What must not be there: the sidebar, the ad, the footer.
    for (const boilerplate of ['Rye bread for beginners', 'Feeding your starter', 'Advertisement', 'Privacy']) expect(body.text).not.toContain(boilerplate);
    expect(body.wordCount).toBeGreaterThan(100);
    expect(typeof body.modelVersion).toBe('string');
    // fetchMs is whole milliseconds of the fetch; the extraction's stages follow one another and add up to totalMs;
    // loadMs (waiting for the model: 0 once it has loaded at start) is not a stage
    const { fetchMs, totalMs, domMs, loadMs, ...stages } = body.timings as Record<string, number>;
    expect(Number.isInteger(fetchMs) && fetchMs >= 0).toBe(true);
    expect(loadMs).toBeGreaterThanOrEqual(0);
    expect(Object.keys(stages).sort()).toEqual(['featuresMs', 'metadataMs', 'modelMs', 'pageMs', 'parseMs', 'renderMs', 'viterbiMs']);
    expect(Object.values(stages).reduce((a, b) => a + b, 0)).toBeCloseTo(totalMs, 6);
    expect(domMs).toBeLessThanOrEqual(stages.parseMs);
    expect(body.blocks).toBeUndefined();
  });

  it('reports the final URL after redirects', async () => {
    const body = (await (await call(extractPath(page('/chain/3')))).json()) as ExtractJson;
    expect(body.finalUrl).toBe(page('/page/article-news'));
    expect(body.text).toContain(NEWS_SENTENCE);
    for (const boilerplate of ['We use cookies', 'Bus fares to rise', 'Sign up for our morning briefing', 'Advertise with us']) expect(body.text).not.toContain(boilerplate);
  });

  it('adds the labelled blocks with debug=1', async () => {
    const body = (await (await call(extractPath(page(`/page/article-news?v=${uniqueId()}`), '&debug=1'))).json()) as ExtractJson;
    expect(Array.isArray(body.blocks)).toBe(true);
  });

  it('serves text with format=text and with Accept: text/plain', async () => {
    const viaQuery = await call(extractPath(page('/page/article-news'), '&format=text'));
    expect(viaQuery.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await viaQuery.text()).toContain(NEWS_SENTENCE);
    const viaAccept = await call(extractPath(page('/page/article-news')), { headers: { accept: 'text/plain' } });
    expect(viaAccept.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('needs a url', async () => {
    const res = await call('/v1/extract');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_url');
  });

  it('refuses an unknown format with 400', async () => {
    const res = await call(extractPath(page('/page/article-news'), '&format=pdf'));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_input');
  });
});

describe('POST /v1/extract', () => {
  it('takes a text/html body and fetches nothing', async () => {
    const html = '<html><head><title>Posted</title></head><body><article><p>' + 'A posted paragraph about harbour trams and their timetables. '.repeat(8) + '</p></article></body></html>';
    const res = await call('/v1/extract?url=https://example.com/posted', { method: 'POST', headers: { 'content-type': 'text/html; charset=utf-8' }, body: html });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ExtractJson;
    expect(body.url).toBe('https://example.com/posted');
    expect(body.title).toBe('Posted');
    expect(body.text).toContain('A posted paragraph about harbour trams');
    expect(body.timings.fetchMs).toBe(0);
    expect(res.headers.get('x-cache')).toBeNull();
  });

  it('takes JSON {html, url}', async () => {
    const html = '<html><body><p>' + 'Lighthouse keepers kept careful diaries of weather and ships. '.repeat(8) + '</p></body></html>';
    const res = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ html, url: 'https://example.com/x' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ExtractJson;
    expect(body.url).toBe('https://example.com/x');
    expect(body.text).toContain('Lighthouse keepers kept careful diaries');
  });

  it('decodes a posted windows-1251 body by its charset', async () => {
    // "Привет, мир" in windows-1251, bytes checked by hand against the code page table.
    const greeting = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0];
    // windows-1251 puts А..я (U+0410..U+044F) at 0xC0..0xFF, in order; the sentence below uses only those and ASCII.
    const sentence = ' Это короткий рассказ о старом маяке на берегу холодного моря, где смотритель вёл дневник погоды.';
    const encode = (s: string) => Array.from(s, (ch) => (ch === 'ё' ? 0xb8 : ch.charCodeAt(0) >= 0x410 ? ch.charCodeAt(0) - 0x350 : ch.charCodeAt(0)));
    expect(encode('Привет, мир')).toEqual(greeting);
    const body = [...greeting, ...encode(sentence.repeat(2))];
    const html = new Uint8Array([...new TextEncoder().encode('<html><body><p>'), ...body, ...new TextEncoder().encode('</p></body></html>')]);
    const res = await call('/v1/extract?format=text', { method: 'POST', headers: { 'content-type': 'text/html; charset=windows-1251' }, body: html });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Привет, мир');
    expect(text).toContain('смотритель вёл дневник погоды');
  });

  it('refuses bad bodies with the right status', async () => {
    const notJson = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"html": ' });
    expect(notJson.status).toBe(400);
    const noHtml = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url": "https://example.com/"}' });
    expect(noHtml.status).toBe(400);
    const badUrl = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"html": "<p>x</p>", "url": "not a url"}' });
    expect(badUrl.status).toBe(400);
    expect((await errorOf(badUrl)).code).toBe('invalid_url');
    const image = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'image/png' }, body: new Uint8Array([1, 2, 3]) });
    expect(image.status).toBe(415);
    const empty = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '<html><body></body></html>' });
    expect(empty.status).toBe(422);
    const big = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '<p>' + 'x'.repeat(2000) + '</p>' }, { PITH_MAX_BYTES: '1000' });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe('input_too_large');
  });

  it('passes the parse limits of the PITH_MAX_* variables down to the parser', async () => {
    const post = (vars: Record<string, string>) => call('/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: `<html><head><title>Harbour news</title></head><body><article><h1>The harbour wall is repaired</h1>${Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i + 1}: the council said on Monday that the work on the old harbour wall, begun in spring, finished ${i + 2} days early and under budget.</p>`).join('')}</article></body></html>` }, vars);
    const refused = await post({ PITH_MAX_INPUT_CHARS: '200' });
    expect(refused.status).toBe(413);
    expect((await errorOf(refused)).message).toMatch(/more than limits\.maxInputChars = 200/);
    const whole = await post({});
    expect(whole.status).toBe(200);
    expect(((await whole.json()) as { truncated: boolean }).truncated).toBe(false);
    const cut = await post({ PITH_MAX_BLOCKS: '4' });
    expect(cut.status).toBe(200);
    expect(((await cut.json()) as { truncated: boolean }).truncated).toBe(true);
  });
});

describe('GET /<target-url> (prefix form)', () => {
  it('serves the main content as text/plain by default', async () => {
    const target = `/${page(`/page/article-blog?v=${uniqueId()}`)}`;
    const res = await call(target);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-cache')).toBe('MISS');
    const text = await res.text();
    expect(text).toContain(BLOG_SENTENCE);
    const again = await call(target);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(await again.text()).toBe(text);
  });

  it('gives a browser navigation text, not html', async () => {
    const res = await call(`/${page('/page/article-blog')}`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('keeps the target query string and takes format=json for pith', async () => {
    const id = uniqueId();
    const res = await call(`/${page(`/counted/${id}`)}?a=1&format=json&b=two`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ExtractJson;
    expect(body.url).toBe(page(`/counted/${id}?a=1&b=two`));
  });

  it('a missing scheme means https', async () => {
    // The page server speaks plain HTTP, so an https fetch of it fails upstream: proof the scheme was https.
    const res = await call(`/127.0.0.1:${pageServerPort}/page/article-news?format=json`);
    expect(res.status).toBe(502);
    expect((await errorOf(res)).code).toBe('upstream_error');
    const blocked = await call('/localhost/some/page');
    expect(blocked.status).toBe(403);
    expect((await errorOf(blocked)).message).toContain('localhost');
  });

  it('serves markdown with format=markdown or Accept: text/markdown', async () => {
    const cases: Array<{ query: string; headers: Record<string, string> }> = [{ query: '?format=markdown', headers: {} }, { query: '', headers: { accept: 'text/markdown' } }];
    for (const init of cases) {
      const res = await call(`/${page('/page/article-blog')}${init.query}`, { headers: init.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await res.text()).toContain('lactic acid bacteria');
    }
  });

  it('serves the debug view with format=debug: every block, kept ones marked, as HTML', async () => {
    const res = await call(`/${page('/page/article-blog')}?format=debug&nocache=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const body = await res.text();
    expect(body.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(body).toMatch(/<li class="block kept[^"]*"[^>]*>[\s\S]*?lactic acid bacteria/);
    expect(body).toMatch(/<li class="block dropped/);
    expect(body).not.toContain('<script');
  });

  it('serves a standalone sanitised HTML document with format=html', async () => {
    const res = await call(`/${page('/page/article-blog')}?format=html`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<article>');
    expect(html).toContain('lactic acid bacteria');
    expect(html).not.toContain('<script');
  });

  it('unknown /v1 routes are 404, not targets', async () => {
    const res = await call('/v1/nothing');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
  });
});
