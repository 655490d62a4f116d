// Page-level context of every block from the first pass's content probabilities (issue 10): the features of the
// second, page-level net. The same code builds the training set (training/dump-page.ts, on out-of-fold first-pass
// probabilities) and runs at inference (src/core/extract.ts). Pure: page structure and probabilities in, numbers out.
//
// What a block gets, besides its own first-pass probability:
// - wide windows: word-weighted mean probability of the blocks within ±2, ±5, ±15 and ±50, the largest within ±5;
// - the dominant content region: the deepest node of the collapsed DOM that holds at least half of the page's
//   expected content words (sum of p × words), and a looser one holding 80%; whether the block is inside, before or
//   after it, how far in blocks and in tree hops, the region's share of the expected content and of all words;
// - its sections (parent, grandparent, great-grandparent): their mean probability and share of the content;
// - repetition: how often its subtree's tag and class signature repeats among siblings (cards, teasers), and the
//   mean probability and size of all blocks with its tag-and-class path;
// - near-duplicates: another block with the same text up to case and outer spaces, and how much more likely that
//   copy is;
// - page totals: expected content words, their share, the share of blocks kept, the region's span;
// - what the page's structured data declares it to be (PageMetadata.kinds: article, product, discussion, listing),
//   so that the same repeated author-and-date posts can be kept on a forum and dropped under an article or a product;
// - comment sections: whether the block is inside one (class or id words, ARIA role, itemprop, schema.org Comment;
//   parse/context.ts) and the share of the page's words that are, to be weighed with what the page declares;
// - a few first-pass features by name (words, links, hidden, heading, ...);
// - where links point (issue 34): whether the block lies in a link to the page's own site and to an article-shaped
//   page of it (a long slug, an id, a year and month), headline-like link text; the share of its sections' words in
//   such links, how many the great-grandparent holds, and the page's share: teaser lists are links to other articles;
// - the article's anchor: the block of the headline the metadata names (PageFacts.title), the block's offset from it,
//   and whether it lies between it and the end of the dominant region or past that end.
// - topical coherence (page-5, issue 34): the page's expected-content term vector (lower-cased words of 3+ characters
//   that are not stop words, each block's counts weighted by its first-pass p); per block, the cosine between the
//   block's own terms and its parent's, grandparent's and great-grandparent's terms and that vector with their own
//   contribution removed (leave-one-out), the sections' cosine with the metadata title's terms, and page-level
//   figures (the spread of the blocks' similarity, the expected content's coherence and its similarity to the title):
//   a teaser list or a gallery of other stories is about other things than the article.
import { PAGE_KINDS, type CdomNode, type PageKind } from '../../types.js';
import { PithError } from '../../errors.js';
import type { Features } from './features.js';
import { featureNames } from './features.js';
import type { Page } from '../blocks/page.js';
import { type DomNode, isElement } from '../parse/dom.js';
import { PITH_STOPWORDS, lowerWords } from '../parse/text-stats.js';

/**
 * Page feature schemas the code computes, each one's names a prefix of the next one's: page-3, page-4 that adds
 * where links point and the article's anchor (issue 34), and page-5 that adds topical coherence (issue 34). A model's page section names its schema's features; the
 * code computes the schema whose names they are (pageSchemaOf). Bump (add one) when any page feature changes.
 */
export const PAGE_FEATURE_SCHEMAS = ['page-3', 'page-4', 'page-5'] as const;
export type PageFeatureSchema = (typeof PAGE_FEATURE_SCHEMAS)[number];
/** The schema `npm run dump:page` writes unless told another: that of the shipped page net. */
export const PAGE_FEATURE_SCHEMA: PageFeatureSchema = 'page-3';

/** First-pass (`pith` set) features the page net sees as they are. */
const FIRST_PASS_NAMES: readonly string[] = [
  'log(n_words)', 'leaf_link_density', 'p_link_density', 'gp_link_density', 'hidden', 'heading_level',
  'block_break_before', 'block_break_after',
  'title_overlap', 'rel_block_index', 'log(n_duplicates)', 'log(n_same_class_path)', 'date_like', 'anc_article',
  'anc_main', 'anc_aside', 'anc_nav', 'anc_footer', 'cls_comment',
];

const WINDOWS = [2, 5, 15, 50] as const;

const PAGE_NAMES: readonly string[] = [
  'p', 'logit(p)',
  ...WINDOWS.map((w) => `window_mean_p_${w}`), 'window_max_p_5', 'window_kept_share_10',
  'in_region', 'before_region', 'region_block_distance', 'log(region_block_distance)', 'log(region_hops)',
  'region_content_share', 'region_word_share', 'region_span', 'in_region80', 'log(region80_hops)',
  'parent_mean_p', 'gp_mean_p', 'ggp_mean_p', 'parent_content_share', 'gp_content_share', 'ggp_content_share',
  'log(sibling_repeat)', 'class_path_mean_p', 'near_duplicate', 'duplicate_p_gain',
  'log(page_content_words)', 'page_content_share', 'page_kept_block_share',
  ...PAGE_KINDS.map((kind) => `declares_${kind}`),
  'in_comment_section', 'page_comment_word_share',
  ...FIRST_PASS_NAMES.map((n) => `first_${n}`),
  // page-4: where links point (linkTargets, sectionLinks)
  'link_internal', 'link_article_path', 'link_headline',
  'parent_article_link_share', 'gp_article_link_share', 'ggp_article_link_share', 'log(ggp_article_links)',
  'page_article_link_word_share',
  // the metadata's headline (articleAnchor)
  'anchor_found', 'anchor_offset', 'log(anchor_distance)', 'after_anchor', 'anchor_to_region_end', 'past_region_end',
  'anchor_in_region',
  // page-5: topical coherence (topicVectors, sectionTopic)
  'topic_block_sim', 'topic_parent_sim', 'topic_gp_sim', 'topic_ggp_sim', 'topic_parent_mean', 'topic_ggp_mean',
  'title_parent_sim', 'title_gp_sim', 'title_ggp_sim',
  'page_topic_spread', 'page_content_topic_sim', 'page_content_title_sim',
];

