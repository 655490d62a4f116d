import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/core/blocks/page.js';
import { FEATURE_SCHEMA, computeFeatures, featureNames } from '../../../src/core/features/features.js';
import type { FeatureSetName } from '../../../src/types.js';

const z = (v: number, mu: number, sigma: number): number => (v - mu) / sigma;

/** Feature value accessor: unary(i, name) / edge(i, name). */
function featuresOf(html: string, set: FeatureSetName) {
  const page = parsePage(html);
  const f = computeFeatures(page, set);
  const names = featureNames(set);
  const u = (i: number, name: string): number => {
    const k = names.unary.indexOf(name);
    if (k < 0) throw new Error(`no unary feature ${name}`);
    return f.unary[i * names.unary.length + k];
  };
  const e = (i: number, name: string): number => {
    const k = names.edge.indexOf(name);
    if (k < 0) throw new Error(`no edge feature ${name}`);
    return f.edge[i * names.edge.length + k];
  };
  return { page, f, u, e };
}

// Blocks: 0 "Hello world" [p,#text] (parent div), 1 "in 2019 " [#text] and 2 "read more" [a,#text] (parent p),
// 3 "Hello world" [p,#text] (parent body). Text positions [0,11) [11,19) [19,28) [28,39).
const PAGE =
  '<html><head><title>Hello there</title></head><body><div><p>Hello world</p><p>in 2019 <a href="#">read more</a></p></div>' +
  '<p>Hello world</p></body></html>';

