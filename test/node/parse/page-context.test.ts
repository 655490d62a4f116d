// Page features of the second stage (src/core/features/page-context.ts): computed from the page and first-pass probabilities.
import { describe, expect, it } from 'vitest';
import { computeFeatures } from '../../../src/core/features/features.js';
import { computePageFeatures, pageFeatureNames } from '../../../src/core/features/page-context.js';
import { parsePage } from '../../../src/core/blocks/page.js';
import type { PageKind } from '../../../src/types.js';

const ARTICLE = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} of the story has enough words to count as real prose here.</p>`).join('');
const TEASERS = Array.from({ length: 5 }, (_, i) => `<li class="card"><a href="/s${i}"><h3>Other story number ${i} about things</h3></a></li>`).join('');
const HTML =
  `<body><nav><a href="/">Home</a><a href="/news">News</a></nav><main><article>${ARTICLE}</article></main>` +
  `<aside><ul class="related">${TEASERS}</ul></aside><footer><p>Paragraph 0 of the story has enough words to count as real prose here.</p></footer></body>`;

/** Page features of HTML with first-pass probability `pOf(text)` per block, as name -> values by block. */
function pageFeatures(pOf: (text: string) => number, kinds: readonly PageKind[] = []) {
  const page = parsePage(HTML);
  const first = computeFeatures(page, 'pith');
  const probs = new Float32Array(page.blocks.length * 2); // [nBlocks, 2]
  page.blocks.forEach((b, i) => {
    const p = pOf(b.text);
    probs[i * 2] = 1 - p;
    probs[i * 2 + 1] = p;
  });
  const out = computePageFeatures(page, first, probs, kinds);
  const names = pageFeatureNames();
  const col = (name: string): number[] => {
    const j = names.indexOf(name);
    expect(j, name).toBeGreaterThanOrEqual(0);
    return page.blocks.map((_, i) => out[i * names.length + j]);
  };
  return { page, out, names, col };
}

describe('page features (second stage)', () => {
  it('has one row of finite values per block', () => {
    const { page, out, names } = pageFeatures(() => 0.5);
    expect(out.length).toBe(page.blocks.length * names.length);
    expect(out.every(Number.isFinite)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('finds the dominant content region and places blocks before, inside and after it', () => {
    const { page, col } = pageFeatures((t) => (t.startsWith('Paragraph') ? 0.95 : 0.3));
    const inRegion = col('in_region');
    const before = col('before_region');
    const distance = col('log(region_block_distance)');
    const texts = page.blocks.map((b) => b.text);
    const home = texts.indexOf('Home');
    const first = texts.findIndex((t) => t.startsWith('Paragraph 1'));
    const teaser = texts.findIndex((t) => t.startsWith('Other story number 4'));
    const footer = texts.length - 1;
    expect(inRegion[first]).toBe(1);
    expect(inRegion[home]).toBe(-1);
    expect(before[home]).toBe(1);
    expect(inRegion[teaser]).toBe(-1);
    expect(before[teaser]).toBe(-1);
    expect(distance[teaser]).toBeGreaterThan(0);
    expect(distance[first]).toBe(0);
    // the footer repeats paragraph 0: a near-duplicate whose other copy is more likely
    expect(col('near_duplicate')[footer]).toBe(1);
    expect(col('near_duplicate')[teaser]).toBe(-1);
  });

  it('sees repeated cards and the probability of their class path', () => {
    const { page, col } = pageFeatures((t) => (t.startsWith('Other') ? 0.8 : 0.5));
    const texts = page.blocks.map((b) => b.text);
    const teaser = texts.findIndex((t) => t.startsWith('Other story number 2'));
    const first = texts.findIndex((t) => t.startsWith('Paragraph 1'));
    expect(col('log(sibling_repeat)')[teaser]).toBeCloseTo(Math.log(5), 5);
    expect(col('class_path_mean_p')[teaser]).toBeCloseTo(0.8, 5);
    expect(col('log(sibling_repeat)')[first]).toBeCloseTo(Math.log(6), 5); // six paragraphs: the same repeat signal
  });

  it('follows the probabilities: windows and page totals', () => {
    const low = pageFeatures(() => 0.1);
    const high = pageFeatures(() => 0.9);
    expect(high.col('window_mean_p_5')[3]).toBeCloseTo(0.9, 5);
    expect(low.col('window_mean_p_50')[3]).toBeCloseTo(0.1, 5);
    expect(high.col('page_kept_block_share')[0]).toBe(1);
    expect(low.col('page_kept_block_share')[0]).toBe(0);
  });

  it('carries what the page declares itself to be, the same for every block', () => {
    const none = pageFeatures(() => 0.5);
    const product = pageFeatures(() => 0.5, ['product']);
    const both = pageFeatures(() => 0.5, ['article', 'discussion']);
    for (const i of [0, 4]) {
      expect(none.col('declares_product')[i]).toBe(-1);
      expect(product.col('declares_product')[i]).toBe(1);
      expect(product.col('declares_article')[i]).toBe(-1);
      expect(both.col('declares_article')[i]).toBe(1);
      expect(both.col('declares_discussion')[i]).toBe(1);
      expect(both.col('declares_listing')[i]).toBe(-1);
    }
  });
});
