import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../../src/core/parse/dom.js';
import { extractMetadata } from '../../../src/core/metadata/metadata.js';
import { normaliseDate } from '../../../src/core/metadata/dates.js';
import { detectLanguage, normaliseLanguage } from '../../../src/core/metadata/language.js';

const URL = 'https://www.example.com/news/2024/story.html';
const page = (head: string, body = '', htmlAttrs = '') =>
  `<!DOCTYPE html><html${htmlAttrs}><head>${head}</head><body>${body}</body></html>`;
const meta = (head: string, body = '', htmlAttrs = '', url: string | undefined = URL) =>
  extractMetadata(parseHtmlDocument(page(head, body, htmlAttrs)), { url });

describe('title ladder', () => {
  it('JSON-LD headline first', () => {
    const m = meta(
      '<title>Other | Example</title><meta property="og:title" content="OG title">' +
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"The &amp; headline"}</script>',
    );
    expect(m.title).toBe('The & headline');
  });

  it('JSON-LD in an @graph, in the body', () => {
    const m = meta(
      '<title>x</title>',
      '<script type="application/ld+json">{"@graph":[{"@type":"WebSite","name":"Example News"},{"@type":["BlogPosting"],"headline":"Graph headline","author":[{"@type":"Person","name":"Ann Lee"},{"name":"Bo Chen"}],"datePublished":"2024-03-05T23:30:00-05:00","dateModified":"2024-03-07"}]}</script>',
    );
    expect(m.title).toBe('Graph headline');
    expect(m.author).toBe('Ann Lee, Bo Chen');
    expect(m.publishedDate).toBe('2024-03-05');
    expect(m.modifiedDate).toBe('2024-03-07');
    expect(m.siteName).toBe('Example News');
  });

  it('broken JSON-LD is ignored', () => {
    expect(meta('<title>Fine</title><script type="application/ld+json">{"@type": "Article", headline: oops</script>').title).toBe('Fine');
  });

  it('Open Graph, then Twitter', () => {
    expect(meta('<title>t</title><meta property="og:title" content="OG title">').title).toBe('OG title');
    expect(meta('<title>t</title><meta name="twitter:title" content="Tw title">').title).toBe('Tw title');
  });

  it('<title> without the site-name suffix or prefix', () => {
    expect(meta('<title>How to bake bread | Example</title>').title).toBe('How to bake bread');
    expect(meta('<title>Example News - How to bake bread</title><meta property="og:site_name" content="Example News">').title).toBe(
      'How to bake bread',
    );
    expect(meta('<title>Bread: a guide – Bakers Weekly</title>', '<h1>Bread: a guide</h1>').title).toBe('Bread: a guide');
    // no site-name part found: the title stays whole
    expect(meta('<title>Cats - Dogs - Birds</title>').title).toBe('Cats - Dogs - Birds');
  });

  it('first h1 when there is nothing else', () => {
    expect(meta('', '<header>Site</header><h1> The <em>real</em> headline </h1><h1>second</h1>').title).toBe('The real headline');
  });

  it('null when the page names nothing', () => {
    expect(meta('', '<p>text</p>').title).toBeNull();
  });
});

