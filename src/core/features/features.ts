// Block (unary) and edge features of the two feature sets, in one ordered list of names each.
//
// `paper`: the reference's 128 block + 25 edge features exactly as the reference (docs/design.md, Features) (hard-coded z constants, integer
// divisions, ±1 booleans, the duplicated `p_tag_ul` column, ASCII words, case-sensitive English stop words).
// `pith`: a superset: every paper name, computed with the fixes (float ratios, Unicode words and multilingual stop
// words, link density through any `a` ancestor, no hard-coded z or clipping: raw values, heavy-tailed counts
// log-transformed; the model standardises with training statistics from its sidecar), plus the pith features
// listed in `featureNames`.
import type { CdomNode, FeatureSetName, NodeProps } from '../../types.js';
import { PithError } from '../../errors.js';
import { ANCESTOR_TAGS, CLASS_WORDS, ROLE_NAMES, classWordsApart } from '../blocks/context.js';
import type { Page } from '../blocks/page.js';
import { javaTrim, lowerWords } from '../parse/text-stats.js';

/** Bump when any feature of the set changes meaning or order. */
export const FEATURE_SCHEMA: Record<FeatureSetName, string> = {
  paper: 'paper-1',
  pith: 'pith-3',
};

export interface Features {
  /** [nBlocks, nUnary] row-major */
  unary: Float32Array;
  /** [max(nBlocks - 1, 0), nEdge] row-major; empty when computed with `edges: false` */
  edge: Float32Array;
  nBlocks: number;
  /** [nBlocks] class-selector id of each block (equal ids = equal tag and class paths); for the page stage. */
  selectorIds: Int32Array;
}

// ------------------------------------------------------------------------------------------------ names

const LEAF_NAMES = [
  'has_word', 'log(n_words)', 'avg_word_length [3,15]', 'has_stopword', 'stopword_ratio',
  'log(n_characters) [2.5,5.5]', 'contains_punctuation', 'n_punctuation [0,10]', 'log(punctuation_ratio)',
  'has_numeric', 'numeric_ratio', 'log(avg_sentence_length) [2,5]', 'has_multiple_sentences', 'relative_position',
  'relative_position^2', 'ends_with_punctuation', 'ends_with_question_mark', 'contains_copyright', 'contains_email',
  'contains_url', 'contains_year', 'ratio_words_with_capital', 'ratio_words_with_capital^2',
  'ratio_words_with_capital^3',
];
const NODE_NAMES = [
  'body_percentage', 'link_density', 'avg_word_length [3,15]', 'has_stopword', 'stopword_ratio',
  'log(n_characters) [2.5,10]', 'log(punctuation_ratio)', 'has_numeric', 'numeric_ratio',
  'log(avg_sentence_length) [2,5]', 'ends_with_punctuation', 'ends_with_question_mark', 'contains_copyright',
  'contains_email', 'contains_url', 'contains_year', 'ratio_words_with_capital', 'ratio_words_with_capital^2',
  'ratio_words_with_capital^3', 'contains_form_element',
];
/** Parent tag indicators; `ul` is listed twice in the reference (the second column is named `p_tag_ul_dup`). */
const NODE_TAGS = ['td', 'div', 'p', 'tr', 'table', 'body', 'ul', 'span', 'li', 'blockquote', 'b', 'small', 'a', 'ol',
  'ul', 'i', 'form', 'dl', 'strong', 'pre'];
/** Columns of the parent group (has_p, its NodeBlock values, its tag indicators) and of the grandparent group. */
const PARENT_COLUMNS = 1 + NODE_NAMES.length + NODE_TAGS.length;
const GRANDPARENT_COLUMNS = 1 + NODE_NAMES.length;
const LEAF_TAGS = ['a', 'p', 'td', 'b', 'li', 'span', 'i', 'tr', 'div', 'strong', 'em', 'h3', 'h2', 'table', 'h4',
  'small', 'sup', 'h1', 'blockquote'];

