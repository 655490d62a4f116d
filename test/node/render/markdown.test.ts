import { describe, expect, it } from 'vitest';
import { largestSrcsetUrl } from '../../../src/core/render/url-policy.js';
import { doc, htmlOf, markdownOf } from './helpers.js';

describe('renderMarkdown: constructs', () => {
  it('headings and paragraphs, kept blocks only', () => {
    const md = markdownOf(
      doc('<nav><a href="/">Home</a></nav><h1>Main title</h1><p>First paragraph.</p><h3>Sub</h3><p>Second one.</p><footer>Copyright 2024</footer>'),
      /Home|Copyright/,
    );
    expect(md).toBe('# Main title\n\nFirst paragraph.\n\n### Sub\n\nSecond one.');
    expect(md).not.toContain('Home');
    expect(md).not.toContain('Copyright');
  });

  it('div soup becomes paragraphs; inline pieces stay joined', () => {
    const md = markdownOf(doc('<div>one <span>two</span></div><div><div>three</div></div>'));
    expect(md).toBe('one two\n\nthree');
  });

  it('nested lists, ordered and unordered', () => {
    const md = markdownOf(
      doc('<ul><li>One</li><li>Two<ul><li>Two a</li><li>Two b<ol><li>deep</li></ol></li></ul></li></ul><ol><li>First</li><li>Second</li></ol>'),
    );
    expect(md).toBe('- One\n- Two\n  - Two a\n  - Two b\n    1. deep\n\n1. First\n2. Second');
  });

  it('list items whose text was dropped disappear, the rest keep their order', () => {
    const md = markdownOf(doc('<ul><li>keep me</li><li>Share this</li><li>me too</li></ul>'), /Share/);
    expect(md).toBe('- keep me\n- me too');
  });

  it('links are absolute, resolved against <base> and the page URL', () => {
    const md = markdownOf(
      doc('<p>See <a href="other.html">the other</a>, <a href="/root">root</a> and <a href="https://x.org/a(b)">parens</a>.</p>', '<base href="/docs/">'),
    );
    expect(md).toBe(
      'See [the other](https://example.com/docs/other.html), [root](https://example.com/root) and [parens](https://x.org/a%28b%29).',
    );
  });

  it('links without a usable href keep their text only', () => {
    const md = markdownOf(doc('<p><a name="x">anchor</a> and <a href="javascript:void(0)">js</a></p>'));
    expect(md).toBe('anchor and js');
  });

  it('emphasis, strong, inline code with backticks, edge spaces outside the markers', () => {
    const md = markdownOf(doc('<p>An <em>emphasised </em>word, <strong>bold</strong>, <b>b</b>, <i>i</i> and <code>a `tick` b</code>.</p>'));
    expect(md).toBe('An *emphasised* word, **bold**, **b**, *i* and ``a `tick` b``.');
  });

  it('code blocks keep whitespace, blank lines and the language', () => {
    const code = 'def f(x):\n    if x:\n\n        return "```"\n';
    const md = markdownOf(doc(`<p>Code:</p><pre><code class="language-python">${code}</code></pre>`));
    expect(md).toBe('Code:\n\n````python\ndef f(x):\n    if x:\n\n        return "```"\n````');
  });

  it('highlighted code split into spans stays one block', () => {
    const md = markdownOf(
      doc('<pre class="lang-js"><span class="k">const</span> <span class="n">a</span> = <span class="m">1</span>;\n<span class="k">let</span> b;</pre>'),
    );
    expect(md).toBe('```js\nconst a = 1;\nlet b;\n```');
  });

  it('blockquotes, with paragraphs and nesting', () => {
    const md = markdownOf(doc('<blockquote><p>Quoted words.</p><p>More.</p><blockquote>Inner</blockquote></blockquote>'));
    expect(md).toBe('> Quoted words.\n>\n> More.\n>\n> > Inner');
  });

  it('GFM tables: header row, escaped pipes, colspan padding', () => {
    const md = markdownOf(
      doc(
        '<table><thead><tr><th>Name</th><th>A | B</th><th>C</th></tr></thead>' +
          '<tbody><tr><td>x</td><td><p>1</p></td><td>2</td></tr><tr><td colspan="2">wide</td><td>3</td></tr></tbody></table>',
      ),
    );
    expect(md).toBe('| Name | A \\| B | C |\n| --- | --- | --- |\n| x | 1 | 2 |\n| wide |  | 3 |');
  });

  it('a table without thead uses its first row as the header', () => {
    const md = markdownOf(doc('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>'));
    expect(md).toBe('| a | b |\n| --- | --- |\n| c | d |');
  });

  it('layout tables (blocks in cells, one column) become their content', () => {
    const md = markdownOf(
      doc('<table><tr><td><h2>Title</h2><p>Para one.</p></td><td><p>Side</p><p>bar</p></td></tr></table><table><tr><td>only cell</td></tr></table>'),
    );
    expect(md).toBe('## Title\n\nPara one.\n\nSide\n\nbar\n\nonly cell');
  });

  it('images: data-src, data-lazy-src and the largest srcset, absolute; data: placeholders ignored', () => {
    const md = markdownOf(
      doc(
        '<p>Intro text.</p>' +
          '<figure><img src="data:image/gif;base64,R0lGOD" data-src="/img/a.jpg" alt="A"><figcaption>Caption A</figcaption></figure>' +
          '<p><img data-lazy-src="b.png" alt="B"> text beside B</p>' +
          '<p>Between</p><img srcset="s.jpg 320w, https://cdn.example.com/w_1280,h_720/l.jpg 1280w, m.jpg 640w" src="s.jpg" alt="C"><p>after</p>',
      ),
    );
    expect(md).toBe(
      'Intro text.\n\n![A](https://example.com/img/a.jpg)\n\nCaption A\n\n![B](https://example.com/articles/b.png) text beside B\n\nBetween\n\n' +
        '![C](https://cdn.example.com/w_1280,h_720/l.jpg)\n\nafter',
    );
  });

  it('images outside the kept region are dropped', () => {
    const md = markdownOf(
      doc('<div class="ad"><img src="/ad.png" alt="ad"><span>Advert</span></div><h1>Title</h1><p>Body.</p><div><img src="/tail.png"></div><footer>Footer</footer>'),
      /Advert|Footer/,
    );
    expect(md).toBe('# Title\n\nBody.');
  });

  it('tracking pixels are dropped', () => {
    const md = markdownOf(doc('<p>a</p><img src="/px.gif" width="1" height="1"><p>b</p>'));
    expect(md).toBe('a\n\nb');
  });

  it('renders one <br> as a hard line break and a run of them as a paragraph break', () => {
    expect(markdownOf(doc('<p>Lorem ipsum<br>dolor sit<br> <br><br>amet<br>consectetur</p>'))).toBe(
      'Lorem ipsum  \ndolor sit\n\namet  \nconsectetur',
    );
  });

  it('escapes markdown in text, including line starts after <br>', () => {
    const md = markdownOf(doc('<p>5 * 3 = [15] and snake_case and _x_ <b>tag</b></p><p># not a heading<br>- not a list<br>2. not ordered<br>&gt; not a quote</p>'));
    expect(md).toBe('5 \\* 3 = \\[15\\] and snake_case and \\_x\\_ **tag**\n\n\\# not a heading  \n\\- not a list  \n2\\. not ordered  \n\\> not a quote');
  });

  it('escapes markup-like text split by character references', () => {
    expect(markdownOf(doc('<p>a &lt;b&gt; c &amp; &lt;/x&gt;</p>'))).toBe('a \\<b> c & \\</x>');
  });

  it('definition lists and horizontal rules inside the content', () => {
    const md = markdownOf(doc('<dl><dt>Term</dt><dd>Meaning</dd></dl><p>before</p><hr><p>after</p>'));
    expect(md).toBe('**Term**\n\nMeaning\n\nbefore\n\n---\n\nafter');
  });

  it('drops soft hyphens and zero-width spaces from text and code', () => {
    const md = markdownOf(doc('<p>Donau\u00addampf\u200bschiff</p><pre><code>x\u200b = 1</code></pre>'));
    expect(md).toBe('Donaudampfschiff\n\n```\nx = 1\n```');
  });

  it('keeps the spaces at the edges of nested inline tags', () => {
    expect(markdownOf(doc('<p>Pick: <em><strong>Red Book</strong> </em>by Ann Lee.</p>'))).toBe('Pick: ***Red Book*** by Ann Lee.');
    expect(markdownOf(doc('<p>Please read<em> <b>the guide</b></em> first.</p>'))).toBe('Please read ***the guide*** first.');
    // an inline element holding only a space is still the space between its neighbours
    expect(markdownOf(doc('<p>but uncertainty.<em> </em>Cybersecurity still feels complex.</p>'))).toBe('but uncertainty. Cybersecurity still feels complex.');
    expect(htmlOf(doc('<p>but uncertainty.<span> </span>Cybersecurity.</p>'))).toBe('<p>but uncertainty. Cybersecurity.</p>');
  });

  it('keeps an image after the last kept block when it closes the content, not a logo in the footer', () => {
    expect(markdownOf(doc('<article><p>The bridge reopened on Saturday.</p><img src="/bridge.jpg" alt="The bridge"></article>'))).toBe(
      'The bridge reopened on Saturday.\n\n![The bridge](https://example.com/bridge.jpg)',
    );
    const withFooter = doc(
      '<article><p>The bridge reopened on Saturday.</p><figure><img src="/arch.jpg" alt="Arch"></figure></article>' +
        '<footer><img src="/logo.png" alt="Gazette"><p>Copyright 2026 Gazette</p></footer>',
    );
    expect(markdownOf(withFooter, /Copyright/)).toBe('The bridge reopened on Saturday.\n\n![Arch](https://example.com/arch.jpg)');
    const logoOnly = doc('<main><p>The bridge reopened on Saturday.</p></main><footer><img src="/logo.png" alt="Gazette"><p>Copyright 2026</p></footer>');
    expect(markdownOf(logoOnly, /Copyright/)).toBe('The bridge reopened on Saturday.');
  });

  it('keeps a lead image above the first kept paragraph, not a logo, a thumbnail or a far-away picture', () => {
    const body = '<p>The bridge reopened on Saturday after two years of repairs.</p><p>Traffic was light.</p>';
    const lead = (img: string, between = '') =>
      doc(`<header><a href="/"><img src="/logo.png" alt="Gazette" width="600" height="200"></a></header><article><header><h1>Bridge reopens</h1>` +
        `${img}<p class="byline">By Ann Lee</p>${between}</header>${body}</article>`);
    const drop = /Bridge reopens|By Ann Lee|Credit|Filler/;
    const picture = '<figure><img src="/bridge.jpg" srcset="/bridge-600.jpg 600w, /bridge-1200.jpg 1200w" alt="The bridge"><figcaption>Credit Bo Chen</figcaption></figure>';
    expect(markdownOf(lead(picture), drop)).toBe(
      '![The bridge](https://example.com/bridge-1200.jpg)\n\nThe bridge reopened on Saturday after two years of repairs.\n\nTraffic was light.',
    );
    // a declared width is enough outside a figure; a thumbnail's small size, or a link around it, is not
    expect(markdownOf(lead('<img src="/wide.jpg" alt="Wide" width="900">'), drop)).toMatch(/^!\[Wide\]/);
    expect(markdownOf(lead('<figure><img src="/thumb.jpg" alt="Thumb" width="117" height="81"></figure>'), drop)).toMatch(/^The bridge/);
    expect(markdownOf(lead(`<a href="/other-story">${picture}</a>`), drop)).toMatch(/^The bridge/);
    // more dropped text between it and the article than a caption and a byline: not the article's picture
    expect(markdownOf(lead(picture, `<p>${'Filler about other things. '.repeat(20)}</p>`), drop)).toMatch(/^The bridge/);
    // a picture whose only common ancestor with the article is the body
    const apart = doc(`<div class="promo">${picture}</div><article>${body}</article>`);
    expect(markdownOf(apart, drop)).toMatch(/^The bridge/);
  });

  it('keeps the image of a figure between kept text although its credit and caption are dropped', () => {
    const page = doc(
      '<article><p>The bridge reopened on Saturday.</p><figure><img src="/bridge.jpg" alt="The bridge"><span>Credit Ann Lee</span>' +
        '<figcaption>Cars on the bridge</figcaption></figure><p>Traffic was light.</p></article>' +
        '<aside><figure><img src="/ad.jpg" alt="Ad"><figcaption>Sponsored</figcaption></figure></aside><footer><p>Copyright 2026</p></footer>',
    );
    expect(markdownOf(page, /Credit|Cars on|Sponsored|Copyright/)).toBe(
      'The bridge reopened on Saturday.\n\n![The bridge](https://example.com/bridge.jpg)\n\nTraffic was light.',
    );
  });

  it('separates sentences that only CSS shows apart, in markdown and HTML, and leaves names and code attached', () => {
    const body =
      '<figure><img src="/a.jpg" width="800"><figcaption><span>Crews worked under the street.</span><span>Credit Ann Lee</span>' +
      '</figcaption></figure><p><strong>Is it safe?</strong>The studies say it is. See <em>U.S.</em>Army law.<sup>3</sup></p>' +
      '<p>Use <code><span>json.</span><span>JSONDecoder</span></code> for it.</p>';
    expect(markdownOf(doc(body))).toBe(
      '![](https://example.com/a.jpg)\n\nCrews worked under the street. Credit Ann Lee\n\n' +
        '**Is it safe?** The studies say it is. See *U.S.* Army law.3\n\nUse `json.JSONDecoder` for it.',
    );
    expect(htmlOf(doc(body))).toContain('<figcaption>Crews worked under the street. Credit Ann Lee</figcaption>');
    expect(htmlOf(doc(body))).toContain('<strong>Is it safe?</strong> The studies say it is.');
  });

  it('nothing kept gives an empty string', () => {
    expect(markdownOf(doc('<p>only boilerplate</p>'), /./)).toBe('');
  });

  it('survives thousands of nested unclosed tags', () => {
    // 4,000 levels: just under the default limits.maxNestingDepth (4,096), past which parsePage refuses the page.
    const md = markdownOf(doc('<div>'.repeat(2500) + '<b>'.repeat(1500) + 'deep text' + '</b>'.repeat(1500) + '</div>'.repeat(2500)));
    expect(md).toContain('deep text');
  });
});

describe('largestSrcsetUrl', () => {
  it('picks by w, then x; commas inside URLs are fine', () => {
    expect(largestSrcsetUrl('a.jpg 1x, b.jpg 2x')).toBe('b.jpg');
    expect(largestSrcsetUrl('a.jpg 300w,b.jpg 900w , c.jpg 600w')).toBe('b.jpg');
    expect(largestSrcsetUrl('https://x/c_fill,w_300/a.jpg 300w, https://x/c_fill,w_900/a.jpg 900w')).toBe('https://x/c_fill,w_900/a.jpg');
    expect(largestSrcsetUrl('only.jpg')).toBe('only.jpg');
    expect(largestSrcsetUrl('  ')).toBeNull();
  });
});
