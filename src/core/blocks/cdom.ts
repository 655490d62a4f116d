// Collapsed DOM and raw node properties (docs/design.md, Collapsed DOM), built in ONE iterative forward walk over the DOM.
// Iterative, not recursive: real pages nest thousands of unclosed tags deep.
import type { CdomNode, NodeProps } from '../../types.js';
import { DOCUMENT_NODE, type DomDocument, type DomNode, attr, isElement, isText, topLevelNodes } from '../parse/dom.js';
import { fillBlockTextStats, isBlankText, javaTrim, normaliseWhitespace } from '../parse/text-stats.js';
import { type AncestorContext, ContextMemo, NO_CLASSES, ROOT_CONTEXT, childContext, classFactsOf } from './context.js';
import { PRE_TAGS, preformattedText } from './units.js';

/** The reference's skip tags (docs/design.md, Collapsed DOM); `checkbox` and `radio` never match, kept for fidelity. */
export const SKIP_TAGS: ReadonlySet<string> = new Set([
  '#doctype', 'br', 'checkbox', 'head', 'hr', 'iframe', 'img', 'input', 'meta', 'noscript', 'radio', 'script',
  'select', 'style', 'textarea', 'title', 'video',
  // pith: an inert template is never shown (its content is a fragment for scripts), so it never yields blocks.
  'template',
]);

/**
 * `Settings.blockTags` of the reference (50 names, `br` included), plus the block-level elements it misses (pith):
 * `th` and `caption` (table cells and titles: "ModelPrice" otherwise), `dt` (a term glued to the one before),
 * `details`, `summary`, `legend` and `dialog`.
 */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'canvas', 'center', 'checkbox', 'dd', 'div', 'dl',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header',
  'hgroup', 'hr', 'html', 'iframe', 'input', 'li', 'main', 'nav', 'noscript', 'ol', 'output', 'p', 'pre', 'radio',
  'section', 'select', 'table', 'tbody', 'td', 'textarea', 'tfoot', 'thead', 'tr', 'ul', 'video',
  'th', 'caption', 'dt', 'details', 'summary', 'legend', 'dialog',
]);

/** The patent's counted child tags (claim 3; also the container features of container.ts). */
export const PATENT_CHILD_TAGS: ReadonlySet<string> = new Set([
  'div', 'span', 'a', 'b', 'br', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img', 'li', 'ul', 'ol', 'p', 'pre', 'q',
  'table', 'tr', 'td',
]);

/** Per-element counters shared by the leaves directly under it. */
export interface ElementCounts {
  /** Child elements of the raw parent whose tag is one of the patent's counted tags. */
  countedChildTags: number;
}

/** What the walk knows about a leaf beyond its CdomNode (pith features). Parallel to `blocks`. */
export interface LeafInfo {
  context: AncestorContext;
  /** Depth of the text node in the raw DOM, below the walk root (root's children = 1). */
  rawDepth: number;
  parentCounts: ElementCounts;
}

export interface CdomResult {
  root: CdomNode | null;
  blocks: CdomNode[];
  leafInfo: LeafInfo[];
  truncated: boolean;
  truncatedReason?: string;
  /** Elements visited (skipped ones included). */
  nDomElements: number;
  /** `<noscript>` elements met (skipped unless options.keepNoscript). */
  nNoscript: number;
}

export interface CdomLimits {
  maxDomNodes: number;
  maxBlocks: number;
}

export interface CdomOptions {
  /** Walk `<noscript>` content instead of skipping it (fallback for script-rendered pages, e.g. Discourse). */
  keepNoscript?: boolean;
}

interface Frame {
  el: DomNode;
  tag: string;
  /** Class names of the element (classFactsOf): one array per distinct class attribute. */
  classList: string[];
  id: string;
  prevName: string;
  nextName: string;
  cursor: DomNode | null;
  /** Children as an array, used instead of `cursor` for the document (see topLevelNodes). */
  list: DomNode[] | null;
  listIndex: number;
  prevChildName: string;
  /** The first kept child (CDOM node). */
  firstKept: CdomNode | null;
  /** Where the chain of `firstKept` starts in the chain log. */
  firstStart: number;
  /** All kept children, created at the second one (most elements keep one child or none: see keep). */
  kept: CdomNode[] | null;
  hasInput: boolean;
  context: AncestorContext;
  rawDepth: number;
  /** Created when first needed (a counted child tag or a leaf); leaves share it, so later counts reach them. */
  counts: ElementCounts | null;
  /** For the contexts of the elements at this frame's depth: kept when the frame is reused (newFrame). */
  contextMemo: ContextMemo;
}