const PAPER_UNARY: readonly string[] = [
  'has_duplicate', 'has_10_duplicates', 'n_same_class_path',
  ...LEAF_NAMES,
  'has_p', ...NODE_NAMES.map((n) => `p_${n}`), ...NODE_TAGS.map((t, i) => (i === 14 ? 'p_tag_ul_dup' : `p_tag_${t}`)),
  'has_gp', ...NODE_NAMES.map((n) => `gp_${n}`),
  ...NODE_NAMES.map((n) => `root_${n}`),
  ...LEAF_TAGS.map((t) => `tag_${t}`),
];
const PAPER_EDGE: readonly string[] = [
  'tree_distance_2', 'tree_distance_3', 'tree_distance_4', 'tree_distance_more', 'block_break',
  ...NODE_NAMES.map((n) => `common_ancestor_${n}`),
];

const PITH_EXTRA_UNARY: readonly string[] = [
  'leaf_link_density', 'hidden', 'heading_level', 'br_before', 'br_after', 'block_break_before', 'block_break_after',
  'log(raw_depth)', 'log(cdom_depth)', 'log(parent_counted_child_tags)', 'parent_text_density', 'gp_text_density',
  'title_overlap', 'rel_block_index', 'log(n_blocks)', 'log(n_duplicates)', 'log(n_same_class_path)', 'date_like',
  'starts_with_separator', 'contains_separator', 'ends_with_colon', 'prev_same_tags', 'next_same_tags',
  ...ANCESTOR_TAGS.map((t) => `anc_${t}`),
  ...ROLE_NAMES.map((r) => `role_${r}`),
  ...CLASS_WORDS.map((w) => `cls_${w}`),
];
const PITH_EXTRA_EDGE: readonly string[] = [
  'same_parent', 'same_tags', 'same_class_path', 'both_in_link', 'link_change', 'hidden_change', 'heading_change',
  'br_between', 'log(tree_distance)', 'log(lca_depth)', 'abs_log_char_ratio', 'log(context_change)',
  'comment_change',
];

const NAMES: Record<FeatureSetName, { unary: readonly string[]; edge: readonly string[] }> = {
  paper: { unary: PAPER_UNARY, edge: PAPER_EDGE },
  pith: { unary: [...PAPER_UNARY, ...PITH_EXTRA_UNARY], edge: [...PAPER_EDGE, ...PITH_EXTRA_EDGE] },
};

/** Ordered feature names of a set (fresh copies). */
export function featureNames(set: FeatureSetName): { unary: string[]; edge: string[] } {
  const n = NAMES[set];
  if (!n) throw new PithError('invalid_input', `unknown feature set "${String(set)}": use "paper" or "pith"`);
  return { unary: [...n.unary], edge: [...n.edge] };
}

// ------------------------------------------------------------------------------------------------ helpers

const b2d = (b: boolean): number => (b ? 1 : -1);
const z = (v: number, mu: number, sigma: number): number => (v - mu) / sigma;
/** Reference clip: v when lo < v < hi, hi when v >= hi, lo otherwise (NaN and -Infinity give lo). */
function clip(v: number, lo: number, hi: number): number {
  if (lo < v && v < hi) return v;
  return v >= hi ? hi : lo;
}
const idiv = (a: number, b: number): number => Math.floor(a / b);

