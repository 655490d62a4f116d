// Blocks that are units and the label passes that keep the output whole: a code block is one block with its exact
// text, tables keep their header cells and rows stay on one line, heading edit links are not text, and a kept
// paragraph is never repeated by a hidden or far-away copy.
import { describe, expect, it } from 'vitest';
import { extract } from '../../../src/hosts/node/lib.js';
import { parsePage } from '../../../src/core/blocks/page.js';
import { preformattedLinks, preformattedText } from '../../../src/core/blocks/units.js';
import { htmlOf, markdownOf } from './helpers.js';
import { dropRepeats } from '../../../src/core/blocks/repeats.js';
import { dropEditLinks, keepTablesWhole } from '../../../src/core/blocks/whole.js';
import { renderText } from '../../../src/core/render/text.js';
import { pageTextLayout } from '../../../src/core/render/spacing.js';
import { type DomNode, isElement } from '../../../src/core/parse/dom.js';

const PROSE =
  'WebAssembly lets you compile C code to run in the browser with near native speed, and this article shows how the ' +
  'toolchain works from start to end. Every step is explained with an example you can run yourself at home.';
const CODE =
  '<pre><code class="language-c">// add.c<br>#include &lt;emscripten.h&gt;<br>int add(int x, int y) {<br>  return x + y;<br>}</code></pre>';
const FIVE_LINES = '// add.c\n#include <emscripten.h>\nint add(int x, int y) {\n  return x + y;\n}';

const article = (body: string) =>
  `<html><head><title>Compiling C</title></head><body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>` +
  `<article><h1>Compiling C to WebAssembly</h1><p>${PROSE}</p>${body}<p>${PROSE}</p></article>` +
  `<footer>Copyright 2024 Example</footer></body></html>`;

function firstElement(root: DomNode, tag: string): DomNode {
  const todo: DomNode[] = [root];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (isElement(n) && n.localName === tag) return n;
    for (let c = n.firstChild; c !== null; c = c.nextSibling) todo.push(c);
  }
  throw new Error(`no <${tag}>`);
}

describe('a code block is one unit', () => {
  it('is one block of the collapsed DOM, whatever its <br>s and spans', () => {
    const page = parsePage(article(CODE));
    const code = page.blocks.filter((b) => b.text.includes('emscripten') || b.text.includes('return'));
    expect(code).toHaveLength(1);
    expect(code[0].text).toContain('int add(int x, int y) {');
    expect(code[0].text).toContain('}');
  });

  it('renders all five lines in markdown, HTML and text, with its language', async () => {
    const r = await extract(article(CODE), { format: 'json' });
    expect(r.markdown).toContain('```c\n' + FIVE_LINES + '\n```');
    expect(r.html).toContain('<pre><code class="language-c">// add.c\n#include &lt;emscripten.h&gt;\nint add(int x, int y) {\n  return x + y;\n}</code></pre>');
    expect(r.text).toContain(FIVE_LINES);
  });

  it('puts display:block highlighter lines on lines of their own, and keeps indentation', () => {
    const page = parsePage(
      '<pre><code><span class="gatsby-highlight-code-line">import React from "react";</span>function A() {\n' +
        '<span class="gatsby-highlight-code-line">  const x = 1;</span>  return x;\n}</code>' +
        '<div>last()</div><span style="display:block">  tail()</span></pre>',
    );
    const pre = firstElement(page.document as DomNode, 'pre');
    expect(preformattedText(pre)).toBe('import React from "react";\nfunction A() {\n  const x = 1;\n  return x;\n}\nlast()\n  tail()');
  });
});