/** Features of each schema: page-3 is the first 56, page-4 the first 71. */
const SCHEMA_WIDTH: Readonly<Record<PageFeatureSchema, number>> = {
  'page-3': PAGE_NAMES.indexOf('link_internal'),
  'page-4': PAGE_NAMES.indexOf('topic_block_sim'),
  'page-5': PAGE_NAMES.length,
};

/** Ordered names of the page features of a schema (a fresh copy). */
export function pageFeatureNames(schema: PageFeatureSchema = PAGE_FEATURE_SCHEMA): string[] {
  return PAGE_NAMES.slice(0, SCHEMA_WIDTH[schema]);
}

/** The schema whose feature names are `names`, or undefined when none is. */
export function pageSchemaOf(names: readonly string[]): PageFeatureSchema | undefined {
  return PAGE_FEATURE_SCHEMAS.find((schema) => {
    const width = SCHEMA_WIDTH[schema];
    if (names.length !== width) return false;
    for (let j = 0; j < width; j++) if (names[j] !== PAGE_NAMES[j]) return false;
    return true;
  });
}

const FIRST_NAMES_ALL = featureNames('pith').unary;
const FIRST_INDEX: Int32Array = Int32Array.from(FIRST_PASS_NAMES, (name) => {
  const i = FIRST_NAMES_ALL.indexOf(name);
  if (i < 0) throw new PithError('internal', `page features: first-pass feature ${name} is not in the pith set`);
  return i;
});
const N_FIRST = FIRST_NAMES_ALL.length;

const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);
const b2d = (b: boolean): number => (b ? 1 : -1);

/** The key of near-duplicates: the trimmed text lower-cased ('' for texts without three words). */
function nearDuplicateKey(text: string, words: number): string {
  if (words < 3) return '';
  return text.trim().toLowerCase();
}

/**
 * Small integers for the tag names and class lists of one page, for the signatures of its nodes: equal tags, equal
 * ids; one id per class list object (the parse shares one list per class attribute within a page: see
 * src/core/parse/string-memo.ts). Made anew for each page, so that a page's signatures do not depend on the pages the
 * process saw before it.
 */
class PageIds {
  private readonly tags = new Map<string, number>();
  private readonly classLists = new Map<readonly string[], number>();

  tag(tag: string): number {
    return idIn(this.tags, tag);
  }

  classList(list: readonly string[] | undefined): number {
    return list === undefined || list.length === 0 ? 0 : idIn(this.classLists, list);
  }
}

/** The id of `key` in `ids`, the next one (from 1) when it has none yet. */
function idIn<K>(ids: Map<K, number>, key: K): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size + 1;
    ids.set(key, id);
  }
  return id;
}

/** Per-block first-pass facts: p, words, and prefix sums for the windows. */
interface BlockStats {
  readonly p: Float64Array;
  readonly w: Float64Array;
  /** prefix of p * (w + 1) */
  readonly pw: Float64Array;
  /** prefix of (w + 1) */
  readonly ww: Float64Array;
  /** prefix of p > 0.5 */
  readonly kept: Int32Array;
  readonly totalWords: number;
  /** expected content words: sum of p * w */
  readonly mass: number;
}

function blockStats(page: Page, probs: Float32Array): BlockStats {
  const n = page.blocks.length;
  const p = new Float64Array(n);
  const w = new Float64Array(n);
  const pw = new Float64Array(n + 1);
  const ww = new Float64Array(n + 1);
  const kept = new Int32Array(n + 1);
  let totalWords = 0;
  let mass = 0;
  for (let i = 0; i < n; i++) {
    p[i] = probs[i * 2 + 1];
    w[i] = page.blocks[i].props.uWords;
    totalWords += w[i];
    mass += p[i] * w[i];
    pw[i + 1] = pw[i] + p[i] * (w[i] + 1);
    ww[i + 1] = ww[i] + (w[i] + 1);
    kept[i + 1] = kept[i] + (p[i] > 0.5 ? 1 : 0);
  }
  return { p, w, pw, ww, kept, totalWords, mass };
}

/** The collapsed DOM in pre-order with per-node sums; leaves are the blocks in order. */
interface Tree {
  readonly nodes: CdomNode[];
  readonly parentOf: number[];
  /** block -> node index (-1 when the block is not a leaf of the walk) */
  readonly leafNode: Int32Array;
  readonly depth: Int32Array;
  readonly nodeMass: Float64Array;
  readonly nodeWords: Float64Array;
  readonly firstLeaf: Int32Array;
  readonly lastLeaf: Int32Array;
  /** children of every node in CSR form (pre-order keeps them in document order) */
  readonly childStart: Int32Array;
  readonly childList: Int32Array;
}