/** The 20 NodeBlock values (docs/design.md, Features: parent, grandparent, root) of node props `p`, written at out[o..o+20). */
function writeNodeBlock(out: Float32Array, o: number, p: NodeProps, bodyLength: number, paper: boolean): number {
  if (paper) {
    const cap = p.nWords > 0 ? p.nWordsWithCapital / p.nWords : 0;
    out[o++] = idiv(p.endPosition - p.startPosition, bodyLength);
    out[o++] = z(p.nCharsInLink / p.nCharacters, 0.5, 0.5);
    out[o++] = p.nWords === 0 ? -1 : z(clip(idiv(p.totalWordLength, p.nWords), 3, 15), 4.910001, 1.905709);
    out[o++] = b2d(p.nStopwords > 0);
    out[o++] = p.nWords === 0 ? 0 : z(p.nStopwords / p.nWords, 0.374, 0.1529);
    out[o++] = z(clip(Math.log(p.nCharacters), 2.5, 10), 6, 2.14);
    out[o++] = p.nPunctuation === 0 ? 0 : z(clip(Math.log(p.nPunctuation / p.nCharacters), -4, -2.5), -3.338525, 0.6058926);
    out[o++] = z(b2d(p.nNumeric > 0), -0.5900983, 0.8073342);
    out[o++] = z(p.nNumeric / p.nCharacters, 0.2655969, 0.3052819);
    out[o++] = z(clip(Math.log(idiv(p.nCharacters, p.nSentences)), 2, 5), 3.109, 1.011);
    out[o++] = b2d(p.endsWithPunctuation);
    out[o++] = b2d(p.endsWithQuestionMark);
    out[o++] = b2d(p.containsCopyright);
    out[o++] = b2d(p.containsEmail);
    out[o++] = b2d(p.containsUrl);
    out[o++] = b2d(p.containsYear);
    out[o++] = p.nWords > 0 ? z(cap, 0.4475758, 0.4129316) : 0;
    out[o++] = p.nWords > 0 ? z(cap * cap, 0.3708354, 0.4334037) : 0;
    out[o++] = p.nWords > 0 ? z(cap * cap * cap, 0.340843, 0.4404389) : 0;
    out[o++] = b2d(p.containsForm);
  } else {
    const cap = p.uWords > 0 ? p.uWordsWithCapital / p.uWords : 0;
    out[o++] = (p.endPosition - p.startPosition) / bodyLength;
    out[o++] = p.uCharsInLink / p.nCharacters;
    out[o++] = p.uWords === 0 ? 0 : p.uTotalWordLength / p.uWords;
    out[o++] = b2d(p.uStopwords > 0);
    out[o++] = p.uWords === 0 ? 0 : p.uStopwords / p.uWords;
    out[o++] = Math.log(p.nCharacters);
    out[o++] = Math.log((p.uPunctuation + 1) / (p.nCharacters + 1));
    out[o++] = b2d(p.nNumeric > 0);
    out[o++] = p.nNumeric / p.nCharacters;
    out[o++] = Math.log(p.nCharacters / Math.max(p.uSentences, 1));
    out[o++] = b2d(p.uEndsWithPunctuation);
    out[o++] = b2d(p.endsWithQuestionMark);
    out[o++] = b2d(p.containsCopyright);
    out[o++] = b2d(p.containsEmail);
    out[o++] = b2d(p.containsUrl);
    out[o++] = b2d(p.containsYear);
    out[o++] = cap;
    out[o++] = cap * cap;
    out[o++] = cap * cap * cap;
    out[o++] = b2d(p.containsForm);
  }
  return o;
}