function nameOf(n: DomNode | null): string {
  if (n === null) return '';
  return isElement(n) ? n.localName : '';
}

function leafProps(text: string, start: number, prevName: string, nextName: string): NodeProps {
  const props: NodeProps = {
    nCharacters: 1, nWords: 0, nSentences: 1, nPunctuation: 0, nNumeric: 0, nStopwords: 0, nWordsWithCapital: 0,
    totalWordLength: 0, nCharsInLink: 0,
    endsWithPunctuation: false, endsWithQuestionMark: false, containsCopyright: false, containsEmail: false,
    containsUrl: false, containsYear: false,
    startPosition: start,
    endPosition: start + text.length,
    blockBreakBefore: BLOCK_TAGS.has(prevName),
    blockBreakAfter: BLOCK_TAGS.has(nextName),
    brBefore: prevName === 'br',
    brAfter: nextName === 'br',
    containsForm: false,
    uWords: 0, uStopwords: 0, uWordsWithCapital: 0, uTotalWordLength: 0, uPunctuation: 0, uSentences: 1,
    uEndsWithPunctuation: false, uCharsInLink: 0,
    nChildrenDeep: 0,
  };
  fillBlockTextStats(javaTrim(text), props);
  return props;
}

function propagateLeft(children: CdomNode[]): void {
  let n: CdomNode | undefined = children[0];
  while (n !== undefined && !n.props.blockBreakBefore) {
    n.props.blockBreakBefore = true;
    n = n.children[0];
  }
}

function propagateRight(children: CdomNode[]): void {
  let n: CdomNode | undefined = children[children.length - 1];
  while (n !== undefined && !n.props.blockBreakAfter) {
    n.props.blockBreakAfter = true;
    n = n.children[n.children.length - 1];
  }
}

/** Collapsed DOM (docs/design.md): an element with exactly one kept child is merged into it (the child object is reused). */
function mergeInto(f: Frame, child: CdomNode, chains: ChainLog): CdomNode {
  chains.push(f.tag, f.classList, f.id);
  child.domNode = f.el;
  const p = child.props;
  if (f.tag === 'a') p.nCharsInLink = p.nCharacters;
  // A break the merged chain already has stays: `<a><div>Alpha</div></a><a><div>Beta</div></a>` keeps the div's
  // breaks although the `a` around it is inline (the reference overwrote them: "AlphaBeta").
  const bbBefore = p.blockBreakBefore || BLOCK_TAGS.has(f.tag) || BLOCK_TAGS.has(f.prevName);
  const bbAfter = p.blockBreakAfter || BLOCK_TAGS.has(f.tag) || BLOCK_TAGS.has(f.nextName);
  p.blockBreakBefore = bbBefore;
  p.blockBreakAfter = bbAfter;
  if (bbBefore) propagateLeft(child.children);
  if (bbAfter) propagateRight(child.children);
  p.brBefore = p.brBefore || f.prevName === 'br';
  p.brAfter = p.brAfter || f.nextName === 'br';
  return child;
}