describe('author ladder', () => {
  it('meta author; article:author URLs are skipped', () => {
    expect(meta('<meta property="article:author" content="https://facebook.com/x"><meta name="author" content="Jane Roe">').author).toBe('Jane Roe');
  });
  it('article:author as a name', () => {
    expect(meta('<meta property="article:author" content="Max Mustermann">').author).toBe('Max Mustermann');
  });
  it('rel=author link', () => {
    expect(meta('', '<p>By <a rel="author" href="/u/k">Kim Park</a></p>').author).toBe('Kim Park');
  });
  it('itemprop=author', () => {
    expect(meta('', '<span itemprop="author" itemscope><span itemprop="name">Lee Wong</span></span>').author).toBe('Lee Wong');
  });
  it('byline class, with "By" and a date stripped', () => {
    expect(meta('', '<div class="post-byline">By Sam Smith | 03/05/2024</div>').author).toBe('Sam Smith');
  });
  it('byline dates with month names: before the name they go, after it they end it', () => {
    expect(meta('', '<div class="author">Jun 2 Written By Polly Barks</div>').author).toBe('Polly Barks');
    expect(meta('', '<div class="byline">Monday, March 3, 2025 at 5:00 PM by Ann Lee</div>').author).toBe('Ann Lee');
    expect(meta('', '<div class="author">B. Diddy Moderator Mar 9, 2012</div>').author).toBe('B. Diddy Moderator');
    expect(meta('', '<div class="byline">Jane Doe, 12 March 2024</div>').author).toBe('Jane Doe');
    // names that only look like dates stay
    expect(meta('<meta name="author" content="May Smith">').author).toBe('May Smith');
    expect(meta('<meta name="author" content="Sat Nam Singh">').author).toBe('Sat Nam Singh');
  });
  it('a byline that is only a date, a time or a label is no author', () => {
    expect(meta('', '<div class="author">Sun Dec 17, 2023 11:23 am</div>').author).toBeNull();
    expect(meta('', '<div class="author">Sat, 20 Dec, 2025 - 06:36</div>').author).toBeNull();
    expect(meta('', '<div class="author">Jun 2 Written By</div>').author).toBeNull();
    expect(meta('', '<div class="byline">By</div>').author).toBeNull();
    expect(meta('', '<div class="comment-author">Jiobal says:</div>').author).toBeNull();
  });
  it('a source that cleans to nothing gives way to the next one', () => {
    expect(meta('<meta name="author" content="August 28, 2025">', '<a rel="author" href="/u/l">Lauren Vetter</a>').author).toBe('Lauren Vetter');
    expect(meta('', '<p>By <a rel="author" href="/u/k">Kim Park</a></p><div class="byline">Jun 2 Written By</div>').author).toBe('Kim Park');
  });
  it('JSON-LD author as a string', () => {
    expect(meta('<script type="application/ld+json">{"@type":"Article","author":"Ida Wells"}</script>').author).toBe('Ida Wells');
  });
});

describe('dates', () => {
  it('article:published_time and modified_time', () => {
    const m = meta('<meta property="article:published_time" content="2023-11-02T08:00:00+00:00"><meta property="article:modified_time" content="2023-11-04">');
    expect(m.publishedDate).toBe('2023-11-02');
    expect(m.modifiedDate).toBe('2023-11-04');
  });
  it('meta date variants', () => {
    expect(meta('<meta name="date" content="2021/07/09">').publishedDate).toBe('2021-07-09');
    expect(meta('<meta name="parsely-pub-date" content="2020-01-31T10:00:00Z">').publishedDate).toBe('2020-01-31');
    expect(meta('<meta name="citation_publication_date" content="2019/05/01">').publishedDate).toBe('2019-05-01');
  });
  it('a date shown as text under a date class, when nothing else names one', () => {
    expect(meta('', '<h1>Tutoring</h1><p class="date">February 9, 2016</p>').publishedDate).toBe('2016-02-09');
    expect(meta('', '<p class="ForefrontArticle_date__0aODL">May 25, 2023</p>').publishedDate).toBe('2023-05-25');
    expect(meta('', '<span class="entry-date display-block"> Published: January 3, 2024 </span>').publishedDate).toBe('2024-01-03');
    // metadata first
    expect(meta('<meta property="article:published_time" content="2020-01-02">', '<p class="date">February 9, 2016</p>').publishedDate).toBe('2020-01-02');
  });
  it('no date from a date class without a year, in a long text, or on a product or listing page', () => {
    expect(meta('', '<p class="date">Jun 2</p>').publishedDate).toBeNull();
    expect(meta('', `<div class="post-date">${'word '.repeat(30)}February 9, 2016</div>`).publishedDate).toBeNull();
    const product = '<script type="application/ld+json">{"@type":"Product","name":"Mug"}</script>';
    expect(meta(product, '<span class="review-date">March 3, 2024</span>').publishedDate).toBeNull();
    expect(meta('', '<p class="sku">Mug</p>').publishedDate).toBeNull();
    // only the first few date-class elements are read: later ones are comments' and items'
    expect(meta('', `${'<span class="time">5 min</span>'.repeat(8)}<p class="date">February 9, 2016</p>`).publishedDate).toBeNull();
    expect(meta('', `${'<span class="time">5 min</span>'.repeat(7)}<p class="date">February 9, 2016</p>`).publishedDate).toBe('2016-02-09');
  });
  it('<time datetime>, preferring the one marked as published', () => {
    expect(meta('', '<time datetime="2022-02-02">Feb 2</time>').publishedDate).toBe('2022-02-02');
    expect(meta('', '<time datetime="2022-01-01">x</time><time class="published" datetime="2022-02-03">y</time>').publishedDate).toBe('2022-02-03');
  });
  it('itemprop datePublished', () => {
    expect(meta('', '<meta itemprop="datePublished" content="2018-08-08">').publishedDate).toBe('2018-08-08');
  });
  it('normaliseDate formats', () => {
    expect(normaliseDate('2024-03-05T23:59:59-08:00')).toBe('2024-03-05');
    expect(normaliseDate('March 5, 2024')).toBe('2024-03-05');
    expect(normaliseDate('Sept. 15th, 2021')).toBe('2021-09-15');
    expect(normaliseDate('5 March 2024')).toBe('2024-03-05');
    expect(normaliseDate('20240305')).toBe('2024-03-05');
    expect(normaliseDate('1709596800')).toBe('2024-03-05');
    expect(normaliseDate('13/05/2024')).toBe('2024-05-13');
    expect(normaliseDate('2024-02-30')).toBeNull();
    expect(normaliseDate('yesterday')).toBeNull();
    expect(normaliseDate('')).toBeNull();
  });
});

