// The reader page on its own: size besides the article, escaping, the headline shown once, both themes.
import { describe, expect, it } from 'vitest';
import { extract } from '../../../src/hosts/node/lib.js';
import { READER_CSP, renderReaderHtml } from '../../../src/core/render/reader.js';
import type { Extraction } from '../../../src/types.js';

const PAGE = `<html lang="en"><head><title>Night trains are back | Rail News</title><meta property="og:site_name" content="Rail News">
<meta name="author" content="Ada &lt;Lovelace&gt;"><meta property="article:published_time" content="2025-03-14T08:00:00Z"></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Night trains are back</h1>
<p>The night train from the capital to the coast runs again from this spring, after a break of twelve years, and tickets sold out within a day.</p>
<p>Operators say the sleeper cars were rebuilt with new compartments, and that more routes are planned for the coming winter season.</p>
<pre><code>timetable --night --from capital --to coast</code></pre>
<p><img src="https://rail.example/sleeper.jpg" alt="A sleeper car"></p></article><footer>© Rail News</footer></body></html>`;

describe('reader view', () => {
  it('is a page with the article, title once, byline, date, site, code, image and the original link', async () => {
    const extraction = await extract(PAGE, { url: 'https://rail.example/night', format: 'reader' });
    const html = extraction.readerHtml!;
    expect(html).toContain('<p class="site">Rail News</p>');
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<span class="byline">Ada &lt;Lovelace&gt;</span>');
    expect(html).toContain('<time datetime="2025-03-14">14 March 2025</time>');
    expect(html).toContain('<a href="https://rail.example/night" rel="noopener noreferrer">Read the original on rail.example</a>');
    expect(html).not.toContain('About');
    expect(html).not.toMatch(/<script|<link |@import|url\(/i);
  });

  it('passes the article through: code, images and tables keep their markup and get styles', () => {
    const article = '<h1>Other headline</h1><p>Text.</p><pre><code>make -j2</code></pre><figure><img src="https://rail.example/a.jpg" alt="A"><figcaption>Caption</figcaption></figure><table><tr><td>1</td></tr></table>';
    const extraction = { text: 'Text.', html: article, title: 'Title', wordCount: 1, blocks: [], metadata: { title: 'Title', author: null, publishedDate: null, modifiedDate: null, language: null, siteName: null, image: null, canonicalUrl: null, description: null, kinds: [] } } as unknown as Extraction;
    const html = renderReaderHtml(extraction);
    expect(html).toContain(`<div class="content">\n${article}\n</div>`); // a different headline stays in the article
    for (const rule of ['pre{', 'img{', 'table{', 'figcaption{', '@media (prefers-color-scheme:dark)']) expect(html).toContain(rule);
    expect(html).not.toContain('Read the original'); // no url, no link
  });

  it('weighs under 20 KB besides the article, and escapes what the page says', () => {
    const extraction = {
      text: 'x', html: '', title: '</title><script>alert(1)</script>', wordCount: 1, blocks: [],
      metadata: { title: null, author: '"><img src=x onerror=alert(1)>', publishedDate: null, modifiedDate: null, language: 'en" onload="x', siteName: null, image: null, canonicalUrl: null, description: null, kinds: [] },
    } as unknown as Extraction;
    const html = renderReaderHtml(extraction, { url: 'https://x.example/"onmouseover="alert(1)' });
    expect(new TextEncoder().encode(html).length).toBeLessThan(20 * 1024);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('"onmouseover="');
    expect(html).toContain('lang="en&quot; onload=&quot;x"');
    expect(READER_CSP).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src https: data:/);
  });
});