/** The 24 leaf values (docs/design.md, Features: the leaf). */
function writeLeaf(out: Float32Array, o: number, p: NodeProps, relPos: number, paper: boolean): number {
  if (paper) {
    const cap = p.nWords > 0 ? p.nWordsWithCapital / p.nWords : 0;
    out[o++] = z(b2d(p.nWords > 0), 0.8255, 0.5643817);
    out[o++] = p.nWords === 0 ? 0 : z(clip(Math.log(p.nWords), 0, 3.5), 1.5086, 1.205);
    out[o++] = p.nWords === 0 ? -1 : z(clip(idiv(p.totalWordLength, p.nWords), 3, 15), 4.910001, 1.905709);
    out[o++] = b2d(p.nStopwords > 0);
    out[o++] = p.nWords === 0 ? 0 : z(p.nStopwords / p.nWords, 0.374, 0.1529);
    out[o++] = z(clip(Math.log(p.nCharacters), 2.5, 5.5), 3.392, 1.06445);
    out[o++] = b2d(p.nPunctuation > 0);
    out[o++] = z(clip(p.nPunctuation, 0, 10), 0.06938, 0.4083676);
    out[o++] = p.nPunctuation === 0 ? 0 : z(clip(Math.log(p.nPunctuation / p.nCharacters), -4, -2.5), -3.338525, 0.6058926);
    out[o++] = z(b2d(p.nNumeric > 0), -0.5900983, 0.8073342);
    out[o++] = z(p.nNumeric / p.nCharacters, 0.2655969, 0.3052819);
    out[o++] = z(clip(Math.log(idiv(p.nCharacters, p.nSentences)), 2, 5), 3.109, 1.011);
    out[o++] = b2d(p.nSentences > 1);
    out[o++] = z(relPos, 0.5198038, 0.2996195);
    out[o++] = z(relPos * relPos, 0.3599672, 0.3157282);
    out[o++] = b2d(p.endsWithPunctuation);
    out[o++] = b2d(p.endsWithQuestionMark);
    out[o++] = b2d(p.containsCopyright);
    out[o++] = b2d(p.containsEmail);
    out[o++] = b2d(p.containsUrl);
    out[o++] = b2d(p.containsYear);
    out[o++] = p.nWords > 0 ? z(cap, 0.4475758, 0.4129316) : 0;
    out[o++] = p.nWords > 0 ? z(cap * cap, 0.3708354, 0.4334037) : 0;
    out[o++] = p.nWords > 0 ? z(cap * cap * cap, 0.340843, 0.4404389) : 0;
  } else {
    const cap = p.uWords > 0 ? p.uWordsWithCapital / p.uWords : 0;
    out[o++] = b2d(p.uWords > 0);
    out[o++] = Math.log1p(p.uWords);
    out[o++] = p.uWords === 0 ? 0 : p.uTotalWordLength / p.uWords;
    out[o++] = b2d(p.uStopwords > 0);
    out[o++] = p.uWords === 0 ? 0 : p.uStopwords / p.uWords;
    out[o++] = Math.log(p.nCharacters);
    out[o++] = b2d(p.uPunctuation > 0);
    out[o++] = Math.log1p(p.uPunctuation);
    out[o++] = Math.log((p.uPunctuation + 1) / (p.nCharacters + 1));
    out[o++] = b2d(p.nNumeric > 0);
    out[o++] = p.nNumeric / p.nCharacters;
    out[o++] = Math.log(p.nCharacters / Math.max(p.uSentences, 1));
    out[o++] = b2d(p.uSentences > 1);
    out[o++] = relPos;
    out[o++] = relPos * relPos;
    out[o++] = b2d(p.uEndsWithPunctuation);
    out[o++] = b2d(p.endsWithQuestionMark);
    out[o++] = b2d(p.containsCopyright);
    out[o++] = b2d(p.containsEmail);
    out[o++] = b2d(p.containsUrl);
    out[o++] = b2d(p.containsYear);
    out[o++] = cap;
    out[o++] = cap * cap;
    out[o++] = cap * cap * cap;
  }
  return o;
}

function writeTags(out: Float32Array, o: number, tags: readonly string[], names: readonly string[]): number {
  for (const t of names) out[o++] = b2d(tags.includes(t));
  return o;
}

function fillZero(out: Float32Array, o: number, n: number): number {
  out.fill(0, o, o + n);
  return o + n;
}

/** Lowest common ancestor of two nodes of the same tree (compared by reference), via depths. */
function lowestCommonAncestor(a: CdomNode, b: CdomNode): CdomNode | null {
  let x: CdomNode | null = a.parent;
  let y: CdomNode | null = b.parent;
  while (x && y && x.depth > y.depth) x = x.parent;
  while (x && y && y.depth > x.depth) y = y.parent;
  while (x && y && x !== y) {
    x = x.parent;
    y = y.parent;
  }
  return x && x === y ? x : null;
}

/**
 * Class-selector ids (docs/design.md, Features: duplicates): equal ids <=> equal selector strings. Computed top-down with
 * interned (own chain, parent id) pairs instead of building the long strings. A pre-order walk with children
 * pushed in reverse reaches the leaves in document order, i.e. in `blocks` order.
 */
