import { describe, expect, it } from 'vitest';
import { elementKeys, repeatsParagraph } from '../../../dev/fidelity.js';

const P = 'Did you know? Most readers see a quoted paragraph once, even when the page wraps it in a blockquote element.';
const Q = 'A second paragraph of the article that is long enough to be counted by the repeated-paragraph check at all.';

describe('repeatsParagraph', () => {
  it('counts a paragraph inside a blockquote once (the quote is not a paragraph of its own)', () => {
    expect(repeatsParagraph(`<blockquote><p>${P}</p></blockquote><p>${Q}</p>`, `${P}\n\n${Q}`)).toBe(false);
  });
  it('still finds a paragraph shown twice that the reference has once', () => {
    expect(repeatsParagraph(`<p>${P}</p><blockquote><p>${P}</p></blockquote>`, P)).toBe(true);
    expect(repeatsParagraph(`<p>${Q}</p><p>${Q}</p>`, Q)).toBe(true);
  });
  it('keeps a repeat the reference has as often', () => {
    expect(repeatsParagraph(`<p>${Q}</p><p>${Q}</p>`, `${Q}\n\n${Q}`)).toBe(false);
  });
});

describe('elementKeys: headings', () => {
  it('leaves a permalink anchor out of the heading text', () => {
    const keys = elementKeys('<h2><a href="#id5">Setting up</a><a href="#setting-up" title="Permalink">¶</a></h2><h3>Usage <a href="#usage">#</a></h3>');
    expect(keys.headings).toEqual(['Setting up', 'Usage']);
  });
  it('keeps a mark that is part of the text, or a link that leaves the page', () => {
    const keys = elementKeys('<h2>Clause § 4</h2><h2>C# <a href="https://example.com/c">#</a></h2>');
    expect(keys.headings).toEqual(['Clause § 4', 'C# #']);
  });
});