function collapsedTree(page: Page, s: BlockStats): Tree {
  const blocks = page.blocks;
  const n = blocks.length;
  const nodes: CdomNode[] = [];
  const parentOf: number[] = [];
  const leafNode = new Int32Array(n).fill(-1);
  if (page.root) {
    const stack: CdomNode[] = [page.root];
    const stackParent: number[] = [-1];
    let leaf = 0;
    while (stack.length > 0) {
      const node = stack.pop()!;
      const parent = stackParent.pop()!;
      const idx = nodes.length;
      nodes.push(node);
      parentOf.push(parent);
      const kids = node.children;
      if (kids.length === 0) {
        if (leaf < n && blocks[leaf] === node) leafNode[leaf] = idx;
        leaf++;
      } else {
        for (let k = kids.length - 1; k >= 0; k--) {
          stack.push(kids[k]);
          stackParent.push(idx);
        }
      }
    }
  }
  const m = nodes.length;
  const nodeMass = new Float64Array(m);
  const nodeWords = new Float64Array(m);
  const firstLeaf = new Int32Array(m).fill(n);
  const lastLeaf = new Int32Array(m).fill(-1);
  const depth = new Int32Array(m);
  for (let k = 1; k < m; k++) depth[k] = depth[parentOf[k]] + 1;
  for (let i = 0; i < n; i++) {
    const k = leafNode[i];
    if (k < 0) continue;
    nodeMass[k] = s.p[i] * s.w[i];
    nodeWords[k] = s.w[i];
    firstLeaf[k] = i;
    lastLeaf[k] = i;
  }
  for (let k = m - 1; k > 0; k--) {
    // pre-order: children come after their parent, so a reverse sweep has every child done before its parent
    const q = parentOf[k];
    nodeMass[q] += nodeMass[k];
    nodeWords[q] += nodeWords[k];
    if (firstLeaf[k] < firstLeaf[q]) firstLeaf[q] = firstLeaf[k];
    if (lastLeaf[k] > lastLeaf[q]) lastLeaf[q] = lastLeaf[k];
  }
  const childStart = new Int32Array(m + 1);
  for (let k = 1; k < m; k++) childStart[parentOf[k] + 1]++;
  for (let k = 0; k < m; k++) childStart[k + 1] += childStart[k];
  const childList = new Int32Array(Math.max(m - 1, 0));
  {
    const fill = childStart.slice(0, m);
    for (let k = 1; k < m; k++) childList[fill[parentOf[k]]++] = k;
  }
  return { nodes, parentOf, leafNode, depth, nodeMass, nodeWords, firstLeaf, lastLeaf, childStart, childList };
}

/** A dominant region: its node (-1 on an empty tree) and the marks of its path to the root. */
interface Region {
  readonly node: number;
  readonly path: Uint8Array | null;
}

/** Descend from the root into the child holding at least `share` of the page's expected content words. */
function dominantRegion(t: Tree, mass: number, share: number): Region {
  const m = t.nodes.length;
  if (m === 0) return { node: -1, path: null };
  let r = 0;
  for (;;) {
    let next = -1;
    for (let c = t.childStart[r]; c < t.childStart[r + 1]; c++) {
      const kid = t.childList[c];
      if (t.nodeMass[kid] >= share * mass && t.nodeMass[kid] > 0) {
        next = kid;
        break;
      }
    }
    if (next < 0) break;
    r = next;
  }
  const path = new Uint8Array(m);
  for (let k = r; k >= 0; k = t.parentOf[k]) path[k] = 1;
  return { node: r, path };
}

/** Tree hops from leaf node `k` up to the region's path and down to the region; `inside`: the climb met the region. */
function hopsTo(t: Tree, k: number, region: Region): { hops: number; inside: boolean } {
  const path = region.path!;
  let x = k;
  let up = 0;
  while (x >= 0 && path[x] === 0) {
    x = t.parentOf[x];
    up++;
  }
  return { hops: x < 0 ? up : up + t.depth[region.node] - t.depth[x], inside: x === region.node };
}

/**
 * Sibling repetition: per node, how many of its siblings share its tag-and-class signature (1 for a bare text leaf,
 * which has none). Signatures are hashed from the page's ids of tag names and class lists (PageIds).
 */
function siblingRepeat(t: Tree): Int32Array {
  const m = t.nodes.length;
  const sig = new Float64Array(m);
  const ids = new PageIds();
  for (let k = 0; k < m; k++) {
    const node = t.nodes[k];
    if (node.tags.length === 1 && node.children.length === 0) {
      sig[k] = -1;
      continue;
    }
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < node.tags.length; i++) {
      const tg = ids.tag(node.tags[i]);
      const c = ids.classList(node.classNames[i]);
      h1 = Math.imul(h1 ^ tg, 0x01000193) ^ Math.imul(c, 0x9e3779b1);
      h2 = Math.imul(h2 + tg * 31 + c, 0x85ebca6b) ^ (h2 >>> 13);
    }
    sig[k] = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
  }
  const repeat = new Int32Array(m).fill(1);
  const counts = new Map<number, number>();
  for (let q = 0; q < m; q++) {
    const a = t.childStart[q];
    const b = t.childStart[q + 1];
    if (b - a < 2) continue;
    counts.clear();
    for (let c = a; c < b; c++) {
      const g = sig[t.childList[c]];
      if (g >= 0) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    for (let c = a; c < b; c++) {
      const g = sig[t.childList[c]];
      if (g >= 0) repeat[t.childList[c]] = counts.get(g) ?? 1;
    }
  }
  return repeat;
}

