import { describe, expect, it } from 'vitest';
import { PithError } from '../../../src/errors.js';
import { estimateNestingDepth } from '../../../src/parse/nesting.js';
import { parsePage } from '../../../src/parse/page.js';

describe('estimateNestingDepth', () => {
  it('counts nested elements and forgets closed ones', () => {
    expect(estimateNestingDepth('<div><div><span>a</span></div><div>b</div></div>')).toBe(3);
  });
  it('does not count void elements, optional-end-tag elements, comments or raw text', () => {
    const html = '<body>' + '<p>x'.repeat(500) + '<ul>' + '<li>y'.repeat(500) + '</ul><br><img src=a>' +
      '<!-- <div><div><div> --><script>"<div><div><div>"</script><div/></body>';
    expect(estimateNestingDepth(html)).toBe(1);
  });
  it('counts unclosed elements', () => {
    expect(estimateNestingDepth('<div><section><article>text')).toBe(3);
  });
});

describe('parsePage nesting limit', () => {
  it('refuses a hostile deeply nested page before parsing it, with a code that says why', () => {
    const n = 300_000;
    const html = '<html><body>' + '<div>'.repeat(n) + 'x' + '</div>'.repeat(n) + '</body></html>';
    let error: unknown;
    try {
      parsePage(html);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PithError);
    expect((error as PithError).code).toBe('input_too_large');
    expect((error as PithError).message).toContain('maxNestingDepth');
  });
  it('accepts pages just under the limit and honours a lower limit', () => {
    const html = '<body>' + '<div>'.repeat(100) + 'deep text' + '</div>'.repeat(100) + '</body>';
    expect(parsePage(html).blocks.map((b) => b.text.trim())).toEqual(['deep text']);
    expect(() => parsePage(html, { limits: { maxNestingDepth: 50 } })).toThrow(/nests elements more than 50 deep/);
  });
});
