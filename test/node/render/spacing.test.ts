import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/core/blocks/page.js';
import { pageTextLayout } from '../../../src/core/render/spacing.js';
import { countWords, renderText } from '../../../src/core/render/text.js';

/** Plain text of a page with the given blocks kept (all when `labels` is omitted), as extract() lays it out. */
function textOf(body: string, labels?: number[]): string {
  const page = parsePage(`<!DOCTYPE html><html><body>${body}</body></html>`);
  const kept = labels ?? new Array<number>(page.blocks.length).fill(1);
  expect(kept.length, 'labels for every block').toBe(page.blocks.length);
  const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
  return renderText(blocks, kept, pageTextLayout(page));
}

/** The same blocks joined as the reference joins them (docs/design.md, Text output): no layout. */
function referenceTextOf(body: string): string {
  const page = parsePage(`<!DOCTYPE html><html><body>${body}</body></html>`);
  const blocks = page.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
  return renderText(blocks, new Array<number>(blocks.length).fill(1));
}

describe('word boundaries between blocks', () => {
  it('keeps the space of a whitespace-only text node the collapsed DOM dropped (code listings)', () => {
    const body = '<p><code><span>from</span> <span>typing</span> <span>import</span> List</code></p>';
    expect(referenceTextOf(body)).toBe('fromtypingimport List'); // the reference's concatenation (docs/design.md, Text output)
    expect(textOf(body)).toBe('from typing import List');
  });
  it('adds no space inside a word split by inline markup', () => {
    expect(textOf('<p><b>W</b>ord and <i>it</i>alic, <a href=x>AT&amp;T</a>s</p>')).toBe('Word and italic, AT&Ts');
  });
  it('separates blocks across a line break or block boundary that is not a block break', () => {
    expect(textOf('<p><span>one</span><br><span>two</span></p>')).toMatch(/^one\s+two$/);
    expect(textOf('<span>left</span><div><span>right</span></div>')).toMatch(/^left\s+right$/);
  });
  it('separates kept blocks whose neighbour in between was dropped', () => {
    expect(textOf('<p><span>first</span><a href=x>menu</a><span>last</span></p>', [1, 0, 1])).toBe('first last');
  });
  it('keeps a space at the end of nested inline tags (the block is the top of a merged chain)', () => {
    expect(textOf('<p>Pick: <em><strong><a href="#">Red Book</a></strong> </em>by Ann Lee.</p>')).toBe('Pick: Red Book by Ann Lee.');
  });
  it('keeps a space at the start of nested inline tags', () => {
    expect(textOf('<p>Please read<em> <a href="#">the guide</a></em> first.</p>')).toBe('Please read the guide first.');
    expect(textOf('<p><span>Does it work?</span><a href="#"> <span>Learn more</span></a></p>')).toBe('Does it work? Learn more');
  });
  it('still runs on a word split across a chain with no whitespace', () => {
    expect(textOf('<p>un<em><strong>believ</strong></em>able</p>')).toBe('unbelievable');
  });
  it('separates two sentences that only CSS shows apart (spans laid out as blocks)', () => {
    expect(textOf('<p><span>Crews worked under the street.</span><span>Credit Ann Lee</span></p>')).toBe(
      'Crews worked under the street. Credit Ann Lee',
    );
    expect(textOf('<div><span>Is it safe?</span><span>The studies say it is, for most of them.</span></div>')).toBe(
      'Is it safe? The studies say it is, for most of them.',
    );
    expect(textOf('<p><span>“We are done.”</span><span>He left the room.</span></p>')).toBe('“We are done.” He left the room.');
  });
  it('separates a label from the capitalised words after it (a name over its role, a card title over its text)', () => {
    expect(textOf('<div><span>Tony Barbone</span><span>Chief Revenue Officer</span></div>')).toBe('Tony Barbone Chief Revenue Officer');
    expect(textOf('<a href="/x"><h3>AI agents</h3><span>Automate most of the work.</span></a>')).toMatch(/^AI agents\s+Automate most/);
    expect(textOf('<p>said MIT Sloan professor<a href="/m">Thomas W. Malone</a>, the founder</p>')).toBe(
      'said MIT Sloan professor Thomas W. Malone, the founder',
    );
  });
  it('leaves a footnote mark, a lower-case run-on, a word split by markup, a dotted name and code attached', () => {
    expect(textOf('<p>It was signed into law.<sup>3</sup> Then more.</p>')).toBe('It was signed into law.3 Then more.');
    expect(textOf('<p><span>See the site.</span><span>com for more</span></p>')).toBe('See the site.com for more');
    expect(textOf('<p>Watch it on You<span>Tube</span> or Mac<b>Book</b>s.</p>')).toBe('Watch it on YouTube or MacBooks.');
    expect(textOf('<dt><span>json.</span><span>JSONDecoder</span>(<em>hook</em>)</dt>')).toBe('json.JSONDecoder(hook)');
    expect(textOf('<p><code><span>Done. </span><span>x.</span><span>Value is set</span></code></p>')).toBe('Done. x.Value is set');
    expect(textOf('<p><code><span>the value</span><span>Map of pairs</span></code></p>')).toBe('the valueMap of pairs');
  });
});

