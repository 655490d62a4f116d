import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/core/blocks/page.js';
import { SKIP_TAGS } from '../../../src/core/blocks/cdom.js';
import type { CdomNode } from '../../../src/types.js';
import { renderText } from '../../../src/core/render/text.js';
import { pageTextLayout } from '../../../src/core/render/spacing.js';

const texts = (html: string): string[] => parsePage(html).blocks.map((b) => b.text);
const allTags = (n: CdomNode | null): string[] => (n ? [...n.tags, ...n.children.flatMap(allTags)] : []);

describe('collapsed DOM', () => {
  it('drops empty and whitespace-only elements and text', () => {
    const page = parsePage('<body><div>   </div><p>a</p><span>\n\t</span><p>b</p></body>');
    expect(page.blocks.map((b) => b.text)).toEqual(['a', 'b']);
    expect(allTags(page.root)).not.toContain('div');
    expect(allTags(page.root)).not.toContain('span');
  });

  it('treats NBSP-only and other separator-only text as empty', () => {
    const page = parsePage('<body><div>&nbsp;</div><p>a</p><span>\u00a0 \u2003</span><p>b</p></body>');
    expect(page.blocks.map((b) => b.text)).toEqual(['a', 'b']);
    expect(allTags(page.root)).not.toContain('div');
  });

  const containerSkips = ['iframe', 'noscript', 'script', 'style', 'textarea', 'title', 'video'];
  for (const tag of containerSkips) {
    it(`skips <${tag}> with its content`, () => {
      const page = parsePage(`<body><p>a</p><${tag}>secret words</${tag}><p>b</p></body>`);
      expect(page.blocks.map((b) => b.text)).toEqual(['a', 'b']);
      expect(allTags(page.root)).not.toContain(tag);
    });
  }
  it('skips <select> with its options', () => {
    expect(texts('<body><p>a</p><select><option>one</option></select><p>b</p></body>')).toEqual(['a', 'b']);
  });
  for (const tag of ['br', 'hr', 'img', 'input', 'meta']) {
    it(`skips void <${tag}> and splits the text around it`, () => {
      const page = parsePage(`<body><p>left<${tag}>right</p></body>`);
      expect(page.blocks.map((b) => b.text)).toEqual(['left', 'right']);
      expect(allTags(page.root)).not.toContain(tag);
    });
  }
  it('has the reference skip list', () => {
    expect([...SKIP_TAGS].sort()).toEqual(
      ['#doctype', 'br', 'checkbox', 'head', 'hr', 'iframe', 'img', 'input', 'meta', 'noscript', 'radio', 'script',
        'select', 'style', 'textarea', 'title', 'video', 'template'].sort(),
    );
  });

  it('merges single-child chains and keeps the tag chain', () => {
    const page = parsePage('<body><ul><li><a href="/">Home</a></li><li class="x"><a>About</a></li></ul></body>');
    expect(page.blocks.map((b) => b.tags)).toEqual([['li', 'a', '#text'], ['li', 'a', '#text']]);
    expect(page.blocks[1].classNames).toEqual([['x'], [], []]);
    // body has one kept child (ul): the root is body merged with ul.
    expect(page.root!.tags).toEqual(['body', 'ul']);
    expect(page.blocks[0].parent).toBe(page.root);
    expect(page.blocks[0].depth).toBe(1);
  });

  it('keeps an element with several children as an internal node', () => {
    const page = parsePage('<body><p>Hello <b>world</b>!</p><p>x</p></body>');
    expect(page.blocks.map((b) => [b.text, b.tags])).toEqual([
      ['Hello ', ['#text']],
      ['world', ['b', '#text']],
      ['!', ['#text']],
      ['x', ['p', '#text']],
    ]);
    const p = page.blocks[0].parent!;
    expect(p.tags).toEqual(['p']);
    expect(p.children).toHaveLength(3);
    expect(p.parent).toBe(page.root);
  });

  it('drops comments', () => {
    const page = parsePage('<body><p>a<!-- hidden comment -->b</p></body>');
    expect(page.blocks.map((b) => b.text)).toEqual(['a', 'b']);
  });

  it('works without a body (fragment)', () => {
    const page = parsePage('<p>one</p><p>two</p>');
    expect(page.blocks.map((b) => b.text)).toEqual(['one', 'two']);
    expect(page.root!.tags).toEqual(['body']);
  });

  it('works with <html> but no <body>', () => {
    const page = parsePage('<!DOCTYPE html><html><head><title>T</title></head><div>c</div><div>d</div></html>');
    expect(page.blocks.map((b) => b.text)).toEqual(['c', 'd']);
    expect(page.title).toBe('T');
  });

  it('shows the text of a <head> opened inside <body> (a browser ignores the tag)', () => {
    const page = parsePage('<body><p>a</p><head>seen words</head><p>b</p></body>');
    expect(page.blocks.map((b) => b.text)).toEqual(['a', 'seen words', 'b']);
  });

  it('keeps markup before <head> and after </body> in the body, and finds a <title> that landed there', () => {
    const html = '<!DOCTYPE html>\n<html><div>early</div><head><title>The title</title></head><body></body><p>after</p></html>';
    const page = parsePage(html);
    expect(page.blocks.map((b) => b.text)).toEqual(['early', 'after']);
    expect(page.title).toBe('The title');
  });

  it('uses the body when it holds the content (doctype before html)', () => {
    const page = parsePage('<!DOCTYPE html>\n<html lang="en"><head><title>T</title></head><body><p>x</p><p>y</p></body></html>\n');
    expect(page.blocks.map((b) => b.text)).toEqual(['x', 'y']);
    expect(page.root!.tags).toEqual(['body']);
  });

  it('gives zero blocks for empty or text-free input, a block for plain text', () => {
    for (const h of ['', '   ', '<html><body></body></html>', '<!-- only -->', '<img src=x>']) {
      const page = parsePage(h);
      expect(page.blocks).toEqual([]);
      expect(page.root).toBeNull();
    }
    expect(texts('plain text')).toEqual(['plain text']);
  });

  it('normalises whitespace without trimming (jsoup text())', () => {
    expect(texts('<body><p>  a \n\t b&nbsp; </p></body>')).toEqual([' a b ']);
  });

  it('measures positions in text order', () => {
    const page = parsePage('<body><p>ab</p><p> cde </p></body>');
    expect(page.blocks.map((b) => [b.props.startPosition, b.props.endPosition])).toEqual([[0, 2], [2, 7]]);
    expect(page.root!.props.startPosition).toBe(0);
    expect(page.root!.props.endPosition).toBe(7);
  });

  it('keeps the linkedom node of each block', () => {
    const page = parsePage('<body><ul><li><a>x</a></li><li>y</li></ul></body>');
    const leaf = page.blocks[0].domNode as { nodeName: string; localName?: string };
    expect(leaf.localName).toBe('li');
    const plain = parsePage('<body><p>a<b>b</b></p></body>').blocks[0].domNode as { nodeType: number; data: string };
    expect(plain.nodeType).toBe(3);
    expect(plain.data).toBe('a');
  });

  it('survives very deep nesting', () => {
    const html = '<body>' + '<div>'.repeat(20000) + 'deep' + '</div>'.repeat(20000) + '<p>x</p></body>';
    // Deeper than the default limits.maxNestingDepth (4,096) and maxParseSteps: the walk itself must still survive it.
    const page = parsePage(html, { limits: { maxNestingDepth: 50_000, maxParseSteps: 1e9 } });
    expect(page.blocks.map((b) => b.text)).toEqual(['deep', 'x']);
    expect(page.blocks[0].tags.length).toBe(20001);
  });
});

