// The reader view in workerd: a browser opening the clean-text URL gets a page to read, under a strict CSP;
// anything else keeps its text.

import { describe, expect, it } from 'vitest';
import { READER_CSP } from '../../../src/core/render/reader';
import { BLOG_SENTENCE } from '../feed/helpers';
import { call, extractPath, page, uniqueId } from '../server/helpers';

const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('reader view', () => {
  it('a browser opening /<url> gets the reader page, with READER_CSP and no script', async () => {
    const target = page(`/page/article-blog?id=${uniqueId()}`);
    const res = await call(`/${target}`, { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(READER_CSP);
    expect(res.headers.get('vary')).toBe('Accept, User-Agent');
    const html = await res.text();
    expect(html).toMatch(/<article>[\s\S]*<h1>[\s\S]*<\/article>/);
    expect(html).toContain(BLOG_SENTENCE);
    expect(html).toContain(`href="${target}"`);
    expect(html).toContain('prefers-color-scheme:dark');
    expect(html).not.toMatch(/<script/i);
    // the same page again comes from the cache, with its CSP
    const again = await call(`/${target}`, { headers: BROWSER });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('content-security-policy')).toBe(READER_CSP);
  });

  it('?format=reader asks for it anywhere; curl and a browser without a User-Agent keep text', async () => {
    const target = page(`/page/article-news?id=${uniqueId()}`);
    const asked = await call(`${extractPath(target)}&format=reader`);
    expect(asked.headers.get('content-security-policy')).toBe(READER_CSP);
    expect(await asked.text()).toContain('<article>');
    const curl = await call(`/${target}`, { headers: { accept: '*/*', 'user-agent': 'curl/8.5.0' } });
    expect(curl.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const curlHtml = await call(`/${target}`, { headers: { accept: 'text/html', 'user-agent': 'curl/8.5.0' } });
    expect(curlHtml.headers.get('content-security-policy')).not.toBe(READER_CSP); // the html format, negotiated, not the reader
    expect(await curlHtml.text()).not.toContain('class="site"');
    const crawler = await call(`/${target}`, { headers: { ...BROWSER, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0 Safari/537.36' } });
    expect(crawler.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const json = await call(`/${target}&format=json`, { headers: BROWSER });
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});