describe('paper feature set (docs/design.md, Features)', () => {
  it('has 128 block and 25 edge features, in the reference order', () => {
    const n = featureNames('paper');
    expect(n.unary).toHaveLength(128);
    expect(n.edge).toHaveLength(25);
    expect(new Set(n.unary).size).toBe(128);
    expect(new Set(n.edge).size).toBe(25);
    expect(n.unary.slice(0, 4)).toEqual(['has_duplicate', 'has_10_duplicates', 'n_same_class_path', 'has_word']);
    expect(n.unary[27]).toBe('has_p');
    expect(n.unary[48]).toBe('p_tag_td');
    expect(n.unary[62]).toBe('p_tag_ul_dup');
    expect(n.unary[68]).toBe('has_gp');
    expect(n.unary[89]).toBe('root_body_percentage');
    expect(n.unary[109]).toBe('tag_a');
    expect(n.unary[127]).toBe('tag_blockquote');
    expect(n.edge.slice(0, 5)).toEqual(['tree_distance_2', 'tree_distance_3', 'tree_distance_4', 'tree_distance_more', 'block_break']);
    expect(n.edge[5]).toBe('common_ancestor_body_percentage');
    expect(FEATURE_SCHEMA.paper).toMatch(/^paper-/);
  });

  it('computes arrays of the right shape', () => {
    const { f } = featuresOf(PAGE, 'paper');
    expect(f.nBlocks).toBe(4);
    expect(f.unary).toBeInstanceOf(Float32Array);
    expect(f.unary.length).toBe(4 * 128);
    expect(f.edge.length).toBe(3 * 25);
    const one = computeFeatures(parsePage('<p>only</p>'), 'paper');
    expect(one.edge.length).toBe(0);
    const none = computeFeatures(parsePage(''), 'pith');
    expect(none.nBlocks).toBe(0);
    expect(none.unary.length).toBe(0);
  });

  it('duplicate counts', () => {
    const { u } = featuresOf(PAGE, 'paper');
    expect(u(0, 'has_duplicate')).toBe(1);
    expect(u(3, 'has_duplicate')).toBe(1);
    expect(u(1, 'has_duplicate')).toBe(-1);
    expect(u(0, 'has_10_duplicates')).toBe(-1);
    expect(u(0, 'n_same_class_path')).toBe(0); // integer division: 1 / 4
    const same = featuresOf('<body><p>a</p><p>b</p></body>', 'paper');
    expect(same.u(0, 'n_same_class_path')).toBe(1); // both leaves have selector [p,#text] [body]
    const many = featuresOf(`<body>${'<p>x</p>'.repeat(11)}<p>y</p></body>`, 'paper');
    expect(many.u(0, 'has_10_duplicates')).toBe(1);
    expect(many.u(11, 'has_10_duplicates')).toBe(-1);
  });

  it('class selectors are equal when their strings are, commas and dots in class names included', () => {
    // "div,i.x,b,#text" twice: a class "x,b" on one <i>, a <b> inside <i class="x"> in the other.
    const comma = computeFeatures(parsePage('<body><div><i class="x,b">one</i></div><div><i class="x"><b>two</b></i></div></body>'), 'paper');
    expect(comma.selectorIds[0]).toBe(comma.selectorIds[1]);
    // "i.x.y,#text" twice: classes "x y" and "x.y".
    const dot = computeFeatures(parsePage('<body><i class="x y">one</i><i class="x.y">two</i></body>'), 'paper');
    expect(dot.selectorIds[0]).toBe(dot.selectorIds[1]);
    const other = computeFeatures(parsePage('<body><i class="x y">one</i><i class="y x">two</i></body>'), 'paper');
    expect(other.selectorIds[0]).not.toBe(other.selectorIds[1]);
  });

  it('leaf features', () => {
    const { u } = featuresOf(PAGE, 'paper');
    expect(u(0, 'has_word')).toBeCloseTo(z(1, 0.8255, 0.5643817), 5);
    expect(u(0, 'log(n_words)')).toBeCloseTo(z(Math.log(2), 1.5086, 1.205), 5);
    expect(u(0, 'avg_word_length [3,15]')).toBeCloseTo(z(5, 4.910001, 1.905709), 5);
    expect(u(0, 'has_stopword')).toBe(-1);
    expect(u(0, 'stopword_ratio')).toBeCloseTo(z(0, 0.374, 0.1529), 5);
    expect(u(0, 'log(n_characters) [2.5,5.5]')).toBeCloseTo(z(2.5, 3.392, 1.06445), 5); // ln 11 < 2.5 clips
    expect(u(0, 'relative_position')).toBeCloseTo(z(5.5 / 39, 0.5198038, 0.2996195), 5);
    expect(u(0, 'relative_position^2')).toBeCloseTo(z((5.5 / 39) ** 2, 0.3599672, 0.3157282), 5);
    // block 1: "in 2019" (trimmed): 2 words, 1 stop word, 4 digits of 7 characters.
    expect(u(1, 'stopword_ratio')).toBeCloseTo(z(0.5, 0.374, 0.1529), 5);
    expect(u(1, 'contains_year')).toBe(1);
    expect(u(0, 'contains_year')).toBe(-1);
    expect(u(1, 'numeric_ratio')).toBeCloseTo(z(4 / 7, 0.2655969, 0.3052819), 5);
    expect(u(1, 'avg_word_length [3,15]')).toBeCloseTo(z(3, 4.910001, 1.905709), 5); // 6 int/ 2 = 3
    expect(u(1, 'log(avg_sentence_length) [2,5]')).toBeCloseTo(z(2, 3.109, 1.011), 5); // ln 7 < 2 clips
    expect(u(0, 'ratio_words_with_capital')).toBeCloseTo(z(0.5, 0.4475758, 0.4129316), 5);
  });

  it('integer division in avg_word_length and avg_sentence_length', () => {
    const { u } = featuresOf('<body><p>abcd efg</p><p>x</p></body>', 'paper');
    // total 7 int/ 2 words = 3, not 3.5
    expect(u(0, 'avg_word_length [3,15]')).toBeCloseTo(z(3, 4.910001, 1.905709), 5);
  });

  it('parent features (level 1, with parent tags)', () => {
    const { u } = featuresOf(PAGE, 'paper');
    expect(u(2, 'has_p')).toBe(1);
    expect(u(2, 'p_link_density')).toBeCloseTo(z(9 / 16, 0.5, 0.5), 5);
    expect(u(2, 'p_body_percentage')).toBe(0); // 17 int/ 39
    expect(u(2, 'p_contains_year')).toBe(1);
    expect(u(2, 'p_tag_p')).toBe(1);
    expect(u(2, 'p_tag_div')).toBe(-1);
    expect(u(3, 'p_tag_body')).toBe(1);
    expect(u(2, 'p_tag_ul')).toBe(-1);
    expect(u(2, 'p_tag_ul_dup')).toBe(-1);
    const list = featuresOf('<body><ul><li>a</li><li>b</li></ul><p>c</p></body>', 'paper');
    expect(list.u(0, 'p_tag_ul')).toBe(1);
    expect(list.u(0, 'p_tag_ul_dup')).toBe(1);
  });

  it('grandparent features, zeros when missing', () => {
    const { u } = featuresOf(PAGE, 'paper');
    expect(u(2, 'has_gp')).toBe(1);
    expect(u(2, 'gp_body_percentage')).toBe(0); // 28 int/ 39
    expect(u(2, 'gp_contains_year')).toBe(1);
    expect(u(2, 'gp_link_density')).toBeCloseTo(z(9 / 27, 0.5, 0.5), 5);
    expect(u(3, 'has_gp')).toBe(0);
    expect(u(3, 'gp_contains_year')).toBe(0);
    expect(u(3, 'gp_link_density')).toBe(0);
  });

  it('root features', () => {
    const { u } = featuresOf(PAGE, 'paper');
    for (let i = 0; i < 4; i++) {
      expect(u(i, 'root_body_percentage')).toBe(1);
      expect(u(i, 'root_contains_year')).toBe(1);
      expect(u(i, 'root_log(n_characters) [2.5,10]')).toBeCloseTo(z(Math.log(38), 6, 2.14), 5);
      expect(u(i, 'root_contains_form_element')).toBe(-1);
    }
  });

  it('leaf tag features', () => {
    const { u } = featuresOf(PAGE, 'paper');
    expect(u(2, 'tag_a')).toBe(1);
    expect(u(2, 'tag_p')).toBe(-1);
    expect(u(0, 'tag_p')).toBe(1);
    expect(u(1, 'tag_p')).toBe(-1);
  });

  it('edge features: tree distance, block break, common ancestor', () => {
    const { e } = featuresOf(PAGE, 'paper');
    // (0,1): LCA div, depths 2 and 3 -> distance 3
    expect([e(0, 'tree_distance_2'), e(0, 'tree_distance_3'), e(0, 'tree_distance_4'), e(0, 'tree_distance_more')]).toEqual([-1, 1, -1, -1]);
    expect(e(0, 'block_break')).toBe(1);
    // (1,2): siblings under p -> distance 2, no block break, LCA is the p
    expect(e(1, 'tree_distance_2')).toBe(1);
    expect(e(1, 'block_break')).toBe(0);
    expect(e(1, 'common_ancestor_link_density')).toBeCloseTo(z(9 / 16, 0.5, 0.5), 5);
    expect(e(1, 'common_ancestor_contains_year')).toBe(1);
    // (2,3): LCA body, depths 3 and 1 -> distance 4; the p's break propagated to its last leaf
    expect(e(2, 'tree_distance_4')).toBe(1);
    expect(e(2, 'block_break')).toBe(1);
    expect(e(2, 'common_ancestor_body_percentage')).toBe(1);
    const deep = featuresOf('<body><div><p>a</p><div><p>b</p><div><p>c</p><p>d</p></div></div></div><p>e</p></body>', 'paper');
    expect(deep.e(3, 'tree_distance_more')).toBe(1); // d at depth 4, e at depth 1, LCA body
    expect(deep.e(3, 'tree_distance_4')).toBe(-1);
  });
});

