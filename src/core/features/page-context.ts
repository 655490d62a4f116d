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
// - a few first-pass features by name (words, links, hidden, heading, ...).
import { PAGE_KINDS, type CdomNode, type PageKind } from '../../types.js';
import { PithError } from '../../errors.js';
import type { Features } from './features.js';
import { featureNames } from './features.js';
import type { Page } from '../blocks/page.js';

/** Bump when any page feature changes meaning or order. */
export const PAGE_FEATURE_SCHEMA = 'page-3';

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
];

/** Ordered names of the page features (a fresh copy). */
export function pageFeatureNames(): string[] {
  return [...PAGE_NAMES];
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

/**
 * Page features of every block. `first`: the first pass's features of the page (set `pith`); `probs`: the first
 * pass's unary probabilities [nBlocks, 2] row-major; `kinds`: what the page declares itself to be
 * (extractMetadata). -> [nBlocks, pageFeatureNames().length] row-major.
 */
export function computePageFeatures(page: Page, first: Features, probs: Float32Array, kinds: readonly PageKind[]): Float32Array {
  const blocks = page.blocks;
  const n = blocks.length;
  const nP = PAGE_NAMES.length;
  const out = new Float32Array(n * nP); // [nBlocks, nP] row-major
  if (n === 0) return out;
  if (first.unary.length !== n * N_FIRST || probs.length !== n * 2) {
    throw new PithError('internal', `page features: ${n} blocks but ${first.unary.length} first-pass values and ${probs.length} probabilities`);
  }

  // Per block: p, words, expected content words; prefix sums for the windows.
  const p = new Float64Array(n);
  const w = new Float64Array(n);
  const pw = new Float64Array(n + 1); // prefix of p * (w + 1)
  const ww = new Float64Array(n + 1); // prefix of (w + 1)
  const kept = new Int32Array(n + 1); // prefix of p > 0.5
  let totalWords = 0;
  let mass = 0;
  for (let i = 0; i < n; i++) {
    p[i] = probs[i * 2 + 1];
    w[i] = blocks[i].props.uWords;
    totalWords += w[i];
    mass += p[i] * w[i];
    pw[i + 1] = pw[i] + p[i] * (w[i] + 1);
    ww[i + 1] = ww[i] + (w[i] + 1);
    kept[i + 1] = kept[i] + (p[i] > 0.5 ? 1 : 0);
  }
  const massFloor = Math.max(mass, 1e-9);
  // A typed array, not PAGE_KINDS.map(...): the array map() returns has one elements kind when map() runs as a builtin
  // and another when TurboFan inlines it, and the loop below that reads it was compiled again for each (a "wrong map"
  // deoptimisation of this whole function, twice per process over half the dev pages).
  const declared = new Float64Array(PAGE_KINDS.length);
  for (let j = 0; j < PAGE_KINDS.length; j++) declared[j] = b2d(kinds.includes(PAGE_KINDS[j]));
  let commentWords = 0;
  for (let i = 0; i < n; i++) if (page.leafInfo[i].context.commentDepth >= 0) commentWords += w[i];
  const commentWordShare = commentWords / Math.max(totalWords, 1);

  // The collapsed DOM in pre-order: node index, parent index, depth; leaves are the blocks in order.
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
    nodeMass[k] = p[i] * w[i];
    nodeWords[k] = w[i];
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

  // Children of every node in CSR form (pre-order keeps them in document order).
  const childStart = new Int32Array(m + 1);
  for (let k = 1; k < m; k++) childStart[parentOf[k] + 1]++;
  for (let k = 0; k < m; k++) childStart[k + 1] += childStart[k];
  const childList = new Int32Array(Math.max(m - 1, 0));
  {
    const fill = childStart.slice(0, m);
    for (let k = 1; k < m; k++) childList[fill[parentOf[k]]++] = k;
  }

  // Dominant regions: descend from the root into the child holding at least `share` of the mass.
  const regionOf = (share: number): number => {
    if (m === 0) return -1;
    let r = 0;
    for (;;) {
      let next = -1;
      for (let c = childStart[r]; c < childStart[r + 1]; c++) {
        const kid = childList[c];
        if (nodeMass[kid] >= share * mass && nodeMass[kid] > 0) {
          next = kid;
          break;
        }
      }
      if (next < 0) return r;
      r = next;
    }
  };
  const region = regionOf(0.5);
  const region80 = regionOf(0.8);
  const onPath = (r: number): Uint8Array => {
    const mark = new Uint8Array(m);
    for (let k = r; k >= 0; k = parentOf[k]) mark[k] = 1;
    return mark;
  };
  const regionPath = region >= 0 ? onPath(region) : null;
  const region80Path = region80 >= 0 ? onPath(region80) : null;
  /** Tree hops from leaf node `k` to region `r` (whose root path is marked in `path`); sets `hopsInside`. */
  let hopsInside = false;
  const hops = (k: number, r: number, path: Uint8Array): number => {
    let x = k;
    let up = 0;
    while (x >= 0 && path[x] === 0) {
      x = parentOf[x];
      up++;
    }
    hopsInside = x === r; // the climb met the region itself: the block is inside it
    return x < 0 ? up : up + depth[r] - depth[x];
  };

  // Sibling repetition: how many siblings share a node's tag-and-class signature (a bare text leaf has none).
  // Signatures are hashed from the page's ids of tag names and class lists (PageIds).
  const sig = new Float64Array(m);
  const ids = new PageIds();
  for (let k = 0; k < m; k++) {
    const node = nodes[k];
    if (node.tags.length === 1 && node.children.length === 0) {
      sig[k] = -1;
      continue;
    }
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < node.tags.length; i++) {
      const t = ids.tag(node.tags[i]);
      const c = ids.classList(node.classNames[i]);
      h1 = Math.imul(h1 ^ t, 0x01000193) ^ Math.imul(c, 0x9e3779b1);
      h2 = Math.imul(h2 + t * 31 + c, 0x85ebca6b) ^ (h2 >>> 13);
    }
    sig[k] = (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
  }
  const repeat = new Int32Array(m).fill(1);
  const counts = new Map<number, number>();
  for (let q = 0; q < m; q++) {
    const a = childStart[q];
    const b = childStart[q + 1];
    if (b - a < 2) continue;
    counts.clear();
    for (let c = a; c < b; c++) {
      const g = sig[childList[c]];
      if (g >= 0) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    for (let c = a; c < b; c++) {
      const g = sig[childList[c]];
      if (g >= 0) repeat[childList[c]] = counts.get(g) ?? 1;
    }
  }

  // Class-path groups: word-weighted mean p of all blocks with the same tag-and-class path.
  const sel = first.selectorIds;
  const groupPw = new Map<number, number>();
  const groupW = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const id = sel[i];
    groupPw.set(id, (groupPw.get(id) ?? 0) + p[i] * (w[i] + 1));
    groupW.set(id, (groupW.get(id) ?? 0) + (w[i] + 1));
  }

  // Near-duplicates: the most likely other copy of the same letters and digits.
  const dupKeys: string[] = new Array(n);
  const dupBest = new Map<string, [number, number, number]>(); // key -> [best p, second p, count]
  for (let i = 0; i < n; i++) {
    const key = nearDuplicateKey(blocks[i].text, w[i]);
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

  const rLo = region >= 0 ? firstLeaf[region] : 0;
  const rHi = region >= 0 ? lastLeaf[region] : n - 1;
  const regionShare = region >= 0 ? nodeMass[region] / massFloor : 0;
  const regionWordShare = region >= 0 ? nodeWords[region] / Math.max(totalWords, 1) : 0;
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
    const k = leafNode[i];
    const regionHops = k >= 0 && regionPath !== null ? hops(k, region, regionPath) : 0;
    const inRegion = k >= 0 && regionPath !== null && hopsInside;
    const distance = inRegion ? 0 : i < rLo ? rLo - i : Math.max(i - rHi, 0);
    out[o++] = b2d(inRegion);
    out[o++] = b2d(!inRegion && i < rLo);
    out[o++] = distance / n;
    out[o++] = Math.log1p(distance);
    out[o++] = Math.log1p(regionHops);
    out[o++] = regionShare;
    out[o++] = regionWordShare;
    out[o++] = regionSpan;
    const inRegion80 = region80 >= 0 && i >= firstLeaf[region80] && i <= lastLeaf[region80];
    out[o++] = b2d(inRegion80);
    out[o++] = k >= 0 && region80Path !== null ? Math.log1p(hops(k, region80, region80Path)) : 0;
    // sections: parent, grandparent, great-grandparent
    let a = k >= 0 ? parentOf[k] : -1;
    for (let level = 0; level < 3; level++) {
      if (a >= 0) {
        sectionMean[level] = nodeWords[a] > 0 ? nodeMass[a] / nodeWords[a] : pi;
        sectionShare[level] = nodeMass[a] / massFloor;
        a = parentOf[a];
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
    for (let x = k, level = 0; x >= 0 && level < 5; x = parentOf[x], level++) if (repeat[x] > rep) rep = repeat[x];
    out[o++] = Math.log1p(rep - 1);
    out[o++] = (groupPw.get(sel[i]) ?? 0) / (groupW.get(sel[i]) ?? 1);
    const key = dupKeys[i];
    const dup = key === '' ? undefined : dupBest.get(key);
    if (dup !== undefined && dup[2] > 1) {
      const other = dup[0] === pi ? Math.max(dup[1], 0) : dup[0];
      out[o++] = 1;
      out[o++] = other - pi;
    } else {
      out[o++] = -1;
      out[o++] = 0;
    }
    out[o++] = pageContentWords;
    out[o++] = pageContentShare;
    out[o++] = pageKept;
    for (let j = 0; j < declared.length; j++) out[o++] = declared[j];
    out[o++] = b2d(page.leafInfo[i].context.commentDepth >= 0);
    out[o++] = commentWordShare;
    const row = i * N_FIRST;
    for (let j = 0; j < FIRST_INDEX.length; j++) out[o++] = first.unary[row + FIRST_INDEX[j]];
    if (o !== (i + 1) * nP) throw new PithError('internal', `page features: wrote ${o - i * nP} values, names list ${nP}`);
  }
  return out;
}