/** Word-weighted mean p of all blocks with each block's tag-and-class path. */
function classPathMeans(sel: ArrayLike<number>, s: BlockStats): Float64Array {
  const n = s.p.length;
  const groupPw = new Map<number, number>();
  const groupW = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const id = sel[i];
    groupPw.set(id, (groupPw.get(id) ?? 0) + s.p[i] * (s.w[i] + 1));
    groupW.set(id, (groupW.get(id) ?? 0) + (s.w[i] + 1));
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (groupPw.get(sel[i]) ?? 0) / (groupW.get(sel[i]) ?? 1);
  return out;
}

/**
 * Near-duplicates: per block, 1 when another block has the same text (nearDuplicateKey), else -1, and how much more
 * likely the most likely other copy is (0 without one).
 */
function nearDuplicates(page: Page, s: BlockStats): { has: Float64Array; gain: Float64Array } {
  const n = s.p.length;
  const p = s.p;
  const dupKeys: string[] = new Array(n);
  const dupBest = new Map<string, [number, number, number]>(); // key -> [best p, second p, count]
  for (let i = 0; i < n; i++) {
    const key = nearDuplicateKey(page.blocks[i].text, s.w[i]);
    dupKeys[i] = key;
    if (key === '') continue;
    const e = dupBest.get(key);
    if (e === undefined) dupBest.set(key, [p[i], -1, 1]);
    else {
      if (p[i] > e[0]) {
        e[1] = e[0];
        e[0] = p[i];
      } else if (p[i] > e[1]) e[1] = p[i];
      e[2]++;
    }
  }
  const has = new Float64Array(n).fill(-1);
  const gain = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const key = dupKeys[i];
    const dup = key === '' ? undefined : dupBest.get(key);
    if (dup !== undefined && dup[2] > 1) {
      has[i] = 1;
      gain[i] = (dup[0] === p[i] ? Math.max(dup[1], 0) : dup[0]) - p[i];
    }
  }
  return { has, gain };
}

/** What the page knows of itself besides its blocks (PageMetadata and the request). */
export interface PageFacts {
  /** What the page declares itself to be (PageMetadata.kinds). */
  readonly kinds: readonly PageKind[];
  /** The headline the metadata names (PageMetadata.title), null when none. */
  readonly title: string | null;
  /** The page's URL and its canonical URL: links to either host are the site's own. */
  readonly url?: string | null;
  readonly canonicalUrl?: string | null;
}

