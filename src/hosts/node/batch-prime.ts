// A `pith batch` worker's warm-up: before its first page, the worker extracts a small built-in page of rare markup
// (and three edge pages: no blocks, one block, content only in <noscript>) a few times, so that V8 has seen every
// branch of the pipeline before TurboFan optimises it: fewer deoptimisations and recompiles on real pages (measured:
// docs/bulk.md, CHANGELOG.md). It changes speed, not results: test/node/bulk/prime.test.ts.

import { extract } from './lib.js';
import type { FeatureSetName, Format } from '../../types.js';

const PARAGRAPH =
  'Residents gathered on Tuesday &amp; Wednesday to discuss the new library&#8217;s opening hours, which the council ' +
  'set after a survey of 1,204 households &mdash; &#x201C;a clear majority&#x201D; asked for evenings. Café owners ' +
  'nearby said trade rose 12% (see <a href="/report.pdf">the report</a>, <a href="https://example.org/a?b=1&amp;c=2">' +
  'the data</a>). 東京の図書館は午後九時まで開いています。Ünïcödé, naïve, résumé, Ελληνικά, русский, עברית, العربية. ' +
  'Emoji 🙂👍🏽 and combining a\u0301e\u0300 marks; non-breaking\u00a0spaces\u2003and\u3000ideographic space.';

const LIST_ITEM = (i: number): string =>
  `<li class="item item-${i}\u00a0odd&amp;x"><a href="/topic/${i}" title='Topic ${i}'>Topic ${i}</a> <span>(${i * 7})</span></li>`;

function deep(depth: number, inner: string): string {
  return depth === 0 ? inner : `<div class="wrap d${depth}">${deep(depth - 1, inner)}</div>`;
}

const PRIME_URL = 'https://news.example.com/2026/03/library-hours';

/** The warm-up page. */
export const PRIME_PAGE = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<!-- a comment --><!----><!--- odd -- comment --->
<HTML LANG="en-GB" dir=ltr>
<HEAD>
<META CHARSET="utf-8">
<meta name="viewport" content="width=device-width">
<title>Library  opens late &amp; early | The Daily Example</title>
<meta property="og:title" content="Library opens late &amp; early">
<meta property="og:description" content="The council set new hours after a survey.">
<meta property="og:site_name" content="The Daily Example">
<meta property="article:published_time" content="2026-03-14T09:30:00+01:00">
<meta name="author" content="Jane Q. Reporter">
<meta name="description" content='Single "quoted"  description,	spaced'>
<link rel="canonical" href="https://news.example.com/2026/03/library-hours">
<style>body { color: #333 } a[href^="</"] { x: "</style" }</style>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle",
"headline":"Library opens late","datePublished":"2026-03-14","author":[{"@type":"Person","name":"Jane Q. Reporter"}],
"publisher":{"@type":"Organization","name":"The Daily Example"}},{"@type":"BreadcrumbList","itemListElement":[]}]}</script>
<script>var s = "<div>" + '</scr' + 'ipt>'; if (a < b && c > d) { document.write("<p>x</p>"); }</script>
<noscript><img src="/pixel.gif" alt=""></noscript>
</HEAD>
<body class="page  article\ttemplate-news&#32;x" onload=init()>
<header id=top><nav aria-label="Main"><ul>${[1, 2, 3, 4, 5, 6].map(LIST_ITEM).join('')}</ul></nav>
<form action="/search" method=get><input type=text name=q value="" placeholder='Search…'><select name=s><option selected>All
<option>News<optgroup label=x><option>Sport</select><button type=submit disabled>Go</button><textarea>a </textarea
> b</textarea></form></header>
<div class="cookie-banner" style="display:none" hidden aria-hidden="true">We use cookies. <a href="#">OK</a></div>
<main>
<article itemscope itemtype="https://schema.org/NewsArticle">
<h1 itemprop="headline">Library opens late &amp; early</h1>
<meta itemprop="datePublished" content="2026-03-14"><span itemprop="dateModified">15 March 2026</span>
<span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jane Q. Reporter</span></span>
<noscript><p>Enable JavaScript to see the interactive map of the library.</p></noscript>
<p class="byline">By <a rel="author" href="/staff/jane">Jane Q. Reporter</a>, <time datetime="2026-03-14">14 March 2026</time>
· Updated 5 minutes ago · 14/03/2026 · 2026-03-14 · März 14 · 2026年3月14日</p>
<figure><img src="/img/library.jpg" srcset="/img/l.jpg 2x" alt="The library at dusk" width=640 height=480>
<img data-srcset="/img/a.jpg 320w,
	/img/b.jpg 640w, /img/(c).jpg 1280w" src="data:image/gif;base64,R0lGOD" alt="">