describe('links in a code block', () => {
  const RFC =
    '<pre>\r\n\r\nNetwork Working Group\r\n   as in <a href="#section-4">Section 4</a>, see <a href="/test/bcp78"> BCP 78 </a>\r\n' +
    '   and <a href="javascript:alert(1)">this</a> or <a name="page-2"></a><a href="https://example.org/x" title="X">x</a></pre>';

  it('finds each link with where its text runs in the block text (CR LF and leading blank lines taken out)', () => {
    const page = parsePage(`<body>${RFC}</body>`);
    const pre = firstElement(page.document as DomNode, 'pre');
    const { text, links } = preformattedLinks(pre);
    expect(text).toBe(preformattedText(pre));
    expect(text.startsWith('Network Working Group\n')).toBe(true);
    expect(links.map((l) => text.slice(l.start, l.end))).toEqual(['Section 4', ' BCP 78 ', 'this', 'x']);
  });

  it('keeps them as links in the HTML, over the same text; markdown keeps the fence plain', () => {
    const url = 'https://example.com/doc/draft.html';
    const html = htmlOf(`<body>${RFC}</body>`, undefined, url);
    expect(html).toContain('as in <a href="https://example.com/doc/draft.html#section-4">Section 4</a>, see  <a href="https://example.com/test/bcp78">BCP 78</a> \n');
    expect(html).toContain('and this or <a href="https://example.org/x" title="X">x</a></code></pre>');
    expect(html).not.toMatch(/javascript:/);
    expect(html.replace(/<[^>]+>/g, '')).toBe(
      'Network Working Group\n   as in Section 4, see  BCP 78 \n   and this or x',
    );
    const md = markdownOf(`<body>${RFC}</body>`, undefined, url);
    expect(md).toBe('```\nNetwork Working Group\n   as in Section 4, see  BCP 78 \n   and this or x\n```');
  });
});

describe('tables', () => {
  const table =
    '<table><thead><tr><th>Year</th><th>Physics</th><th>Chemistry</th><th>Physiology<br>or Medicine</th></tr></thead><tbody>' +
    '<tr><td>1901</td><td>Wilhelm Röntgen</td><td>Jacobus Henricus van \'t Hoff</td><td>Emil von Behring</td></tr>' +
    '<tr><td>1902</td><td>Hendrik Lorentz;<br>Pieter Zeeman</td><td>Emil Fischer</td><td>Ronald Ross</td></tr></tbody></table>';

  it('keeps the header cells of a table whose cells are kept', () => {
    const page = parsePage(`<body>${table}</body>`);
    const labels = new Uint8Array(page.blocks.length).map((_, i) => (/^(Chemistry|Physiology|or Medicine)$/.test(page.blocks[i].text) ? 0 : 1));
    keepTablesWhole(page.blocks, labels);
    expect(Array.from(labels)).toEqual(page.blocks.map(() => 1));
  });

  it('keeps a row on one line in text when a cell has a <br>', () => {
    const page = parsePage(`<body>${table}</body>`);
    const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
    const text = renderText(blocks, new Uint8Array(blocks.length).fill(1), pageTextLayout(page));
    expect(text.split('\n')).toEqual([
      'Year\tPhysics\tChemistry\tPhysiology or Medicine',
      "1901\tWilhelm Röntgen\tJacobus Henricus van 't Hoff\tEmil von Behring",
      '1902\tHendrik Lorentz; Pieter Zeeman\tEmil Fischer\tRonald Ross',
    ]);
  });
});

describe('heading edit links', () => {
  it('drops Wikipedia edit links and the brackets left around them', () => {
    const page = parsePage(
      '<body><h2><span class="mw-headline">History</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span>' +
        '<a href="/w/index.php?action=edit">edit</a><span class="mw-editsection-bracket">]</span></span></h2>' +
        '<h3>Values<span>[</span><span>]</span></h3><p>Arrays [1, 2] are values.</p></body>',
    );
    const labels = new Uint8Array(page.blocks.length).fill(1);
    dropEditLinks(page.blocks, page.leafInfo, labels);
    expect(page.blocks.filter((_, i) => labels[i] === 1).map((b) => b.text)).toEqual(['History', 'Values', 'Arrays [1, 2] are values.']);
  });
});