function classSelectorIds(root: CdomNode | null, blocks: CdomNode[]): Int32Array {
  const out = new Int32Array(blocks.length).fill(-1);
  if (!root) return out;
  const chains = new SelectorChains();
  const pairIds = new Map<number, number>();
  const nodes: CdomNode[] = [root];
  const parentIds: number[] = [-1];
  let leaf = 0;
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const parentId = parentIds.pop()!;
    const chainId = chains.idOf(n.tags, n.classNames);
    const key = chainId * 0x4000000 + (parentId + 1); // exact while both stay below 2^26
    let id = pairIds.get(key);
    if (id === undefined) {
      id = pairIds.size;
      pairIds.set(key, id);
    }
    const kids = n.children;
    if (kids.length === 0) {
      if (leaf < blocks.length && blocks[leaf] === n) out[leaf] = id;
      leaf++;
    } else {
      for (let k = kids.length - 1; k >= 0; k--) {
        nodes.push(kids[k]);
        parentIds.push(id);
      }
    }
  }
  return out;
}

/**
 * Ids of the selector strings of merged chains (`tag.class.class,tag.class,...`, one page's), equal exactly when the
 * strings are, found without building the strings. Two strings are equal exactly when their pieces between commas
 * are, so a chain is a path of interned pieces in a trie. A tag with its class list is one piece, `tag.class.class`,
 * unless a name in it holds a comma; its pieces are found once per class list and tag.
 */
class SelectorChains {
  private readonly pieceIds = new Map<string, number>();
  /** The pieces of a class list (by identity: one list per distinct class attribute) with the tag it came with last. */
  private readonly byClassList = new Map<readonly string[], { tag: string; pieces: number | number[] }>();
  /** The trie: next[node].get(piece) is the node one piece longer; node 0 is the empty chain. */
  private readonly next: (Map<number, number> | undefined)[] = [undefined];

  idOf(tags: readonly string[], classNames: readonly (readonly string[])[]): number {
    let node = 0;
    for (let i = 0; i < tags.length; i++) {
      const pieces = this.piecesOf(tags[i], classNames[i]);
      if (typeof pieces === 'number') node = this.step(node, pieces);
      else for (const piece of pieces) node = this.step(node, piece);
    }
    return node;
  }

  private piecesOf(tag: string, classList: readonly string[] | undefined): number | number[] {
    if (classList === undefined || classList.length === 0) return this.piecesOfSegment(tag);
    const last = this.byClassList.get(classList);
    if (last !== undefined && last.tag === tag) return last.pieces;
    let segment = tag;
    for (let j = 0; j < classList.length; j++) segment += '.' + classList[j]; // indexed: no iterator objects
    const pieces = this.piecesOfSegment(segment);
    if (last === undefined) {
      this.byClassList.set(classList, { tag, pieces });
    } else {
      last.tag = tag;
      last.pieces = pieces;
    }
    return pieces;
  }

  private piecesOfSegment(segment: string): number | number[] {
    return segment.includes(',') ? segment.split(',').map((piece) => this.pieceId(piece)) : this.pieceId(segment);
  }

  private pieceId(piece: string): number {
    let id = this.pieceIds.get(piece);
    if (id === undefined) {
      id = this.pieceIds.size;
      this.pieceIds.set(piece, id);
    }
    return id;
  }

  private step(node: number, piece: number): number {
    let children = this.next[node];
    if (children === undefined) this.next[node] = children = new Map();
    let child = children.get(piece);
    if (child === undefined) {
      child = this.next.length;
      this.next.push(undefined);
      children.set(piece, child);
    }
    return child;
  }
}