/** Host of an absolute http(s) URL, lower-cased and without "www."; '' when there is none. */
function hostOf(url: string | null | undefined): string {
  if (!url) return '';
  let i = url.indexOf('//');
  if (i < 0 || i > 6) return '';
  i += 2;
  let j = i;
  while (j < url.length) {
    const c = url.charCodeAt(j);
    if (c === 47 || c === 63 || c === 35 || c === 58) break; // / ? # :
    j++;
  }
  const host = url.slice(i, j).toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Where one link points: 0 elsewhere or nowhere (fragment, script, mail), 1 the site, 2 an article-shaped page of it. */
function linkTarget(href: string, hosts: readonly string[]): number {
  const h = href.trim();
  if (h.length === 0 || h.charCodeAt(0) === 35) return 0; // '#'
  let pathStart = 0;
  const colon = h.indexOf(':');
  const slash = h.indexOf('/');
  if (h.startsWith('//') || (colon > 0 && (slash < 0 || colon < slash))) {
    const lower = h.slice(0, 8).toLowerCase();
    if (!h.startsWith('//') && !lower.startsWith('http:') && !lower.startsWith('https:')) return 0;
    const host = hostOf(h.startsWith('//') ? 'x:' + h : h);
    if (host === '' || !hosts.includes(host)) return 0;
    pathStart = h.indexOf('/', h.indexOf('//') + 2);
    if (pathStart < 0) return 1;
  }
  return articleShapedPath(h, pathStart) ? 2 : 1;
}

/**
 * An article-shaped path: a segment that is a long slug (three or more hyphen- or underscore-joined words, or 25+
 * characters), a run of 5+ digits (an id), or a year followed by a month segment (a date).
 */
function articleShapedPath(h: string, from: number): boolean {
  let segStart = from;
  let prevYear = false;
  for (let i = from; i <= h.length; i++) {
    const c = i < h.length ? h.charCodeAt(i) : 47;
    if (c === 63 || c === 35) return segmentShaped(h, segStart, i, prevYear) === 2;
    if (c !== 47) continue;
    const shape = segmentShaped(h, segStart, i, prevYear);
    if (shape === 2) return true;
    prevYear = shape === 1;
    segStart = i + 1;
  }
  return false;
}

/** 2: an article-shaped segment; 1: a year (19xx, 20xx); 0: neither. */
function segmentShaped(h: string, a: number, b: number, afterYear: boolean): number {
  const len = b - a;
  if (len <= 0) return 0;
  let joins = 0;
  let digits = 0;
  let maxDigitRun = 0;
  for (let i = a; i < b; i++) {
    const c = h.charCodeAt(i);
    if (c === 45 || c === 95) joins++;
    if (c >= 48 && c <= 57) {
      digits++;
      if (digits > maxDigitRun) maxDigitRun = digits;
    } else digits = 0;
  }
  if (joins >= 2 || len >= 25 || maxDigitRun >= 5) return 2;
  if (afterYear && len <= 2 && maxDigitRun === len) return 2; // /2024/05/
  if (len === 4 && maxDigitRun === 4 && (h.startsWith('19', a) || h.startsWith('20', a))) return 1;
  return 0;
}

/** Per block: the target of the link it lies in (linkTarget, -1 when it is in none) and that link element. */
function linkTargets(page: Page, facts: PageFacts): { target: Int8Array; link: unknown[] } {
  const n = page.blocks.length;
  const target = new Int8Array(n).fill(-1);
  const link: unknown[] = new Array<unknown>(n).fill(null);
  const hosts = [hostOf(facts.url), hostOf(facts.canonicalUrl)].filter((h) => h !== '');
  for (let i = 0; i < n; i++) {
    if (!page.leafInfo[i].context.inLink) continue;
    let x = page.blocks[i].domNode as DomNode | null;
    for (let up = 0; x !== null && up < 16; up++, x = x.parentNode) {
      if (isElement(x) && x.localName === 'a') {
        link[i] = x;
        target[i] = linkTarget(x.getAttribute('href') ?? '', hosts);
        break;
      }
    }
  }
  return { target, link };
}

/** Per node of the tree: the words of its blocks in article-shaped links of the site, and how many such links. */
interface LinkSums {
  readonly articleLinkWords: Float64Array;
  /** distinct article links (a block starting one that the block before it is not in) */
  readonly articleLinks: Float64Array;
}

function linkSums(t: Tree, s: BlockStats, links: { target: Int8Array; link: unknown[] }): LinkSums {
  const m = t.nodes.length;
  const n = s.p.length;
  const sums: LinkSums = { articleLinkWords: new Float64Array(m), articleLinks: new Float64Array(m) };
  for (let i = 0; i < n; i++) {
    const k = t.leafNode[i];
    if (k < 0 || links.target[i] !== 2) continue;
    sums.articleLinkWords[k] = s.w[i];
    if (i === 0 || links.link[i - 1] !== links.link[i]) sums.articleLinks[k] = 1;
  }
  for (let k = m - 1; k > 0; k--) {
    const q = t.parentOf[k];
    sums.articleLinkWords[q] += sums.articleLinkWords[k];
    sums.articleLinks[q] += sums.articleLinks[k];
  }
  return sums;
}

/** Lower-cased, whitespace-collapsed, trimmed: the form the headline is matched in. */
function headlineKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The block of the metadata's headline: the first heading block whose text is the headline, contains it or is most
 * of it, else the first such block of any kind; -1 when none matches.
 */
function articleAnchor(page: Page, first: Features, title: string | null): number {
  if (title === null) return -1;
  const key = headlineKey(title);
  if (key.length < 8) return -1;
  const headingIndex = FIRST_NAMES_ALL.indexOf('heading_level');
  let any = -1;
  for (let i = 0; i < page.blocks.length; i++) {
    const b = page.blocks[i];
    const len = b.text.length;
    if (b.props.uWords > 60 || len * 3 < key.length * 2 - 4 || len > key.length * 2 + 16) continue; // cannot match
    const text = headlineKey(b.text);
    if (text.length < 8) continue;
    const match = text === key || (text.includes(key) && key.length * 2 >= text.length) ||
      (key.includes(text) && text.length * 3 >= key.length * 2);
    if (!match) continue;
    if (first.unary[i * N_FIRST + headingIndex] > 0) return i;
    if (any < 0) any = i;
  }
  return any;
}

/** Terms of a text for topical coherence: lower-cased Unicode words of 3+ characters (at most 40), not stop words. */
function topicTerms(text: string, vocab: Map<string, number>, out: number[], add: boolean): void {
  const words = lowerWords(text);
  for (let j = 0; j < words.length; j++) {
    const word = words[j];
    if (word.length < 3 || word.length > 40 || PITH_STOPWORDS.has(word)) continue;
    let id = vocab.get(word);
    if (id === undefined) {
      if (!add) {
        out.push(-1); // a title term the page never uses: counts in the title's norm only
        continue;
      }
      id = vocab.size;
      vocab.set(word, id);
    }
    out.push(id);
  }
}

/**
 * The page's terms: per block its term ids (CSR: `termStart`, `terms`), the expected-content vector (each block's
 * term counts weighted by its p), the title's term counts, and scratch vectors for a section's terms.
 */
interface TopicVectors {
  readonly termStart: Int32Array;
  readonly terms: Int32Array;
  /** expected content: sum over blocks of p × the block's term counts */
  readonly expected: Float64Array;
  readonly expectedNorm2: number;
  /** the title's term counts over the page's vocabulary, and its squared norm (terms off the page included) */
  readonly title: Float64Array;
  readonly titleNorm2: number;
  /** scratch: a section's term counts, its p-weighted counts, the terms touched */
  readonly sec: Float64Array;
  readonly secP: Float64Array;
  readonly touched: Int32Array;
}

function topicVectors(page: Page, s: BlockStats, title: string | null): TopicVectors {
  const n = page.blocks.length;
  const vocab = new Map<string, number>();
  const termList: number[] = [];
  const termStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    topicTerms(page.blocks[i].text, vocab, termList, true);
    termStart[i + 1] = termList.length;
  }
  const terms = Int32Array.from(termList);
  const v = vocab.size;
  const expected = new Float64Array(v);
  for (let i = 0; i < n; i++) for (let j = termStart[i]; j < termStart[i + 1]; j++) expected[terms[j]] += s.p[i];
  let expectedNorm2 = 0;
  for (let t = 0; t < v; t++) expectedNorm2 += expected[t] * expected[t];
  const titleVec = new Float64Array(v);
  let titleNorm2 = 0;
  if (title !== null) {
    const ids: number[] = [];
    topicTerms(title, vocab, ids, false);
    let offPage = 0;
    for (const id of ids) {
      if (id < 0) offPage++;
      else titleVec[id]++;
    }
    titleNorm2 = offPage; // each off-page term counted once: the title rarely repeats a word
    for (let t = 0; t < v; t++) titleNorm2 += titleVec[t] * titleVec[t];
  }
  return {
    termStart, terms, expected, expectedNorm2, title: titleVec, titleNorm2,
    sec: new Float64Array(v), secP: new Float64Array(v), touched: new Int32Array(v),
  };
}