/** Collapsed DOM (docs/design.md): an element with two or more kept children. */
function aggregate(f: Frame, kids: CdomNode[], chains: ChainLog): CdomNode {
  let nCharacters = 0, nWords = 0, nSentences = 0, nPunctuation = 0, nNumeric = 0, nStopwords = 0;
  let nWordsWithCapital = 0, totalWordLength = 0, nCharsInLink = 0, nChildrenDeep = 0;
  let uWords = 0, uStopwords = 0, uWordsWithCapital = 0, uTotalWordLength = 0, uPunctuation = 0, uSentences = 0;
  let uCharsInLink = 0;
  let containsCopyright = false, containsEmail = false, containsUrl = false, containsYear = false;
  const isA = f.tag === 'a';
  for (const k of kids) {
    const c = k.props;
    nCharacters += c.nCharacters;
    nWords += c.nWords;
    nSentences += c.nSentences;
    nPunctuation += c.nPunctuation;
    nNumeric += c.nNumeric;
    nStopwords += c.nStopwords;
    nWordsWithCapital += c.nWordsWithCapital;
    totalWordLength += c.totalWordLength;
    nCharsInLink += isA ? c.nCharacters : c.nCharsInLink;
    nChildrenDeep += 1 + c.nChildrenDeep;
    uWords += c.uWords;
    uStopwords += c.uStopwords;
    uWordsWithCapital += c.uWordsWithCapital;
    uTotalWordLength += c.uTotalWordLength;
    uPunctuation += c.uPunctuation;
    uSentences += c.uSentences;
    uCharsInLink += c.uCharsInLink;
    containsCopyright ||= c.containsCopyright;
    containsEmail ||= c.containsEmail;
    containsUrl ||= c.containsUrl;
    containsYear ||= c.containsYear;
  }
  const first = kids[0].props;
  const last = kids[kids.length - 1].props;
  const bbBefore = BLOCK_TAGS.has(f.tag) || BLOCK_TAGS.has(f.prevName);
  const bbAfter = BLOCK_TAGS.has(f.tag) || BLOCK_TAGS.has(f.nextName);
  const props: NodeProps = {
    nCharacters, nWords, nSentences, nPunctuation, nNumeric, nStopwords, nWordsWithCapital, totalWordLength,
    nCharsInLink,
    endsWithPunctuation: last.endsWithPunctuation,
    endsWithQuestionMark: last.endsWithQuestionMark,
    containsCopyright, containsEmail, containsUrl, containsYear,
    startPosition: first.startPosition,
    endPosition: last.endPosition,
    blockBreakBefore: bbBefore,
    blockBreakAfter: bbAfter,
    brBefore: f.prevName === 'br',
    brAfter: f.nextName === 'br',
    containsForm: f.hasInput,
    uWords, uStopwords, uWordsWithCapital, uTotalWordLength, uPunctuation, uSentences,
    uEndsWithPunctuation: last.uEndsWithPunctuation,
    uCharsInLink,
    nChildrenDeep,
  };
  if (bbBefore) propagateLeft(kids);
  if (bbAfter) propagateRight(kids);
  chains.push(f.tag, f.classList, f.id);
  const node: CdomNode = {
    tags: NO_CHAIN,
    classNames: NO_CHAIN,
    ids: NO_CHAIN,
    text: '',
    children: kids,
    parent: null,
    depth: 0,
    props,
    domNode: f.el,
  };
  for (const k of kids) k.parent = node;
  return node;
}

/** The chain of a CDOM node not yet final (ChainLog). */
const NO_CHAIN = Object.freeze([]) as unknown as never[];

/**
 * The merged chains of the CDOM nodes that may still merge into their parent, bottom-up, in one log. The walk keeps
 * it as a stack: the entries of the node that arrives at an element are the top ones, from the node's start; when
 * the node is final (a child of an aggregate, or the root) they are copied into its arrays, which then have the
 * chain's exact length and go top-down, and dropped. (Pushing onto each node's own arrays took room for 17 entries
 * at the first merge, and a reverse at the end.)
 */
class ChainLog {
  private readonly tags: string[] = [];
  private readonly classNames: string[][] = [];
  private readonly ids: string[] = [];
  /** Entries in use; the arrays may hold stale ones above. */
  private top = 0;
  /**
   * By length, the chains of ids and of class lists of chains without any: shared by this walk's nodes (most chains
   * have no id, many no class). Nothing changes a chain once it is final.
   */
  private readonly noIds: string[][] = [];
  private readonly noClasses: string[][][] = [];

  /** Where the chain of the next node starts. */
  get end(): number {
    return this.top;
  }

  push(tag: string, classList: string[], id: string): void {
    this.tags[this.top] = tag;
    this.classNames[this.top] = classList;
    this.ids[this.top] = id;
    this.top++;
  }

  /** Gives `node` its final chain, the entries from `start` up, and drops them. */
  finish(node: CdomNode, start: number): void {
    const n = this.top - start;
    node.tags = this.tags.slice(start, this.top).reverse();
    node.classNames = allAre(this.classNames, start, this.top, NO_CLASSES)
      ? (this.noClasses[n] ??= filled(n, NO_CLASSES))
      : this.classNames.slice(start, this.top).reverse();
    node.ids = allAre(this.ids, start, this.top, '')
      ? (this.noIds[n] ??= filled(n, ''))
      : this.ids.slice(start, this.top).reverse();
    this.top = start;
  }
}

/** An array of n times `value` (pushed: a packed array, as the copied chains are). */
function filled<T>(n: number, value: T): T[] {
  const a: T[] = [];
  for (let k = 0; k < n; k++) a.push(value);
  return a;
}

/** Whether a[start, end) are all `value`. */
function allAre<T>(a: readonly T[], start: number, end: number, value: T): boolean {
  for (let k = start; k < end; k++) if (a[k] !== value) return false;
  return true;
}

/**
 * The frame of element `el`: `reuse` (the frame a finished element left at this stack depth) filled anew, or a new
 * one. A walk pushes a frame per element but holds only as many as the tree is deep, and nothing keeps a frame
 * once its element is finished (the CDOM nodes and leaf infos take its values): one allocation per depth, not per
 * element. The fields are written in one order either way (one hidden class).
 */
