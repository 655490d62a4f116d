// Page features of the second stage (src/core/features/page-context.ts): computed from the page and first-pass probabilities.
import { describe, expect, it } from 'vitest';
import { computeFeatures } from '../../../src/core/features/features.js';
import { computePageFeatures, pageFeatureNames, pageSchemaOf } from '../../../src/core/features/page-context.js';
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
  const out = computePageFeatures(page, first, probs, { kinds, title: null });
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

// A news page: the headline, the story, a rail of teasers to other stories of the site, a comment thread.
const STORY = Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i} of the story has enough words to count as real prose here.</p>`).join('');
const RAIL = Array.from(
  { length: 4 },
  (_, i) => `<li class="teaser"><a href="/news/2024/05/other-story-number-${i}">Other story number ${i} about the town</a><span>A short summary</span></li>`,
).join('');
const THREAD = Array.from(
  { length: 3 },
  (_, i) =>
    `<div class="c"><a href="/users/${i}">Reader${i}</a><span>May ${i + 3}, 2024</span>` +
    `<p>Comment ${i} says something long enough about this story to be a real text.</p><a href="#c${i}">Reply</a></div>`,
).join('');
const NEWS =
  `<body><nav><a href="/">Home</a><a href="https://elsewhere.org/some-long-article-slug-here">Partner</a></nav>` +
  `<main><h1>The headline of this story today</h1><article>${STORY}</article></main>` +
  `<aside><ul>${RAIL}</ul></aside><section>${THREAD}</section></body>`;

function newsFeatures(title: string | null) {
  const page = parsePage(NEWS, { url: 'https://www.example.com/news/2024/05/the-headline' });
  const first = computeFeatures(page, 'pith');
  const probs = new Float32Array(page.blocks.length * 2); // [nBlocks, 2]
  page.blocks.forEach((b, i) => {
    const p = b.text.startsWith('Paragraph') ? 0.95 : 0.3;
    probs[i * 2] = 1 - p;
    probs[i * 2 + 1] = p;
  });
  const facts = { kinds: ['article'] as const, title, url: 'https://www.example.com/news/2024/05/the-headline' };
  const out = computePageFeatures(page, first, probs, facts, 'page-4');
  const names = pageFeatureNames('page-4');
  // page-3 is the first columns of page-4, the same values
  const narrow = computePageFeatures(page, first, probs, facts, 'page-3');
  const n3 = pageFeatureNames('page-3').length;
  for (let i = 0; i < page.blocks.length; i++) {
    for (let j = 0; j < n3; j++) expect(narrow[i * n3 + j]).toBe(out[i * names.length + j]);
  }
  const texts = page.blocks.map((b) => b.text.trim());
  const col = (name: string): number[] => {
    const j = names.indexOf(name);
    expect(j, name).toBeGreaterThanOrEqual(0);
    return page.blocks.map((_, i) => out[i * names.length + j]);
  };
  const at = (prefix: string): number => {
    const i = texts.findIndex((t) => t.startsWith(prefix));
    expect(i, prefix).toBeGreaterThanOrEqual(0);
    return i;
  };
  return { col, at };
}

describe('page features of a news page', () => {
  it('come in schemas, each the one before it and more, told apart by their names', () => {
    const n3 = pageFeatureNames('page-3');
    const n4 = pageFeatureNames('page-4');
    expect(n3.length).toBe(56);
    expect(n4.slice(0, n3.length)).toEqual(n3);
    expect(pageSchemaOf(n3)).toBe('page-3');
    expect(pageSchemaOf(n4)).toBe('page-4');
    expect(pageSchemaOf(n4.slice(0, 60))).toBeUndefined();
  });

  it('tell where links point: the site, its article-shaped pages, elsewhere', () => {
    const { col, at } = newsFeatures(null);
    const teaser = at('Other story number 2');
    expect(col('link_internal')[teaser]).toBe(1);
    expect(col('link_article_path')[teaser]).toBe(1);
    expect(col('link_headline')[teaser]).toBe(1);
    expect(col('link_internal')[at('Home')]).toBe(1);
    expect(col('link_article_path')[at('Home')]).toBe(-1);
    expect(col('link_internal')[at('Partner')]).toBe(-1); // another host, however article-shaped
    expect(col('link_internal')[at('Paragraph 1')]).toBe(-1);
    expect(col('gp_article_link_share')[teaser]).toBeGreaterThan(0.5);
    expect(col('gp_article_link_share')[at('Paragraph 1')]).toBe(0);
  });

  it('take odd hrefs for links to elsewhere or nowhere, never failing', () => {
    const odd = ['', '#top', 'javascript:void(0)', 'mailto:a@example.com', '//cdn.other.net/a-b-c-d', 'https://', 'http://www.example.com'];
    const html = `<body><p>${odd.map((h, i) => `<a href="${h}">odd link number ${i} here</a>`).join(' ')}</p><a>no href at all</a></body>`;
    const page = parsePage(html, { url: 'https://example.com/' });
    const first = computeFeatures(page, 'pith');
    const probs = new Float32Array(page.blocks.length * 2).fill(0.5);
    const out = computePageFeatures(page, first, probs, { kinds: [], title: null, url: 'https://example.com/' }, 'page-4');
    const names = pageFeatureNames('page-4');
    const col = (name: string): number[] => page.blocks.map((_, i) => out[i * names.length + names.indexOf(name)]);
    const texts = page.blocks.map((b) => b.text.trim());
    const internal = col('link_internal');
    for (let i = 0; i < odd.length; i++) {
      const j = texts.indexOf(`odd link number ${i} here`);
      expect(j, odd[i]).toBeGreaterThanOrEqual(0);
      expect(internal[j], odd[i]).toBe(odd[i] === 'http://www.example.com' ? 1 : -1); // the site's own home, www. or not
    }
    expect(col('link_article_path').every((v) => v === -1)).toBe(true);
    expect(internal[texts.indexOf('no href at all')]).toBe(-1); // an <a> without href points nowhere
  });

  it('place every block against the headline the metadata names', () => {
    const found = newsFeatures('The headline of this story today');
    const h1 = found.at('The headline');
    expect(found.col('anchor_found')[0]).toBe(1);
    expect(found.col('anchor_offset')[h1]).toBe(0);
    expect(found.col('after_anchor')[found.at('Paragraph 1')]).toBe(1);
    expect(found.col('after_anchor')[found.at('Home')]).toBe(-1);
    expect(found.col('anchor_to_region_end')[found.at('Paragraph 4')]).toBe(1);
    expect(found.col('anchor_to_region_end')[found.at('Comment 1')]).toBe(-1);
    expect(found.col('past_region_end')[found.at('Comment 1')]).toBe(1);
    const missing = newsFeatures('A headline this page does not have');
    expect(missing.col('anchor_found')[0]).toBe(-1);
    expect(missing.col('after_anchor')[missing.at('Paragraph 1')]).toBe(-1);
  });
});

// A hotel story beside a gallery of other stories (Readability.js page bug-1255978's shape): topical coherence.
const HOTEL = [
  'The hotel opened its doors to guests this spring after a long renovation of every room.',
  'Guests of the hotel now find larger rooms, a rooftop pool and a restaurant run by a local chef.',
  'The renovation cost the hotel owners more than they planned, but bookings of rooms are strong.',
  'Hotel managers expect guests from abroad to fill the rooms through the summer season.',
].map((t) => `<p>${t}</p>`).join('');
const GALLERY = [
  'Stock markets fell sharply as investors worried about interest rates',
  'Oil prices climbed after producers agreed to cut output again',
  'Shares of carmakers slumped on weak demand in export markets',
].map((t, i) => `<li class="slide"><figure><figcaption>${t}</figcaption></figure><span>Slide ${i + 1}</span></li>`).join('');
const HOTEL_PAGE = `<body><main><article><h1>The renovated hotel welcomes guests</h1>${HOTEL}</article>` +
  `<section class="gallery"><h2>Business news in pictures</h2><ul>${GALLERY}</ul></section></main></body>`;

describe('page features: topical coherence (page-5)', () => {
  const page = parsePage(HOTEL_PAGE, { url: 'https://example.com/travel/2024/05/renovated-hotel' });
  const first = computeFeatures(page, 'pith');
  const probs = new Float32Array(page.blocks.length * 2);
  page.blocks.forEach((_, i) => {
    probs[i * 2] = 0.4;
    probs[i * 2 + 1] = 0.6;
  });
  const facts = { kinds: ['article'] as const, title: 'The renovated hotel welcomes guests', url: 'https://example.com/travel/2024/05/renovated-hotel' };
  const out = computePageFeatures(page, first, probs, facts, 'page-5');
  const names = pageFeatureNames('page-5');
  const texts = page.blocks.map((b) => b.text.trim());
  const col = (name: string): number[] => page.blocks.map((_, i) => out[i * names.length + names.indexOf(name)]);
  const at = (prefix: string): number => texts.findIndex((t) => t.startsWith(prefix));

  it('is page-4 and more, page-4 unchanged', () => {
    const n4 = pageFeatureNames('page-4');
    expect(names.slice(0, n4.length)).toEqual(n4);
    expect(pageSchemaOf(names)).toBe('page-5');
    const narrow = computePageFeatures(page, first, probs, facts, 'page-4');
    for (let i = 0; i < page.blocks.length; i++) {
      for (let j = 0; j < n4.length; j++) expect(narrow[i * n4.length + j]).toBe(out[i * names.length + j]);
    }
    expect(out.every((v) => Number.isFinite(v))).toBe(true);
  });

  it('tells the story from a gallery of other subjects', () => {
    const story = at('Guests of the hotel');
    const slide = at('Oil prices');
    expect(story).toBeGreaterThanOrEqual(0);
    expect(slide).toBeGreaterThanOrEqual(0);
    for (const name of ['topic_block_sim', 'topic_parent_mean', 'topic_ggp_mean']) expect(col(name)[story], name).toBeGreaterThan(col(name)[slide] + 0.1);
    expect(col('title_parent_sim')[story]).toBeGreaterThan(col('title_parent_sim')[slide]);
    expect(col('page_content_title_sim')[0]).toBeGreaterThan(0);
    expect(col('page_topic_spread')[0]).toBe(col('page_topic_spread')[story]);
  });
});
