import { describe, expect, it } from 'vitest';
import type { DomNode } from '../../../src/parse/dom.js';
import { parsePage } from '../../../src/parse/page.js';
import { spaceBetween } from '../../../src/render/spacing.js';
import { countWords, renderText } from '../../../src/render/text.js';

/** Plain text of a page with every block kept, with and without word boundaries from the DOM. */
function allText(html: string): { spaced: string; reference: string } {
  const page = parsePage(html);
  const labels = new Uint8Array(page.blocks.length).fill(1);
  const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
  const between = (a: number, b: number) => spaceBetween(page.blocks[a].domNode as DomNode, page.blocks[b].domNode as DomNode);
  return { spaced: renderText(blocks, labels, between), reference: renderText(blocks, labels) };
}

describe('word boundaries between blocks', () => {
  it('keeps the space of a whitespace-only text node the collapsed DOM dropped (code listings)', () => {
    const { spaced, reference } = allText('<body><pre><code><span>from</span> <span>typing</span> <span>import</span> List</code></pre></body>');
    expect(reference).toBe('fromtypingimport List'); // the reference's concatenation (docs/design.md, Text output)
    expect(spaced).toBe('from typing import List');
  });
  it('adds no space inside a word split by inline markup', () => {
    expect(allText('<body><p><b>W</b>ord and <i>it</i>alic, <a href=x>AT&amp;T</a>s</p></body>').spaced).toBe('Word and italic, AT&Ts');
  });
  it('separates blocks across a line break or block boundary that is not a block break', () => {
    expect(allText('<body><p><span>one</span><br><span>two</span></p></body>').spaced).toMatch(/^one\s+two$/);
    expect(allText('<body><span>left</span><div><span>right</span></div></body>').spaced).toMatch(/^left\s+right$/);
  });
  it('separates kept blocks whose neighbour in between was dropped', () => {
    const page = parsePage('<body><p><span>first</span><a href=x>menu</a><span>last</span></p></body>');
    const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
    const text = renderText(blocks, [1, 0, 1], (a, b) => spaceBetween(page.blocks[a].domNode as DomNode, page.blocks[b].domNode as DomNode));
    expect(text).toBe('first last');
  });
});

describe('countWords', () => {
  it('counts runs of Unicode letters, digits and underscore like /[\\p{L}\\p{N}_]+/gu', () => {
    for (const s of ['', 'one two  three', 'héllo wörld', 'snake_case-and-kebab', '日本語 テキスト', '𝐀𝐁𝐂 def', 'x\u0301y', 'emoji 😀 ok']) {
      expect(countWords(s), s).toBe((s.match(/[\p{L}\p{N}_]+/gu) ?? []).length);
    }
  });
});