describe('raw properties', () => {
  it('computes leaf statistics on the trimmed text', () => {
    const p = parsePage('<body><p> The cat sat. Then, in 2019 it left! </p></body>').blocks[0].props;
    expect(p.nCharacters).toBe('The cat sat. Then, in 2019 it left!'.length);
    expect(p.nWords).toBe(8);
    expect(p.nStopwords).toBe(2); // "in", "it" ("The", "Then" are capitalised: case-sensitive)
    expect(p.nWordsWithCapital).toBe(2);
    expect(p.nSentences).toBe(2);
    expect(p.nPunctuation).toBe(3);
    expect(p.nNumeric).toBe(4);
    expect(p.containsYear).toBe(true);
    expect(p.endsWithPunctuation).toBe(true);
    expect(p.endsWithQuestionMark).toBe(false);
  });

  it('splits paper words on ASCII \\W and counts Unicode words for pith', () => {
    const p = parsePage('<body><p>café über 東京</p></body>').blocks[0].props;
    expect(p.nWords).toBe(2); // ASCII split: "caf", "ber"
    expect(p.uWords).toBe(4); // "café", "über", "東", "京"
  });

  it('records link text through a merged or aggregated <a>', () => {
    const page = parsePage('<body><p>Go <a href="#">home page</a> now</p></body>');
    const [, link] = page.blocks;
    expect(link.tags).toEqual(['a', '#text']);
    expect(link.props.nCharsInLink).toBe(9);
    expect(page.blocks[0].props.nCharsInLink).toBe(0);
    expect(page.blocks[0].parent!.props.nCharsInLink).toBe(9);
    const agg = parsePage('<body><div><a href="#">two <b>parts</b></a><p>x</p></div></body>');
    expect(agg.blocks[0].parent!.tags).toEqual(['a']);
    expect(agg.blocks[0].parent!.props.nCharsInLink).toBe(8); // children's nCharacters: "two" (3, trimmed) + "parts" (5)
  });

  it('flags containsForm on a node with an <input> descendant', () => {
    const page = parsePage('<body><form><label>Name</label><input name=n><span>go</span></form><p>x</p></body>');
    expect(page.blocks[0].parent!.tags).toEqual(['form']);
    expect(page.blocks[0].parent!.props.containsForm).toBe(true);
    expect(page.blocks[2].props.containsForm).toBe(false);
  });

  it('sets block breaks from siblings and propagates them down (§3.4)', () => {
    const page = parsePage('<body><div><span>a</span><span>b</span></div>c<br>d<b>e</b></body>');
    const [a, b, c, d, e] = page.blocks;
    expect(a.props.blockBreakBefore).toBe(true); // propagated from the div
    expect(a.props.blockBreakAfter).toBe(false);
    expect(b.props.blockBreakAfter).toBe(true); // propagated from the div
    expect(c.props.blockBreakBefore).toBe(true); // previous sibling is a div
    expect(c.props.blockBreakAfter).toBe(true); // next sibling is br (a block tag)
    expect(c.props.brAfter).toBe(true);
    expect(d.props.brBefore).toBe(true);
    expect(d.props.blockBreakAfter).toBe(false);
    expect(e.props.blockBreakBefore).toBe(false);
  });
});