/**
 * Topical coherence of the blocks lo..hi (a block or a section): the cosine of their term counts with the expected
 * content without their own p-weighted counts (leave-one-out), written to out[0], and with the title's terms, to
 * out[1]; 0 where either side has no terms.
 */
function sectionTopic(tv: TopicVectors, s: BlockStats, lo: number, hi: number, out: Float64Array): void {
  const { termStart, terms, expected, title, sec, secP, touched } = tv;
  let nTouched = 0;
  for (let i = lo; i <= hi; i++) {
    const pi = s.p[i];
    for (let j = termStart[i]; j < termStart[i + 1]; j++) {
      const t = terms[j];
      if (sec[t] === 0) touched[nTouched++] = t;
      sec[t] += 1;
      secP[t] += pi;
    }
  }
  let ss = 0;
  let se = 0;
  let sp = 0;
  let ep = 0;
  let pp = 0;
  let st = 0;
  for (let k = 0; k < nTouched; k++) {
    const t = touched[k];
    const a = sec[t];
    const b = secP[t];
    const e = expected[t];
    ss += a * a;
    se += a * e;
    sp += a * b;
    ep += e * b;
    pp += b * b;
    st += a * title[t];
    sec[t] = 0;
    secP[t] = 0;
  }
  const rest2 = tv.expectedNorm2 - 2 * ep + pp; // |expected - section's own|²
  const loo = ss > 0 && rest2 > 1e-9 ? (se - sp) / Math.sqrt(ss * rest2) : 0;
  out[0] = clamp(loo, 0, 1);
  out[1] = ss > 0 && tv.titleNorm2 > 0 ? clamp(st / Math.sqrt(ss * tv.titleNorm2), 0, 1) : 0;
}

/** Per block: the block's, its parent's, grandparent's and great-grandparent's topic sims (sectionTopic) and the page's. */
interface Topic {
  /**
   * [nBlocks, 9]: block, parent, gp, ggp leave-one-out sims; the word-weighted mean of the blocks' own sims in the
   * parent and in the great-grandparent; parent, gp, ggp title sims
   */
  readonly rows: Float64Array;
  readonly spread: number;
  readonly contentSim: number;
  readonly contentTitle: number;
}

const TOPIC_COLUMNS = 9;

function topicFeatures(page: Page, t: Tree, s: BlockStats, title: string | null): Topic {
  const n = s.p.length;
  const m = t.nodes.length;
  const tv = topicVectors(page, s, title);
  const rows = new Float64Array(n * TOPIC_COLUMNS);
  const nodeLoo = new Float64Array(m).fill(NaN);
  const nodeTitle = new Float64Array(m);
  const pair = new Float64Array(2);
  // the blocks' own sims, and their word-weighted sums over every node (a section's coherence with the rest: a
  // section's leave-one-out sim is low when it holds most of the content, the mean of its blocks' is not)
  const blockSim = new Float64Array(n);
  const nodeSimWords = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    sectionTopic(tv, s, i, i, pair);
    blockSim[i] = pair[0];
    const k = t.leafNode[i];
    if (k >= 0) nodeSimWords[k] = pair[0] * s.w[i];
  }
  for (let k = m - 1; k > 0; k--) nodeSimWords[t.parentOf[k]] += nodeSimWords[k];
  const sectionMean = (a: number, i: number): number => (a >= 0 && t.nodeWords[a] > 0 ? nodeSimWords[a] / t.nodeWords[a] : blockSim[i]);
  for (let i = 0; i < n; i++) {
    const o = i * TOPIC_COLUMNS;
    rows[o] = blockSim[i];
    const k = t.leafNode[i];
    const parent = k >= 0 ? t.parentOf[k] : -1;
    let ggp = parent;
    for (let level = 0; level < 2 && ggp >= 0 && t.parentOf[ggp] >= 0; level++) ggp = t.parentOf[ggp];
    rows[o + 4] = sectionMean(parent, i);
    rows[o + 5] = sectionMean(ggp, i);
    let a = k >= 0 ? t.parentOf[k] : -1;
    for (let level = 0; level < 3; level++) {
      if (a >= 0) {
        if (Number.isNaN(nodeLoo[a])) {
          sectionTopic(tv, s, t.firstLeaf[a], t.lastLeaf[a], pair);
          nodeLoo[a] = pair[0];
          nodeTitle[a] = pair[1];
        }
        rows[o + 1 + level] = nodeLoo[a];
        rows[o + 6 + level] = nodeTitle[a];
        a = t.parentOf[a];
      } else {
        // no such section: the level below's figures (the block's own for the parent)
        rows[o + 1 + level] = rows[o + level];
        rows[o + 6 + level] = level > 0 ? rows[o + 5 + level] : 0;
      }
    }
  }
  // the page: the word-weighted spread of the blocks' sims, the expected content's mean sim, its sim to the title
  let w = 0;
  let m1 = 0;
  let m2 = 0;
  let pwSum = 0;
  let pSim = 0;
  for (let i = 0; i < n; i++) {
    const x = blockSim[i];
    const wi = s.w[i];
    w += wi;
    m1 += wi * x;
    m2 += wi * x * x;
    pwSum += s.p[i] * wi;
    pSim += s.p[i] * wi * x;
  }
  const mean = w > 0 ? m1 / w : 0;
  const spread = w > 0 ? Math.sqrt(Math.max(m2 / w - mean * mean, 0)) : 0;
  let et = 0;
  for (let x = 0; x < tv.expected.length; x++) et += tv.expected[x] * tv.title[x];
  const contentTitle = tv.expectedNorm2 > 0 && tv.titleNorm2 > 0 ? et / Math.sqrt(tv.expectedNorm2 * tv.titleNorm2) : 0;
  return { rows, spread, contentSim: pwSum > 0 ? pSim / pwSum : 0, contentTitle: clamp(contentTitle, 0, 1) };
}