describe('pith feature set', () => {
  it('is a superset of the paper set with unique names', () => {
    const paper = featureNames('paper');
    const pith = featureNames('pith');
    for (const n of paper.unary) expect(pith.unary).toContain(n);
    for (const n of paper.edge) expect(pith.edge).toContain(n);
    expect(new Set(pith.unary).size).toBe(pith.unary.length);
    expect(new Set(pith.edge).size).toBe(pith.edge.length);
    expect(pith.unary.length).toBeGreaterThan(128);
    expect(pith.edge.length).toBeGreaterThan(25);
    expect(FEATURE_SCHEMA.pith).toMatch(/^pith-/);
  });

  it('computes arrays of the right shape, all finite', () => {
    const { f } = featuresOf(PAGE, 'pith');
    const names = featureNames('pith');
    expect(f.unary.length).toBe(4 * names.unary.length);
    expect(f.edge.length).toBe(3 * names.edge.length);
    for (const v of f.unary) expect(Number.isFinite(v)).toBe(true);
    for (const v of f.edge) expect(Number.isFinite(v)).toBe(true);
  });

  it('uses float ratios and Unicode words', () => {
    const { u } = featuresOf('<body><p>abcd efg</p><p>Über die Brücke</p></body>', 'pith');
    expect(u(0, 'avg_word_length [3,15]')).toBeCloseTo(3.5, 5);
    expect(u(1, 'log(n_words)')).toBeCloseTo(Math.log1p(3), 5);
    expect(u(1, 'stopword_ratio')).toBeCloseTo(2 / 3, 5); // "über", "die" (German, lower-cased)
    expect(u(0, 'n_same_class_path')).toBeCloseTo(1, 5);
  });

  it('has leaf link density, ancestor tags, roles, class words and hidden flags', () => {
    const html =
      '<body><nav role="navigation"><ul><li><a href="/">Home</a></li><li><a href="/b">Blog</a></li></ul></nav>' +
      '<main><article><h2>Hello there</h2><p>Body text here.</p></article>' +
      '<div class="comment-list"><div><p>A comment</p></div></div></main>' +
      '<div style="display: none"><p>hidden text</p></div></body>';
    const { page, u } = featuresOf(html, 'pith');
    expect(page.title).toBeNull();
    const idx = (t: string) => page.blocks.findIndex((b) => b.text === t);
    expect(u(idx('Home'), 'leaf_link_density')).toBe(1);
    expect(u(idx('Body text here.'), 'leaf_link_density')).toBe(0);
    expect(u(idx('Home'), 'anc_nav')).toBe(1);
    expect(u(idx('Home'), 'role_navigation')).toBe(1);
    expect(u(idx('Body text here.'), 'anc_nav')).toBe(-1);
    expect(u(idx('Body text here.'), 'anc_main')).toBe(1);
    expect(u(idx('Body text here.'), 'anc_article')).toBe(1);
    expect(u(idx('Hello there'), 'heading_level')).toBeCloseTo(5 / 6, 5);
    expect(u(idx('A comment'), 'cls_comment')).toBeCloseTo(1 / 3, 5); // p (0) -> div (1) -> div.comment-list (2)
    expect(u(idx('Body text here.'), 'cls_comment')).toBe(0);
    expect(u(idx('hidden text'), 'hidden')).toBe(1);
    expect(u(idx('A comment'), 'hidden')).toBe(-1);
  });

  it('marks hidden blocks, whatever hides them, and never makes blocks of a template (issue 10)', () => {
    const html =
      '<body><article><p>The article text that is shown on the page.</p></article>' +
      '<div style="display:none"><p>The article text that is shown on the page.</p></div>' +
      '<div hidden><p>attribute hidden</p></div><div aria-hidden="true"><span>aria hidden</span></div>' +
      '<div class="tab d-none"><p>class hidden</p></div><div class="hidden-xs"><p>responsive, shown</p></div>' +
      '<template><p>template text</p></template></body>';
    const { page, u } = featuresOf(html, 'pith');
    const texts = page.blocks.map((b) => b.text);
    expect(texts).not.toContain('template text');
    const idx = (t: string) => texts.indexOf(t);
    expect(u(0, 'hidden')).toBe(-1);
    expect(u(1, 'hidden')).toBe(1); // inline style
    expect(u(idx('attribute hidden'), 'hidden')).toBe(1);
    expect(u(idx('aria hidden'), 'hidden')).toBe(1);
    expect(u(idx('class hidden'), 'hidden')).toBe(1);
    expect(u(idx('responsive, shown'), 'hidden')).toBe(-1);
    // schema pith-3: the per-kind and page-level visibility features of pith-2 are gone (CHANGELOG.md)
    const names = featureNames('pith').unary;
    for (const gone of ['hidden_style', 'hidden_attr', 'aria_hidden', 'hidden_class', 'page_hidden_share', 'hidden_copy_of_visible']) {
      expect(names).not.toContain(gone);
    }
  });

  it('marks where a comment section begins or ends between two blocks (issue 10)', () => {
    const html =
      '<body><article><p>Story text of the article goes here.</p></article>' +
      '<section id="comments"><div class="c"><p>Ann says:</p><p>Great piece, thanks.</p><a href="#r">Reply</a></div>' +
      '<div class="c"><p>Bob wrote:</p><p>I disagree with this.</p><a href="#r">Reply</a></div></section>' +
      '<div itemprop="comment"><p>Structured comment</p></div><p>After the comments.</p></body>';
    const { page, e } = featuresOf(html, 'pith');
    const idx = (t: string) => page.blocks.findIndex((b) => b.text === t);
    expect(e(0, 'comment_change')).toBe(1); // article -> first comment
    expect(e(1, 'comment_change')).toBe(-1); // within the comments
    expect(e(idx('After the comments.') - 1, 'comment_change')).toBe(1); // comments -> page
    const names = featureNames('pith').unary;
    for (const gone of ['comment_section', 'comment_depth', 'page_comment_share', 'reply_like', 'says_like']) {
      expect(names).not.toContain(gone);
    }
  });

  it('has the patent features: depth, counted child tags, text density, title overlap', () => {
    const html = '<html><head><title>Big news today</title></head><body><div><p>Big news</p><img src=x><span>other words</span></div></body></html>';
    const { u, page } = featuresOf(html, 'pith');
    expect(page.title).toBe('Big news today');
    expect(u(0, 'title_overlap')).toBe(1);
    expect(u(1, 'title_overlap')).toBe(0);
    expect(u(0, 'log(parent_counted_child_tags)')).toBeCloseTo(Math.log1p(0), 5); // p has only text
    // raw parent of "other words" is span; the div counts p, img, span = 3 but that is the grandparent level
    expect(u(0, 'log(raw_depth)')).toBeCloseTo(Math.log1p(3), 5); // body > div > p > #text
    expect(u(0, 'parent_text_density')).toBeCloseTo(1, 5); // parent is the root
  });

  it('pith edge features', () => {
    const { e } = featuresOf(PAGE, 'pith');
    expect(e(1, 'same_parent')).toBe(1);
    expect(e(0, 'same_parent')).toBe(-1);
    expect(e(1, 'link_change')).toBe(1);
    expect(e(1, 'log(tree_distance)')).toBeCloseTo(Math.log1p(2), 5);
  });
});