describe('language, site, image, canonical, description', () => {
  it('html lang, normalised', () => {
    expect(meta('', '', ' lang="en_us"').language).toBe('en-US');
  });
  it('Content-Language, then og:locale', () => {
    expect(meta('<meta http-equiv="Content-Language" content="de">').language).toBe('de');
    expect(meta('<meta property="og:locale" content="fr_FR">').language).toBe('fr-FR');
  });
  it('detection from the text when the markup names none', () => {
    const m = extractMetadata(parseHtmlDocument(page('', '<p>x</p>')), {
      sampleText: 'Der Hund und die Katze sind nicht mit dem Auto auf der Straße, das ist auch für eine Familie gut.',
    });
    expect(m.language).toBe('de');
    expect(detectLanguage('The cat and the dog are in the garden, and it is warm for this time of the year.')).toBe('en');
    expect(detectLanguage('これは日本語の文章です。漢字とひらがなとカタカナがあります。')).toBe('ja');
    expect(detectLanguage('短')).toBeNull();
    expect(normaliseLanguage('12-ab')).toBeNull();
    expect(normaliseLanguage('EN-gb, fr')).toBe('en-GB');
  });
  it('site name, lead image (absolute), canonical, description', () => {
    const m = meta(
      '<meta property="og:site_name" content="Example">' +
        '<meta property="og:image" content="/img/lead.jpg"><link rel="canonical" href="/news/story">' +
        '<meta name="description" content="  A   short description. ">',
    );
    expect(m.siteName).toBe('Example');
    expect(m.image).toBe('https://www.example.com/img/lead.jpg');
    expect(m.canonicalUrl).toBe('https://www.example.com/news/story');
    expect(m.description).toBe('A short description.');
  });
  it('javascript: images and canonicals are refused', () => {
    const m = meta('<meta property="og:image" content="javascript:alert(1)"><link rel="canonical" href="javascript:alert(1)">');
    expect(m.image).toBeNull();
    expect(m.canonicalUrl).toBeNull();
  });
});

describe('page kinds (what the structured data declares)', () => {
  const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;
  it('none without structured data', () => {
    expect(meta('<title>x</title>', '<p>Hello</p>').kinds).toEqual([]);
  });
  it('JSON-LD types, in an @graph, with a vocabulary URL, as arrays', () => {
    expect(meta(ld('{"@type":"NewsArticle","headline":"h"}')).kinds).toEqual(['article']);
    expect(meta(ld('{"@graph":[{"@type":"WebSite"},{"@type":["https://schema.org/Product"],"name":"Kettle"}]}')).kinds).toEqual(['product']);
    expect(meta(ld('[{"@type":"DiscussionForumPosting"},{"@type":"ItemList"}]')).kinds).toEqual(['discussion', 'listing']);
  });
  it('microdata itemtype in the body and og:type in the head', () => {
    expect(meta('', '<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Kettle</span></div>').kinds).toEqual(['product']);
    expect(meta('<meta property="og:type" content="Article">').kinds).toEqual(['article']);
    expect(meta('<meta property="og:type" content="product.item">').kinds).toEqual(['product']);
    // og:type "website" and types we do not map (Organization, BreadcrumbList) declare nothing
    expect(meta('<meta property="og:type" content="website">', ld('{"@type":["Organization","BreadcrumbList"]}')).kinds).toEqual([]);
  });
  it('a broken JSON-LD block declares nothing and breaks nothing', () => {
    const m = meta('<title>T</title>', ld('{"@type":"Product",'));
    expect(m.kinds).toEqual([]);
    expect(m.title).toBe('T');
  });
});