/** The text output of `html` with every block kept (the renderer's joins, word boundaries included). */
function textOf(html: string): string {
  const page = parsePage(html);
  const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
  return renderText(blocks, new Uint8Array(blocks.length).fill(1), pageTextLayout(page));
}

describe('block boundaries (issue 13)', () => {
  it('keeps the break of a block element inside an inline element', () => {
    const html = '<body><a href="/a"><div>Alpha section</div></a><a href="/b"><div>Beta section</div></a></body>';
    expect(textOf(html)).toBe('Alpha section\n\nBeta section');
    const [alpha, beta] = parsePage(html).blocks;
    expect(alpha.props.blockBreakAfter).toBe(true);
    expect(beta.props.blockBreakBefore).toBe(true);
  });

  it('keeps breaks through several inline wrappers, and inline chains stay inline', () => {
    expect(textOf('<body><span><a href="/a"><p>One</p></a></span><span><b><p>Two</p></b></span></body>')).toBe('One\n\nTwo');
    expect(textOf('<body><p><a href="/a"><b>One</b></a> <a href="/b"><i>two</i></a></p></body>')).toBe('One two');
  });

  it('breaks between table header cells', () => {
    const html = '<body><table><tr><th>Model</th><th>Price</th></tr></table></body>';
    expect(parsePage(html).blocks.map((b) => b.text)).toEqual(['Model', 'Price']);
    // The text output of a table: one row per line, its cells separated by a tab.
    expect(textOf(html)).toBe('Model\tPrice');
  });

  it('breaks around dt, dd, summary and caption', () => {
    expect(textOf('<body><dl><dt>Term</dt><dd>Meaning</dd><dt>Other</dt><dd>Too</dd></dl></body>')).toBe('Term\n\nMeaning\n\nOther\n\nToo');
    expect(textOf('<body><details><summary>More</summary>Hidden body</details></body>')).toBe('More\n\nHidden body');
    expect(textOf('<body><table><caption>Prices</caption><tr><td>A</td></tr></table></body>')).toBe('Prices\n\nA');
  });

  it('never makes blocks of <template> content', () => {
    const html = '<body><p>Shown</p><template><p>Inert copy</p><div>More inert</div></template><p>Also shown</p></body>';
    expect(texts(html)).toEqual(['Shown', 'Also shown']);
    expect(texts('<body><template>only inert</template></body>')).toEqual([]);
  });
});
