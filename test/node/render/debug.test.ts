import { describe, expect, it } from 'vitest';
import { renderDebugHtml } from '../../../src/core/render/debug.js';
import { ARTICLE_PAGE, extractionFromLabels } from './debug-helpers.js';

describe('renderDebugHtml', () => {
  it('lists every block in order with its label, probability and tag chain', () => {
    const { extraction, page } = extractionFromLabels(ARTICLE_PAGE, /Home|News|About|Related|rail apps|©|Privacy/);
    const html = renderDebugHtml(extraction, page);
    const items = [...html.matchAll(/<li class="block (kept|dropped)[^"]*" data-index="(\d+)" data-label="([01])"/g)];
    expect(items.map((m) => Number(m[2]))).toEqual(extraction.blocks.map((b) => b.index));
    for (const m of items) expect(m[1] === 'kept').toBe(m[3] === '1');
    expect(items.some((m) => m[1] === 'kept')).toBe(true);
    expect(items.some((m) => m[1] === 'dropped')).toBe(true);
    expect(html).toContain('li › #text');
    expect(html).toContain('article#story');
    expect(html).toContain('Night trains are back');
    expect(html).toContain('Ada Lovelace');
  });

  it('escapes page text: no markup from the page gets through', () => {
    const { extraction, page } = extractionFromLabels(
      '<html><head><title>&lt;script&gt;alert(1)&lt;/script&gt;</title></head><body><p>&lt;img src=x onerror=alert(1)&gt; and &amp;</p><p class="&quot;&gt;&lt;b&gt;">x</p></body></html>',
      /^$/,
    );
    const html = renderDebugHtml(extraction, page);
    expect(html).not.toMatch(/<script|<img|"><b>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; and &amp;');
    expect(html).toContain('p."&gt;&lt;b&gt;');
  });

  it('has no scripts and no external resources', () => {
    const { extraction, page } = extractionFromLabels(ARTICLE_PAGE, /Home/);
    const html = renderDebugHtml(extraction, page);
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });
});