describe('never repeat', () => {
  const kept = (html: string): string[] => {
    const page = parsePage(html);
    const labels = new Uint8Array(page.blocks.length).fill(1);
    dropRepeats(page.blocks, page.leafInfo, labels);
    return page.blocks.filter((_, i) => labels[i] === 1).map((b) => b.text);
  };

  it('drops a hidden copy next to a visible one, whichever comes first', () => {
    expect(kept(`<body><div style="display:none"><p>${PROSE}</p></div><main><p>${PROSE}</p></main></body>`)).toEqual([PROSE]);
    expect(kept(`<body><main><p>${PROSE}</p></main><div aria-hidden="true"><p>${PROSE}</p></div></body>`)).toEqual([PROSE]);
  });

  it('drops a mobile copy of a desktop text and a teaser far from its body', () => {
    expect(kept(`<body><div class="desktopText"><p>${PROSE}</p></div><div class="mobileText"><p>${PROSE}</p></div></body>`)).toEqual([PROSE]);
    expect(kept(`<body><header><div class="teaser"><p>${PROSE}</p></div></header><article><section><div><p>${PROSE}</p></div></section></article></body>`)).toEqual([PROSE]);
  });

  it('drops a copy whose lines, each short, make one paragraph of 80+ characters with <br>', () => {
    const half = 'An OLED screen with a larger picture and a better battery life,';
    const lines = `<h4>${half}<br>on top of world class ergonomics and a console-like feel</h4>`;
    const out = kept(`<body><section class="inverted hide-mobile">${lines}</section><main><p>Between.</p></main><section class="inverted hide-desktop">${lines}</section></body>`);
    expect(out.filter((t) => t === half)).toHaveLength(1);
  });

  it('drops the copies of a text in each slide of a carousel (one slide is shown at a time)', () => {
    const slide = `<div class="swiper-slide"><h2>Colorful design</h2><p>${PROSE}</p></div>`;
    expect(kept(`<body><div class="swiper-wrapper">${slide}${slide}${slide}${slide}</div></body>`).filter((t) => t === PROSE)).toHaveLength(1);
  });

  it('drops the headings whose text went as a copy: the carousel heading, a mobile copy of an article', () => {
    const slide = `<div class="swiper-slide"><h2>Colorful design</h2><p>${PROSE}</p></div>`;
    expect(kept(`<body><div class="swiper-wrapper">${slide}${slide}${slide}</div></body>`)).toEqual(['Colorful design', PROSE]);
    const copy = `<h2>Costs</h2><h3>Labor</h3><p>${PROSE}</p><h3>Materials</h3><p>${PROSE.toUpperCase()}</p>`;
    expect(kept(`<body><div class="desktop">${copy}</div><div class="mobile">${copy}</div><p>The end.</p></body>`)).toEqual([
      'Costs', 'Labor', PROSE, 'Materials', PROSE.toUpperCase(), 'The end.',
    ]);
  });

  it('keeps a repeated heading over kept text, a post name over its rank, and cards that repeat a name', () => {
    const post = (text: string) => `<article><h4>Aarknoid</h4><h5>Super User</h5><p>${text}</p></article>`;
    const copies = `<p>${PROSE}</p><div class="mobile"><p>${PROSE}</p></div>`;
    expect(kept(`<body>${copies}${post('First post.')}${post('Second post.')}</body>`)).toEqual([
      PROSE, 'Aarknoid', 'Super User', 'First post.', 'Aarknoid', 'Super User', 'Second post.',
    ]);
    // a post whose text went as a copy goes whole, name and rank with it
    expect(kept(`<body><div class="mobile"><p>${PROSE}</p></div>${post('First post.')}${post(PROSE)}</body>`)).toEqual([
      PROSE, 'Aarknoid', 'Super User', 'First post.',
    ]);
    const card = (colour: string) => `<div class="card"><h3>Passport Wallet</h3><h3>${colour}</h3></div>`;
    expect(kept(`<body>${copies}${card('Black')}${card('Brown')}</body>`)).toEqual([
      PROSE, 'Passport Wallet', 'Black', 'Passport Wallet', 'Brown',
    ]);
  });

  it('keeps a paragraph the page shows twice side by side or in two sections, one under each card of a listing', () => {
    expect(kept(`<body><div><p>${PROSE}</p><p>${PROSE}</p></div></body>`)).toEqual([PROSE, PROSE]);
    expect(kept(`<body><article><div><p>${PROSE}</p></div><div><p>${PROSE}</p></div></article></body>`)).toEqual([PROSE, PROSE]);
    const card = (n: number) => `<div class="card"><h3>Product ${n}</h3><p>${PROSE}</p></div>`;
    expect(kept(`<body><main>${card(1)}${card(2)}${card(3)}</main></body>`)).toEqual(['Product 1', PROSE, 'Product 2', 'Product 3']);
  });

  it('keeps short repeated lines, and list items, table cells and code blocks the page repeats', () => {
    expect(kept('<body><header><p>Read more</p></header><main><p>Read more</p></main></body>')).toEqual(['Read more', 'Read more']);
    expect(kept(`<body><ul><li>${PROSE}</li></ul><ul><li>${PROSE}</li></ul></body>`)).toEqual([PROSE, PROSE]);
    expect(kept(`<body><table><tr><td>${PROSE}</td></tr><tr><td>${PROSE}</td></tr></table></body>`)).toEqual([PROSE, PROSE]);
  });
});