<picture><source srcset="/img/d.webp	1.5x, /img/e.webp 3x" type="image/webp"><img data-src="/img/lazy.jpg" alt="Lazy"></picture>
<figcaption>The library at dusk. Photo: J. Q. R.</figcaption></figure>
<p>${PARAGRAPH}</p>
<p>${PARAGRAPH.toUpperCase()}</p>
<h2>What changes</h2>
<p>Hours: 9&ndash;21 &#60;weekdays&#62; &copy 2026 &notin; &noti; &#0; &#xD800; &#x110000; &#1234567; &amp &AMP; &unknown; &#; &#x; a&b &</p>
<ol><li>Monday<li>Tuesday</li><li>Wednesday<ul><li>morning<li>evening</ul></ol>
<dl><dt>Where<dd>Main Street 1<dt>When<dd>From April</dl>
<blockquote cite="https://example.org"><p>“We listened,” said the mayor.</p></blockquote>
<p>Write to news@example.com or see https://example.org/library-hours for the full timetable.</p>
<p>\u200b</p><p>&nbsp;</p><p> </p>
<pre>first<div>block in pre</div>second<br>third<p>para in pre</p></pre>
<pre><code>if (hours &gt; 20) { open(); }
	tabs	and   spaces</code></pre>
<table border=1><caption>Opening hours</caption><thead><tr><th>Day<th>Open<th>Close</thead>
<tbody><tr><td>Mon</td><td>9</td><td>21</td></tr><tr><td colspan=2>Sun<td>closed</tbody><tfoot><tr><td>All</td></tr></tfoot></table>
<p>Line<br>break<br/>and<BR />more</br>and an end tag without a start: </p></p></span></ div></ 3></>text after
<svg viewBox="0 0 10 10"><path d="M0 0L10 10"/><circle r=2 /><foreignObject><p>html inside</p></foreignObject><title>t</title></svg>
<math><mi>x</mi><mo>=</mo><mn>2</mn><annotation-xml><p>y</p></annotation-xml></math>
<xmp><b>not bold</b></xmp>
<![CDATA[ raw <cdata> ]]><!doctype late><?php echo 1; ?>
<details open><summary>More</summary><p>${PARAGRAPH.slice(0, 200)}</p></details>
${deep(24, `<p>Deep text with <em>emphasis</em>, <strong>strength</strong> and <code>code</code>.</p>`)}
<p><a href="javascript:void(0)">js</a> <a href="mailto:a@example.org">mail</a> <a href="#top">top</a>
<a href="//cdn.example.org/x">cdn</a> <a href="../up/one.html">up</a> <a>no href</a></p>
<iframe src="/embed" title="Embed"></iframe><video controls src="/v.mp4"><track kind=captions></video>
<div\r\n  class="crlf"\r\n\tdata-x = "spaced"\ftitle= 'y' lang =en\r\n>Tags split over CRLF lines, with spaces around =.</div>
<p lang="de">Die Bibliothek öffnet länger. Straße, Größe, Übermaß.</p>
<p lang="zh">图书馆延长开放时间。居民们对此表示欢迎。</p>
<p lang="ja">図書館の開館時間が延長されました。</p>
<p lang="ar" dir="rtl">مكتبة المدينة تفتح حتى التاسعة مساءً.</p>
<p lang="ko">도서관이 늦게까지 엽니다.</p><p lang="th">ห้องสมุดเปิดดึก</p><p>ＦＵＬＬＷＩＤＴＨ ｶﾀｶﾅ 𠀀𠀁 𝐀𝐁 ✓ ☃</p>
<p class="café\u2003x\u3000y\ufeffz\u2028w\u1680v">&Aacute;&aacute &#X41; &#65 &ampx &AMP &lt;&gt;&quot;&apos;&nbsp;&nbsp</p>
</article>
<aside class="related sidebar"><h3>Related</h3><ul>${[7, 8, 9, 10].map(LIST_ITEM).join('')}</ul></aside>
</main>
<footer><p>&copy; 2026 The Daily Example · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></p>
<div class=share><a href="https://twitter.com/intent/tweet?url=x&amp;text=y">Share</a></div></footer>
<script src="/app.js" async></script>
<p>after the footer <b>bold <i>both</b> italic</i> <unknown-element>custom</unknown-element> <dív>non-ASCII tag</dív>
<a/b> <img/> <input/ > <p/> <svg><g/><g /></svg> end < notatag <3 <!-- unclosed comment -- > &am
`;

/**
 * Pages at the edges, each extracted once per round: no blocks at all, exactly one block, and content only inside
 * <noscript> (which the parse then reads again, keeping it).
 */
const EDGE_PAGES = [
  '<html><body></body></html>',
  '<p>One block of text on its own, a single sentence about the library.</p>',
  '<html><body><noscript><p>Please enable JavaScript to read this story about the library and its new hours.</p></noscript></body></html>',
];

/** Times the warm-up pages are extracted: V8 gives a function its feedback vector only after it has run a while. */
const PRIME_ROUNDS = 4;

/**
 * Extracts PRIME_PAGE and the edge pages PRIME_ROUNDS times in this process, as `pith batch` would with these
 * options (loading the model on the way), with a page URL every other time (WARC records have one, page files not).
 * Throws if PRIME_PAGE extracts to nothing: that is a bug (the worker then warns and goes on without the warm-up).
 */
export async function primeExtraction(featureSet: FeatureSetName | undefined, format: Format = 'text'): Promise<void> {
  for (let i = 0; i < PRIME_ROUNDS; i++) {
    const options = { featureSet, fingerprint: true, format, ...(i % 2 === 1 ? { url: PRIME_URL } : {}) };
    const result = await extract(PRIME_PAGE, options);
    if (result.text === '') throw new Error('the batch warm-up page extracted to nothing');
    for (const page of EDGE_PAGES) await extract(page, options);
  }
}