/** Equal tag chains (the same as comparing `tags.join('>')`: tag names hold no '>'). */
function sameTags(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const DATE_LIKE = new RegExp(
  [
    String.raw`\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b`,
    String.raw`\b\d{4}[./-]\d{1,2}[./-]\d{1,2}\b`,
    String.raw`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)[a-zé]*\.?\s+\d{1,2}\b`,
    String.raw`\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|de\s+\p{L}+)`,
    String.raw`\b\d+\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\s+ago\b`,
    String.raw`\d{4}年\d{1,2}月`,
  ].join('|'),
  'iu',
);
const STARTS_WITH_SEPARATOR = /^[•·|»›>\-–—*▪►→#]/u;
const CONTAINS_SEPARATOR = /[|•·»›]/u;

const NON_ASCII_WORD_CHAR = /(?![\x00-\x7f])[\p{L}\p{N}\p{M}]/u;

/**
 * Share of the lower-cased Unicode words of `text` that are title words (0 without words). ASCII texts (most
 * blocks, and texts whose other characters only separate words) take a char loop that finds the same words as
 * `lowerWords` ([A-Za-z0-9] runs) and slices only runs short enough to be a title word; other texts go through
 * `lowerWords`.
 */
function titleOverlap(text: string, titleWords: ReadonlySet<string>, maxLength: number, starts: Uint8Array): number {
  const len = text.length;
  let nWords = 0;
  let hit = 0;
  let start = -1;
  let upper = false;
  let plainSeparators = false; // the non-ASCII characters of the text are all word separators (checked once)
  for (let i = 0; i <= len; i++) {
    const c = i < len ? text.charCodeAt(i) : 32;
    if (c > 127 && !plainSeparators) {
      // Non-ASCII characters that are no letter, digit or mark only separate words (and stay such when
      // lower-cased: checked over all of Unicode); anything else goes through lowerWords.
      if (NON_ASCII_WORD_CHAR.test(text)) return lowerWordsOverlap(text, titleWords);
      plainSeparators = true;
    }
    const isUpper = c >= 65 && c <= 90;
    if ((c >= 97 && c <= 122) || isUpper || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        upper = false;
      }
      if (isUpper) upper = true;
    } else if (start >= 0) {
      nWords++;
      let c0 = text.charCodeAt(start);
      if (c0 <= 90 && c0 >= 65) c0 += 32;
      // A word can be a title word only if some title word has its length and first letter: slice only then.
      if (i - start <= maxLength && starts[(i - start) * 128 + c0] === 1) {
        const w = text.slice(start, i);
        if (titleWords.has(upper ? w.toLowerCase() : w)) hit++;
      }
      start = -1;
    }
  }
  return nWords > 0 ? hit / nWords : 0;
}

/** titleOverlap through lowerWords (texts with non-ASCII letters, digits or marks). */
function lowerWordsOverlap(text: string, titleWords: ReadonlySet<string>): number {
  const ws = lowerWords(text);
  let hit = 0;
  for (const w of ws) if (titleWords.has(w)) hit++;
  return ws.length > 0 ? hit / ws.length : 0;
}

// ------------------------------------------------------------------------------------------------ compute

/** Raw features of every block of `page` (see FEATURE_SCHEMA for the version). */
export function computeFeatures(page: Page, set: FeatureSetName, options: { edges?: boolean } = {}): Features {
  const names = NAMES[set];
  if (!names) throw new PithError('invalid_input', `unknown feature set "${String(set)}": use "paper" or "pith"`);
  const paper = set === 'paper';
  const blocks = page.blocks;
  const n = blocks.length;
  const nU = names.unary.length;
  const nE = names.edge.length;
  const unary = new Float32Array(n * nU); // [nBlocks, nU] row-major
  // [nBlocks - 1, nE] row-major; empty when the caller will not run the pairwise net (edges: false)
  const edges = options.edges !== false;
  const edge = new Float32Array(edges ? Math.max(n - 1, 0) * nE : 0);
  if (n === 0) return { unary, edge, nBlocks: 0, selectorIds: new Int32Array(0) };

  // Body span in text order (docs/design.md, Features: the leaf): first leaf start to last leaf end.
  const bodyStart = blocks[0].props.startPosition;
  const bodyLength = Math.max(blocks[n - 1].props.endPosition - bodyStart, 1);
  const root = page.root ?? blocks[0];

  // Duplicate counts (docs/design.md, Features: duplicates).
  const textCount = new Map<string, number>();
  for (const b of blocks) textCount.set(b.text, (textCount.get(b.text) ?? 0) + 1);
  const selIds = classSelectorIds(page.root, blocks);
  const selCount = new Map<number, number>();
  for (const id of selIds) selCount.set(id, (selCount.get(id) ?? 0) + 1);

  const titleWords = !paper && page.title ? new Set(lowerWords(page.title)) : null;
  let titleMaxLength = 0;
  if (titleWords) for (const w of titleWords) titleMaxLength = Math.max(titleMaxLength, w.length);
  // [length * 128 + first char] 1 when a title word of that length starts with that ASCII character.
  const titleStarts = new Uint8Array((titleMaxLength + 1) * 128);
  if (titleWords) {
    for (const w of titleWords) if (w.length > 0 && w.charCodeAt(0) < 128) titleStarts[w.length * 128 + w.charCodeAt(0)] = 1;
  }
  const rootChars = root.props.nCharacters;

  const rootBlock = new Float32Array(NODE_NAMES.length);
  writeNodeBlock(rootBlock, 0, root.props, bodyLength, paper);
  // The parent and grandparent groups depend on that node alone, and blocks next to each other often share it (the
  // pieces of one paragraph): a block whose parent (grandparent) is the previous one's copies that row's group.
  let lastParent: CdomNode | null = null;
  let lastParentAt = 0;
  let lastGp: CdomNode | null = null;
  let lastGpAt = 0;

  for (let i = 0; i < n; i++) {
    const leaf = blocks[i];
    const p = leaf.props;
    const row = i * nU;
    let o = row;
    const t = textCount.get(leaf.text) ?? 1;
    const c = selCount.get(selIds[i]) ?? 1;
    unary[o++] = b2d(t > 1);
    unary[o++] = b2d(t > 10);
    unary[o++] = paper ? idiv(c, n) : c / n;
    const relPos = (0.5 * (p.startPosition + p.endPosition) - bodyStart) / bodyLength;
    o = writeLeaf(unary, o, p, relPos, paper);
    const parent = leaf.parent;
    if (parent === lastParent && parent !== null) {
      unary.copyWithin(o, lastParentAt, lastParentAt + PARENT_COLUMNS);
      o += PARENT_COLUMNS;
    } else if (parent) {
      lastParent = parent;
      lastParentAt = o;
      unary[o++] = 1;
      o = writeNodeBlock(unary, o, parent.props, bodyLength, paper);
      o = writeTags(unary, o, parent.tags, NODE_TAGS);
    } else {
      o = fillZero(unary, o, PARENT_COLUMNS);
    }
    const gp = parent ? parent.parent : null;
    if (gp === lastGp && gp !== null) {
      unary.copyWithin(o, lastGpAt, lastGpAt + GRANDPARENT_COLUMNS);
      o += GRANDPARENT_COLUMNS;
    } else if (gp) {
      lastGp = gp;
      lastGpAt = o;
      unary[o++] = 1;
      o = writeNodeBlock(unary, o, gp.props, bodyLength, paper);
    } else {
      o = fillZero(unary, o, GRANDPARENT_COLUMNS);
    }
    unary.set(rootBlock, o); // the root's 20 NodeBlock values are the same for every block
    o += rootBlock.length;
    o = writeTags(unary, o, leaf.tags, LEAF_TAGS);

    if (!paper) {
      const info = page.leafInfo[i];
      const ctx = info.context;
      const text = javaTrim(leaf.text);
      unary[o++] = p.uCharsInLink / p.nCharacters;
      unary[o++] = b2d(ctx.hidden);
      unary[o++] = ctx.heading > 0 ? (7 - ctx.heading) / 6 : 0;
      unary[o++] = b2d(p.brBefore);
      unary[o++] = b2d(p.brAfter);
      unary[o++] = b2d(p.blockBreakBefore);
      unary[o++] = b2d(p.blockBreakAfter);
      unary[o++] = Math.log1p(info.rawDepth);
      unary[o++] = Math.log1p(leaf.depth);
      unary[o++] = Math.log1p(info.parentCounts.countedChildTags);
      unary[o++] = parent ? parent.props.nCharacters / rootChars : 0;
      unary[o++] = gp ? gp.props.nCharacters / rootChars : 0;
      if (titleWords && titleWords.size > 0) {
        unary[o++] = titleOverlap(text, titleWords, titleMaxLength, titleStarts);
      } else {
        unary[o++] = 0;
      }
      unary[o++] = n > 1 ? i / (n - 1) : 0;
      unary[o++] = Math.log1p(n);
      unary[o++] = Math.log1p(t - 1);
      unary[o++] = Math.log1p(c - 1);
      unary[o++] = b2d(p.nNumeric > 0 && DATE_LIKE.test(text));
      unary[o++] = b2d(STARTS_WITH_SEPARATOR.test(text));
      unary[o++] = b2d(CONTAINS_SEPARATOR.test(text));
      unary[o++] = b2d(text.endsWith(':'));
      unary[o++] = b2d(i > 0 && sameTags(blocks[i - 1].tags, leaf.tags));
      unary[o++] = b2d(i < n - 1 && sameTags(blocks[i + 1].tags, leaf.tags));
      for (let k = 0; k < ctx.tags.length; k++) unary[o++] = ctx.tags[k] ? 1 : -1;
      for (let k = 0; k < ctx.roles.length; k++) unary[o++] = ctx.roles[k] ? 1 : -1;
      const parentDepth = info.rawDepth - 1;
      unary.fill(0, o, o + CLASS_WORDS.length);
      const words = ctx.classWords;
      for (let k = 0; k < words.length; k += 2) unary[o + words[k]] = 1 / (1 + parentDepth - words[k + 1]);
      o += CLASS_WORDS.length;
    }
    if (o !== row + nU) {
      throw new PithError('internal', `feature set ${set}: wrote ${o - row} unary values, names list ${nU}`);
    }
  }

  for (let i = 0; edges && i < n - 1; i++) {
    const a = blocks[i];
    const b = blocks[i + 1];
    const row = i * nE;
    let o = row;
    const lca = lowestCommonAncestor(a, b) ?? root;
    const d = a.depth - lca.depth + (b.depth - lca.depth);
    edge[o++] = b2d(d === 2);
    edge[o++] = b2d(d === 3);
    edge[o++] = b2d(d === 4);
    edge[o++] = b2d(d > 4);
    edge[o++] = a.props.blockBreakAfter || b.props.blockBreakBefore ? 1 : 0;
    o = writeNodeBlock(edge, o, lca.props, bodyLength, paper);
    if (!paper) {
      const ia = page.leafInfo[i];
      const ib = page.leafInfo[i + 1];
      const ca = ia.context;
      const cb = ib.context;
      edge[o++] = b2d(a.parent === b.parent);
      edge[o++] = b2d(sameTags(a.tags, b.tags));
      edge[o++] = b2d(selIds[i] === selIds[i + 1]);
      edge[o++] = b2d(ca.inLink && cb.inLink);
      edge[o++] = b2d(ca.inLink !== cb.inLink);
      edge[o++] = b2d(ca.hidden !== cb.hidden);
      edge[o++] = b2d(ca.heading !== cb.heading);
      edge[o++] = b2d(a.props.brAfter || b.props.brBefore);
      edge[o++] = Math.log1p(d);
      edge[o++] = Math.log1p(lca.depth);
      edge[o++] = Math.abs(Math.log(a.props.nCharacters) - Math.log(b.props.nCharacters));
      let diff = 0;
      if (ca !== cb) {
        for (let k = 0; k < ca.tags.length; k++) if (ca.tags[k] !== cb.tags[k]) diff++;
        for (let k = 0; k < ca.roles.length; k++) if (ca.roles[k] !== cb.roles[k]) diff++;
        diff += classWordsApart(ca, cb);
      }
      edge[o++] = Math.log1p(diff);
      edge[o++] = b2d(ca.commentDepth !== cb.commentDepth);
    }
    if (o !== row + nE) {
      throw new PithError('internal', `feature set ${set}: wrote ${o - row} edge values, names list ${nE}`);
    }
  }
  return { unary, edge, nBlocks: n, selectorIds: selIds };
}