function newFrame(el: DomNode, tag: string, prevName: string, nextName: string, parent: Frame | null, reuse?: Frame): Frame {
  let classFacts = classFactsOf('');
  let id = '';
  let context = ROOT_CONTEXT;
  if (isElement(el)) {
    const hasAttrs = el.hasAttributes();
    if (hasAttrs) {
      classFacts = classFactsOf(attr(el, 'class') ?? '');
      id = attr(el, 'id') ?? '';
    }
    context = childContext(parent ? parent.context : ROOT_CONTEXT, el, tag, classFacts, id,
      parent ? parent.rawDepth + 1 : 0, hasAttrs, reuse?.contextMemo ?? null);
  }
  const classList = classFacts.list;
  const cursor = el.nodeType === DOCUMENT_NODE ? null : el.firstChild;
  const list = el.nodeType === DOCUMENT_NODE ? topLevelNodes(el as DomDocument) : null;
  const rawDepth = parent ? parent.rawDepth + 1 : 0;
  if (reuse === undefined) {
    return {
      el, tag, classList, id, prevName, nextName, cursor, list, listIndex: 0, prevChildName: '', firstKept: null,
      firstStart: 0, kept: null,
      hasInput: false, context, rawDepth, counts: null, contextMemo: new ContextMemo(),
    };
  }
  reuse.el = el;
  reuse.tag = tag;
  reuse.classList = classList;
  reuse.id = id;
  reuse.prevName = prevName;
  reuse.nextName = nextName;
  reuse.cursor = cursor;
  reuse.list = list;
  reuse.listIndex = 0;
  reuse.prevChildName = '';
  reuse.firstKept = null;
  reuse.firstStart = 0;
  reuse.kept = null;
  reuse.hasInput = false;
  reuse.context = context;
  reuse.rawDepth = rawDepth;
  reuse.counts = null;
  return reuse;
}

/**
 * Adds a kept child to frame `f`. Most elements keep one child (merged into them) or none, so the array of children
 * is made only at the second: an empty array that grows on its first push takes room for 17.
 */
function keep(f: Frame, node: CdomNode, start: number, chains: ChainLog): void {
  if (f.firstKept === null) {
    f.firstKept = node;
    f.firstStart = start;
    return;
  }
  // f will be an aggregate: its children's chains are final (the new one's is on top of the first's).
  chains.finish(node, start);
  if (f.kept === null) {
    chains.finish(f.firstKept, f.firstStart);
    f.kept = [f.firstKept, node];
  } else {
    f.kept.push(node);
  }
}

/** The context of a code block's text: the `<pre>`'s, and its `<code>` child's when it has one (`<pre><code>`). */
function codeContext(f: Frame): AncestorContext {
  let n = f.el.firstChild;
  while (n !== null && isText(n) && isBlankText(n.data)) n = n.nextSibling;
  if (n === null || !isElement(n) || n.localName !== 'code') return f.context;
  const cls = n.hasAttributes() ? attr(n, 'class') ?? '' : '';
  return childContext(f.context, n, 'code', classFactsOf(cls), n.hasAttributes() ? attr(n, 'id') ?? '' : '', f.rawDepth + 1, n.hasAttributes());
}

/**
 * Builds the CDOM under `rootNode` (an element, or a document treated as `rootTag`).
 * Blocks are the leaves in document order; positions are cumulative offsets of the leaf texts (text order).
 */