/**
 * Page features of every block. `first`: the first pass's features of the page (set `pith`); `probs`: the first
 * pass's unary probabilities [nBlocks, 2] row-major; `facts`: what the page declares itself to be, its headline
 * and URLs (extractMetadata); `schema`: the features to compute. -> [nBlocks, pageFeatureNames(schema).length]
 * row-major.
 */
export function computePageFeatures(
  page: Page,
  first: Features,
  probs: Float32Array,
  facts: PageFacts,
  schema: PageFeatureSchema = PAGE_FEATURE_SCHEMA,
): Float32Array {
  const n = page.blocks.length;
  const nP = SCHEMA_WIDTH[schema];
  const wide = schema !== 'page-3'; // links and the anchor
  const topical = schema === 'page-5'; // topical coherence
  const out = new Float32Array(n * nP); // [nBlocks, nP] row-major
  if (n === 0) return out;
  if (first.unary.length !== n * N_FIRST || probs.length !== n * 2) {
    throw new PithError('internal', `page features: ${n} blocks but ${first.unary.length} first-pass values and ${probs.length} probabilities`);
  }

  const s = blockStats(page, probs);
  const { p, pw, ww, kept, totalWords, mass } = s;
  const massFloor = Math.max(mass, 1e-9);
  // A typed array, not PAGE_KINDS.map(...): the array map() returns has one elements kind when map() runs as a builtin
  // and another when TurboFan inlines it, and the loop below that reads it was compiled again for each (a "wrong map"
  // deoptimisation of this whole function, twice per process over half the dev pages).
  const declared = new Float64Array(PAGE_KINDS.length);
  for (let j = 0; j < PAGE_KINDS.length; j++) declared[j] = b2d(facts.kinds.includes(PAGE_KINDS[j]));
  let commentWords = 0;
  for (let i = 0; i < n; i++) if (page.leafInfo[i].context.commentDepth >= 0) commentWords += s.w[i];
  const commentWordShare = commentWords / Math.max(totalWords, 1);

  const t = collapsedTree(page, s);
  const region = dominantRegion(t, mass, 0.5);
  const region80 = dominantRegion(t, mass, 0.8);
  const repeat = siblingRepeat(t);
  const classPathMean = classPathMeans(first.selectorIds, s);
  const dup = nearDuplicates(page, s);
  const links = wide ? linkTargets(page, facts) : null;
  const sums = links !== null ? linkSums(t, s, links) : null;
  const anchor = wide ? articleAnchor(page, first, facts.title) : -1;
  const topic = topical ? topicFeatures(page, t, s, facts.title) : null;
  let articleLinkWords = 0;
  if (links !== null) for (let i = 0; i < n; i++) if (links.target[i] === 2) articleLinkWords += s.w[i];

  const rLo = region.node >= 0 ? t.firstLeaf[region.node] : 0;
  const rHi = region.node >= 0 ? t.lastLeaf[region.node] : n - 1;
  const regionShare = region.node >= 0 ? t.nodeMass[region.node] / massFloor : 0;
  const regionWordShare = region.node >= 0 ? t.nodeWords[region.node] / Math.max(totalWords, 1) : 0;
  const regionSpan = (rHi - rLo + 1) / n;
  const pageContentWords = Math.log1p(mass);
  const pageContentShare = mass / Math.max(totalWords, 1);
  const pageKept = kept[n] / n;

  const sectionMean = new Float64Array(3);
  const sectionShare = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    let o = i * nP;
    const pi = p[i];
    out[o++] = pi;
    out[o++] = clamp(Math.log((pi + 1e-6) / (1 - pi + 1e-6)), -8, 8);
    for (const r of WINDOWS) {
      const lo = Math.max(0, i - r);
      const hi = Math.min(n, i + r + 1);
      out[o++] = (pw[hi] - pw[lo]) / (ww[hi] - ww[lo]);
    }
    let mx = 0;
    for (let j = Math.max(0, i - 5); j <= Math.min(n - 1, i + 5); j++) if (j !== i && p[j] > mx) mx = p[j];
    out[o++] = mx;
    {
      const lo = Math.max(0, i - 10);
      const hi = Math.min(n, i + 11);
      out[o++] = (kept[hi] - kept[lo]) / (hi - lo);
    }
    // the dominant regions
    const k = t.leafNode[i];
    const h = k >= 0 && region.path !== null ? hopsTo(t, k, region) : { hops: 0, inside: false };
    const inRegion = h.inside;
    const distance = inRegion ? 0 : i < rLo ? rLo - i : Math.max(i - rHi, 0);
    out[o++] = b2d(inRegion);
    out[o++] = b2d(!inRegion && i < rLo);
    out[o++] = distance / n;
    out[o++] = Math.log1p(distance);
    out[o++] = Math.log1p(h.hops);
    out[o++] = regionShare;
    out[o++] = regionWordShare;
    out[o++] = regionSpan;
    const inRegion80 = region80.node >= 0 && i >= t.firstLeaf[region80.node] && i <= t.lastLeaf[region80.node];
    out[o++] = b2d(inRegion80);
    out[o++] = k >= 0 && region80.path !== null ? Math.log1p(hopsTo(t, k, region80).hops) : 0;
    // sections: parent, grandparent, great-grandparent
    let a = k >= 0 ? t.parentOf[k] : -1;
    for (let level = 0; level < 3; level++) {
      if (a >= 0) {
        sectionMean[level] = t.nodeWords[a] > 0 ? t.nodeMass[a] / t.nodeWords[a] : pi;
        sectionShare[level] = t.nodeMass[a] / massFloor;
        a = t.parentOf[a];
      } else {
        sectionMean[level] = level > 0 ? sectionMean[level - 1] : pi;
        sectionShare[level] = level > 0 ? sectionShare[level - 1] : 1;
      }
    }
    out[o++] = sectionMean[0];
    out[o++] = sectionMean[1];
    out[o++] = sectionMean[2];
    out[o++] = sectionShare[0];
    out[o++] = sectionShare[1];
    out[o++] = sectionShare[2];
    // repetition of the block's subtree or one of its 4 nearest ancestors among their siblings
    let rep = 1;
    for (let x = k, level = 0; x >= 0 && level < 5; x = t.parentOf[x], level++) if (repeat[x] > rep) rep = repeat[x];
    out[o++] = Math.log1p(rep - 1);
    out[o++] = classPathMean[i];
    out[o++] = dup.has[i];
    out[o++] = dup.gain[i];
    out[o++] = pageContentWords;
    out[o++] = pageContentShare;
    out[o++] = pageKept;
    for (let j = 0; j < declared.length; j++) out[o++] = declared[j];
    out[o++] = b2d(page.leafInfo[i].context.commentDepth >= 0);
    out[o++] = commentWordShare;
    const row = i * N_FIRST;
    for (let j = 0; j < FIRST_INDEX.length; j++) out[o++] = first.unary[row + FIRST_INDEX[j]];
    if (wide) {
      // where links point, in the block and its sections
      const tg = links!.target[i];
      out[o++] = b2d(tg >= 1);
      out[o++] = b2d(tg === 2);
      out[o++] = b2d(tg >= 0 && s.w[i] >= 4 && s.w[i] <= 25 && !page.blocks[i].props.endsWithPunctuation);
      let sec = k >= 0 ? t.parentOf[k] : -1;
      let ggp = sec;
      for (let level = 0; level < 3; level++) {
        out[o++] = sec >= 0 && t.nodeWords[sec] > 0 ? sums!.articleLinkWords[sec] / t.nodeWords[sec] : tg === 2 ? 1 : 0;
        if (sec >= 0) {
          ggp = sec;
          sec = t.parentOf[sec];
        }
      }
      out[o++] = ggp >= 0 ? Math.log1p(sums!.articleLinks[ggp]) : 0;
      out[o++] = articleLinkWords / Math.max(totalWords, 1);
      // the headline the metadata names
      out[o++] = b2d(anchor >= 0);
      out[o++] = anchor >= 0 ? (i - anchor) / n : 0;
      out[o++] = anchor >= 0 ? Math.log1p(Math.abs(i - anchor)) : 0;
      out[o++] = b2d(anchor >= 0 && i > anchor);
      out[o++] = b2d(anchor >= 0 && i >= anchor && i <= rHi);
      out[o++] = b2d(i > rHi);
      out[o++] = b2d(anchor >= rLo && anchor <= rHi);
    }
    if (topic !== null) {
      const r = i * TOPIC_COLUMNS;
      for (let j = 0; j < TOPIC_COLUMNS; j++) out[o++] = topic.rows[r + j];
      out[o++] = topic.spread;
      out[o++] = topic.contentSim;
      out[o++] = topic.contentTitle;
    }
    if (o !== (i + 1) * nP) throw new PithError('internal', `page features: wrote ${o - i * nP} values, names list ${nP}`);
  }
  return out;
}