describe('titles a reader would choose', () => {
  const meta = (html: string) => extractMetadata(parseHtmlDocument(html));

  it('passes over a site-logo h1 (a link home) for the headline h1', () => {
    const html = '<html><head><title>Outside the web: standalone WebAssembly binaries using Emscripten · V8</title></head><body>' +
      '<header><h1><a href="/">V8</a></h1></header><article><h1 itemprop="headline">Outside the web: standalone WebAssembly binaries using Emscripten</h1></article></body></html>';
    expect(meta(html).title).toBe('Outside the web: standalone WebAssembly binaries using Emscripten');
  });

  it('never takes a JSON-LD type label that the title and h1 disagree with', () => {
    const html = '<html><head><title>List of Nobel laureates - Wikipedia</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","name":"List of Nobel laureates","headline":"Wikimedia list article"}</script>' +
      '</head><body><h1>List of Nobel laureates</h1></body></html>';
    expect(meta(html).title).toBe('List of Nobel laureates');
  });

  it('drops a permalink mark after the heading', () => {
    expect(meta('<html><head><title>Quickstart — Flask Documentation</title></head><body><h1>Quickstart<a class="headerlink" href="#q">¶</a></h1></body></html>').title).toBe('Quickstart');
  });

  it('never takes the site name for the title: a logo h1 marked by its class, og:title naming the site', () => {
    const ao3 = '<html><head><title>Conversations with a Cryptid - Chapter 1 - AMournfulHowlInTheNight [Archive of Our Own]</title>' +
      '<meta property="og:site_name" content="Archive of Our Own"></head><body><h1 class="heading"><a href="/" class="logo">Archive of Our Own beta</a></h1></body></html>';
    expect(meta(ao3).title).toBe('Conversations with a Cryptid - Chapter 1'); // the author's name after it is cut as a short last part
    const pixnet = '<html><head><title>新竹尖石_美樹營地賞楓 (2) @ 史蒂文的家_藍天 :: 痞客邦 PIXNET ::</title><meta property="og:title" content="痞客邦 PIXNET">' +
      '<meta property="og:site_name" content="痞客邦 PIXNET"></head><body><p>text</p></body></html>';
    expect(meta(pixnet).title).toBe('新竹尖石_美樹營地賞楓 (2) @ 史蒂文的家_藍天');
  });

  it('but a home page is titled by its site name', () => {
    const html = '<html><head><title>The Verge</title><meta property="og:site_name" content="The Verge"></head><body><h1>The Verge</h1></body></html>';
    expect(extractMetadata(parseHtmlDocument(html), { url: 'https://www.theverge.com/' }).title).toBe('The Verge');
  });

  it('reads Dublin Core in any spelling, space-separated properties, and skips a meta without content', () => {
    const html = '<html><head><title>Title Element</title><meta property="og:description twitter:description">' +
      '<meta property="x:title dc:title" content="My title"><meta name="og:title" content="Open Graph name title"></head><body><p>x</p></body></html>';
    expect(meta(html).title).toBe('My title');
  });

  it("reads Parse.ly's parsely-page JSON and parsely-title", () => {
    const json = '<html><head><meta name="parsely-page" content=\'{"title": "Parsely Headline", "author": "Jane Doe", "pub_date": "2024-04-20T04:20:00Z"}\'></head><body><p>x</p></body></html>';
    const m = meta(json);
    expect([m.title, m.author, m.publishedDate]).toEqual(['Parsely Headline', 'Jane Doe', '2024-04-20']);
    expect(meta('<html><head><meta name="parsely-page" content="{broken"><meta name="parsely-title" content="Some Other Title"></head><body><p>x</p></body></html>').title).toBe('Some Other Title');
  });

  it('drops a bracketed site name and a short last part after a long headline', () => {
    expect(meta('<html><head><title>LWN.net Weekly Edition for March 26, 2015 [LWN.net]</title><meta property="og:site_name" content="LWN.net"></head><body><p>x</p></body></html>').title)
      .toBe('LWN.net Weekly Edition for March 26, 2015');
    expect(meta('<html><head><title>Lorem ipsum dolor sit amet – My website</title></head><body><p>x</p></body></html>').title).toBe('Lorem ipsum dolor sit amet');
    expect(meta('<html><head><title>Pricing – Acme</title></head><body><p>x</p></body></html>').title).toBe('Pricing – Acme');
  });
});