export function buildCdom(rootNode: DomNode, rootTag: string, limits: CdomLimits, options: CdomOptions = {}): CdomResult {
  const keepNoscript = options.keepNoscript === true;
  const blocks: CdomNode[] = [];
  const leafInfo: LeafInfo[] = [];
  let truncatedReason: string | undefined;
  let nDomElements = 0;
  let nNoscript = 0;
  let position = 0;
  let result: CdomNode | null = null;

  const chains = new ChainLog();
  let resultStart = 0;
  const stack: Frame[] = [newFrame(rootNode, rootTag, '', '', null)];
  /** frames[d]: the frame last used at stack depth d, filled anew for the next element there (newFrame). */
  const frames: Frame[] = [stack[0]];
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    let c: DomNode | null = null;
    let next: DomNode | null = null;
    if (truncatedReason === undefined) {
      if (f.list === null) {
        c = f.cursor;
        if (c !== null) next = f.cursor = c.nextSibling;
      } else if (f.listIndex < f.list.length) {
        c = f.list[f.listIndex++];
        next = f.listIndex < f.list.length ? f.list[f.listIndex] : null;
      }
    }
    if (c === null) {
      // Finish this element.
      stack.pop();
      const parent = stack.length > 0 ? stack[stack.length - 1] : null;
      let node: CdomNode | null = null;
      let start = chains.end;
      if (f.kept !== null) {
        node = aggregate(f, f.kept, chains);
      } else if (f.firstKept !== null) {
        start = f.firstStart;
        node = mergeInto(f, f.firstKept, chains);
      }
      if (parent) {
        if (node) keep(parent, node, start, chains);
        if (f.hasInput) parent.hasInput = true;
      } else {
        result = node;
        resultStart = start;
      }
      continue;
    }
    if (isText(c)) {
      const prevName = f.prevChildName;
      f.prevChildName = '';
      // the parser splits text at every character reference ("AT&amp;T" -> "AT", "&", "T"); jsoup has one text node.
      let raw = c.data;
      while (next !== null && isText(next)) {
        raw += next.data;
        if (f.list === null) {
          next = f.cursor = next.nextSibling;
        } else {
          f.listIndex++;
          next = f.listIndex < f.list.length ? f.list[f.listIndex] : null;
        }
      }
      if (isBlankText(raw)) continue;
      if (blocks.length >= limits.maxBlocks) {
        truncatedReason = `more than ${limits.maxBlocks} blocks (limits.maxBlocks); the rest of the page was ignored`;
        continue;
      }
      const text = normaliseWhitespace(raw);
      const props = leafProps(text, position, prevName, nameOf(next));
      position += text.length;
      const start = chains.end;
      chains.push('#text', NO_CLASSES, '');
      const leaf: CdomNode = {
        tags: NO_CHAIN,
        classNames: NO_CHAIN,
        ids: NO_CHAIN,
        text,
        children: [],
        parent: null,
        depth: 0,
        props,
        domNode: c,
      };
      if (f.context.inLink) props.uCharsInLink = props.nCharacters;
      blocks.push(leaf);
      f.counts ??= { countedChildTags: 0 };
      leafInfo.push({ context: f.context, rawDepth: f.rawDepth + 1, parentCounts: f.counts });
      keep(f, leaf, start, chains);
    } else if (isElement(c)) {
      const tag = c.localName;
      const prevName = f.prevChildName;
      f.prevChildName = tag;
      nDomElements++;
      if (nDomElements > limits.maxDomNodes) {
        truncatedReason = `more than ${limits.maxDomNodes} DOM elements (limits.maxDomNodes); the rest of the page was ignored`;
        continue;
      }
      if (PATENT_CHILD_TAGS.has(tag)) (f.counts ??= { countedChildTags: 0 }).countedChildTags++;
      if (tag === 'noscript') nNoscript++;
      if (SKIP_TAGS.has(tag) && !(keepNoscript && tag === 'noscript')) {
        if (tag === 'input') f.hasInput = true;
        continue;
      }
      const frame = newFrame(c, tag, prevName, nameOf(next), f, frames[stack.length]);
      frames[stack.length] = frame;
      stack.push(frame);
      if (PRE_TAGS.has(tag)) {
        // A code block is one unit (units.ts): one leaf for all its text, its children not walked.
        frame.cursor = null;
        const raw = preformattedText(c);
        if (isBlankText(raw)) continue;
        if (blocks.length >= limits.maxBlocks) {
          truncatedReason = `more than ${limits.maxBlocks} blocks (limits.maxBlocks); the rest of the page was ignored`;
          continue;
        }
        const text = normaliseWhitespace(raw);
        const props = leafProps(text, position, '', '');
        position += text.length;
        const start = chains.end;
        chains.push('#text', NO_CLASSES, '');
        const leaf: CdomNode = {
          tags: NO_CHAIN, classNames: NO_CHAIN, ids: NO_CHAIN, text, children: [], parent: null, depth: 0, props,
          domNode: c,
        };
        const context = codeContext(frame);
        if (context.inLink) props.uCharsInLink = props.nCharacters;
        blocks.push(leaf);
        frame.counts = { countedChildTags: 0 };
        leafInfo.push({ context, rawDepth: frame.rawDepth + 1, parentCounts: frame.counts });
        keep(frame, leaf, start, chains);
      }
    } else {
      f.prevChildName = '';
    }
  }

  // Depths, top-down (iterative).
  if (result) {
    chains.finish(result, resultStart);
    const todo: CdomNode[] = [result];
    while (todo.length > 0) {
      const n = todo.pop()!;
      for (const k of n.children) {
        k.depth = n.depth + 1;
        todo.push(k);
      }
    }
  }
  return { root: result, blocks, leafInfo, truncated: truncatedReason !== undefined, truncatedReason, nDomElements, nNoscript };
}