describe('lines of one paragraph (<br>)', () => {
  it('gives one <br> a line break and two or more a paragraph break', () => {
    expect(textOf('<div>Lorem ipsum<br>dolor sit<br> <br><br>amet, consectetur<br/>\n  adipisicing elit</div>')).toBe(
      'Lorem ipsum\ndolor sit\n\namet, consectetur\nadipisicing elit',
    );
  });
  it('finds the <br> after inline markup and before a line that starts with a link', () => {
    expect(textOf('<p><b>Ann Lee</b><br><a href="/x">12 Main Street</a>, Springfield<br><!-- c -->USA</p>')).toBe(
      'Ann Lee\n12 Main Street, Springfield\nUSA',
    );
  });
  it('keeps a paragraph break between blocks, and where a dropped line lay between two kept ones', () => {
    expect(textOf('<p>one</p><p>two</p>')).toBe('one\n\ntwo');
    expect(textOf('<p>first line<br>menu<br>last line</p>', [1, 0, 1])).toBe('first line\n\nlast line');
  });
});

describe('text of preformatted blocks, tables and invisible characters', () => {
  it('keeps the line breaks and indentation of <pre>', () => {
    expect(textOf('<p>Run:</p><pre>def f(x):\n    return x\n\nprint(f(1))\n</pre><p>Done.</p>')).toBe(
      'Run:\n\ndef f(x):\n    return x\n\nprint(f(1))\n\nDone.',
    );
  });
  it('keeps the lines of a highlighted <pre> whose lines are spans, and <br> inside it', () => {
    const body = '<pre><code><span class="k">import</span> os\n<span class="k">print</span>(os.sep)<br><span>x</span> = 1</code></pre>';
    expect(textOf(body)).toBe('import os\nprint(os.sep)\nx = 1');
  });
  it('drops soft hyphens and zero-width spaces, keeps zero-width joiners', () => {
    expect(textOf('<p>Donau\u00addampf\u00adschiff and zero\u200bwidth \ufeffbom word\u2060joiner 👩\u200d💻</p>')).toBe(
      'Donaudampfschiff and zerowidth bom wordjoiner 👩\u200d💻',
    );
    expect(textOf('<p>Before</p><p>\u200b</p><p>After</p>')).toBe('Before\n\nAfter'); // an invisible block keeps its break
  });
  it('writes a data table one row per line with tab-separated cells', () => {
    const body = '<p>Prices:</p><table><tr><th>Model</th><th>Price</th></tr><tr><td>Alpha <b>One</b></td><td>10 EUR</td></tr>' +
      '<tr><td>Beta</td><td>12 EUR</td></tr></table><p>After.</p>';
    expect(textOf(body)).toBe('Prices:\n\nModel\tPrice\nAlpha One\t10 EUR\nBeta\t12 EUR\n\nAfter.');
  });
  it('leaves a layout table whose cells hold paragraphs as paragraphs', () => {
    expect(textOf('<table><tr><td><p>First paragraph.</p><p>Second.</p></td><td><p>Side.</p></td></tr></table>')).toBe(
      'First paragraph.\n\nSecond.\n\nSide.',
    );
  });
});

describe('countWords', () => {
  it('counts runs of Unicode letters, digits and underscore like /[\\p{L}\\p{N}_]+/gu', () => {
    for (const s of ['', 'one two  three', 'héllo wörld', 'snake_case-and-kebab', '日本語 テキスト', '𝐀𝐁𝐂 def', 'x\u0301y', 'emoji 😀 ok']) {
      expect(countWords(s), s).toBe((s.match(/[\p{L}\p{N}_]+/gu) ?? []).length);
    }
  });
});
