// What separates two consecutive kept blocks in the page as a browser would show it: nothing, a space, a line or
// a table cell. Render only: the block texts (and so the features) are not touched.
//
// The collapsed DOM drops whitespace-only text nodes (docs/design.md, Collapsed DOM), so `<span>from</span> <span>typing</span>` gives the
// blocks "from" and "typing" with the space between them gone, and the reference's concatenation (docs/design.md, Text output) prints "fromtyping" (the
// reference does the same). Code listings, tag clouds and inline-styled prose lose their word boundaries that way.
// This looks at the DOM between the end of one block's text and the start of the next one's: a whitespace text
// node, a line break or a block-level boundary means the two are separate words. A block's DOM node may be the top
// element of a merged chain (`<em><a>Red Book</a> </em>`), so the walk starts at the block's own text inside it and
// ends at the next block's own text: whitespace inside the chain counts.

import { BLOCK_TAGS, SKIP_TAGS } from '../blocks/cdom.js';
import { type DomElement, type DomNode, isElement, isText, type DomText } from '../parse/dom.js';
import type { Page } from '../blocks/page.js';
import { isBlankText } from '../parse/text-stats.js';
import { ANCESTOR_TAGS } from '../blocks/context.js';
import type { TextLayout } from './text.js';
import { preformattedText } from '../blocks/units.js';
import { lineBreakJoins } from '../blocks/lines.js';
import { isRegexSpace } from '../blocks/repeats.js';

const WHITESPACE = /[\s\u00a0]/;
/** Steps walked at most between two blocks; past it they are taken as separate (a long stretch of dropped markup). */
const MAX_STEPS = 200;
/** Elements climbed at most from a block to its table cell. */
const MAX_CELL_CLIMB = 12;

/** Set by `after`: whether its last climb left a block-level element (module state: no object per step). */
let crossedBlock = false;

/** The node after `node`'s subtree in document order; sets `crossedBlock` when the climb left a block-level element. */
function after(node: DomNode): DomNode | null {
  crossedBlock = false;
  let n: DomNode | null = node;
  while (n !== null) {
    const sibling: DomNode | null = n.nextSibling;
    if (sibling !== null) return sibling;
    n = n.parentNode;
    if (n !== null && isElement(n) && BLOCK_TAGS.has((n as DomElement).localName)) crossedBlock = true;
  }
  return null;
}

/** Last node that belongs to a block whose text starts at `start` (text split by the parser at references runs on). */
function blockEnd(start: DomNode): DomNode {
  if (!isText(start)) return start;
  let end: DomNode = start;
  while (end.nextSibling !== null && isText(end.nextSibling)) end = end.nextSibling;
  return end;
}

/**
 * The first (or last) non-blank text node inside `root`, skipping what the collapsed DOM skips; `root` itself when
 * it is a text node, null when none is found within MAX_STEPS nodes.
 */
function textIn(root: DomNode, last: boolean): DomNode | null {
  if (isText(root)) return root;
  let found: DomNode | null = null;
  let n: DomNode | null = root.firstChild;
  for (let steps = 0; n !== null && steps < MAX_STEPS; steps++) {
    if (isText(n)) {
      if (!isBlankText((n as DomText).data)) {
        if (!last) return n;
        found = n;
      }
    } else if (isElement(n) && !SKIP_TAGS.has((n as DomElement).localName) && n.firstChild !== null) {
      n = n.firstChild;
      continue;
    }
    while (n !== null && n.nextSibling === null) {
      n = n.parentNode;
      if (n === root) return found;
    }
    if (n !== null) n = n.nextSibling;
  }
  return found;
}

/**
 * What the page shows between the block whose DOM node is `from` and the block whose DOM node is `to` (the next
 * block in document order): '' when the two run on as one word, else the whitespace. Outside `<pre>` any boundary
 * is ' '; with `verbatim` (both inside `<pre>`) it is the whitespace itself, '\n' for a line break and '\n\n' for a
 * block boundary.
 */
export function gapBetween(from: DomNode, to: DomNode, verbatim = false): string {
  const start = textIn(from, true) ?? from;
  const target = textIn(to, false) ?? to;
  let gap = '';
  let next = after(blockEnd(start));
  for (let steps = 0; next !== null; steps++) {
    if (crossedBlock || steps > MAX_STEPS) return verbatim ? '\n\n' : ' ';
    if (next === target) return gap;
    if (isText(next)) {
      const data = (next as DomText).data;
      if (WHITESPACE.test(data)) {
        if (!verbatim) return ' ';
        gap += data;
      }
      next = after(next);
      continue;
    }
    if (isElement(next)) {
      const tag = (next as DomElement).localName;
      if (BLOCK_TAGS.has(tag)) {
        if (!verbatim) return ' ';
        if (tag !== 'br') return '\n\n';
        gap += '\n';
        next = after(next);
        continue;
      }
      if (!SKIP_TAGS.has(tag) && next.firstChild !== null) {
        next = next.firstChild;
        continue;
      }
    }
    next = after(next);
  }
  return verbatim ? '\n\n' : ' ';
}

/** True when the page shows a word boundary between the blocks whose DOM nodes are `from` and `to`. */
export function spaceBetween(from: DomNode, to: DomNode): boolean {
  return gapBetween(from, to) !== '';
}

/** The table cell (`td`/`th`) that holds a block's text directly (inline markup only in between), or null. */
function cellOf(node: DomNode): DomElement | null {
  let n: DomNode | null = node;
  for (let i = 0; n !== null && i < MAX_CELL_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const tag = (n as DomElement).localName;
    if (tag === 'td' || tag === 'th') return n as DomElement;
    if (BLOCK_TAGS.has(tag)) return null;
  }
  return null;
}

function rowOf(cell: DomElement): DomNode | null {
  const row = cell.parentNode;
  return row !== null && isElement(row) && (row as DomElement).localName === 'tr' ? row : null;
}

function tableOf(row: DomNode): DomNode | null {
  let n = row.parentNode;
  for (let i = 0; n !== null && i < 3; i++, n = n.parentNode) {
    if (isElement(n) && (n as DomElement).localName === 'table') return n;
  }
  return null;
}

/**
 * Separator between two kept blocks that sit directly in table cells: '\t' between cells of one row, '\n' between
 * rows of one table, ' ' within one cell; null otherwise (a layout table whose cells hold paragraphs keeps its block breaks).
 */
export function cellSeparator(from: DomNode, to: DomNode): '\t' | '\n' | ' ' | null {
  const a = cellOf(from);
  if (a === null) return null;
  const b = cellOf(to);
  if (b === null) return null;
  if (a === b) return ' '; // a <br> inside one cell: the row stays on one line
  const rowA = rowOf(a);
  const rowB = rowOf(b);
  if (rowA === null || rowB === null) return null;
  if (rowA === rowB) return '\t';
  const table = tableOf(rowA);
  return table !== null && table === tableOf(rowB) ? '\n' : null;
}

const PRE = ANCESTOR_TAGS.indexOf('pre');
const TABLE = ANCESTOR_TAGS.indexOf('table');
const CR = /\r\n?/g;

/** The text of a block as the page shows it inside `<pre>`: its text nodes verbatim (line breaks and indentation). */
function verbatimText(node: DomNode): string {
  if (isElement(node)) return preformattedText(node); // a code block: one unit (blocks/units.ts)
  const start = textIn(node, false);
  if (start === null) return '';
  let text = '';
  for (let n: DomNode | null = start; n !== null && isText(n); n = n.nextSibling) text += (n as DomText).data;
  return text.replace(CR, '\n');
}

/** Closing quotes and brackets that may follow a sentence's end: " ' ’ ” ) ]. */
const CLOSERS: ReadonlySet<number> = new Set([0x22, 0x27, 0x2019, 0x201d, 0x29, 0x5d]);
const UPPER_START = /^\p{Lu}/u;

/** Whether `s` ends a sentence: `.`, `!`, `?` or `…`, then at most three closing quotes or brackets and any
 *  whitespace (read from the end). */
function endsSentence(s: string): boolean {
  let i = s.length - 1;
  while (i >= 0 && isRegexSpace(s.charCodeAt(i))) i--;
  for (let k = 0; i >= 0 && k < 3 && CLOSERS.has(s.charCodeAt(i)); k++) i--;
  const c = i >= 0 ? s.charCodeAt(i) : 0;
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026;
}

/** Whether `s` holds whitespace between two of its characters (more than one word). */
function severalWords(s: string): boolean {
  let i = 0;
  let j = s.length - 1;
  while (i <= j && isRegexSpace(s.charCodeAt(i))) i++;
  while (j >= i && isRegexSpace(s.charCodeAt(j))) j--;
  for (let k = i + 1; k < j; k++) if (isRegexSpace(s.charCodeAt(k))) return true;
  return false;
}

const LOWER_END = /\p{Ll}$/u;
const WORD_START = /^\p{Lu}\p{Ll}/u;

/**
 * Whether two texts with no whitespace between them in the markup, across an element boundary, are shown apart:
 * pages lay such runs out as blocks with CSS, which pith does not read ("underground.</span><span>Credit", a
 * heading styled as a span over its paragraph, "LinkedIn</a><span>Patrick Reinhart", "AI agents</h3><p>Automate").
 * The next text starts with a capital letter, and either the first ends a sentence and one of them is more than a
 * word, or the first ends with a small letter and the next is words, the first a capitalised one. So a word split by
 * markup stays whole ("<b>W</b>ord", "un<em>believ</em>able", a brand "You<span>Tube</span>", "Mac<b>Book</b>s", a
 * dotted name "json.</span><span>JSONDecoder"), and so does a footnote mark after a full stop ("law.<sup>3</sup>").
 * At such places on the dev pages the reviewed text has whitespace almost always (hundreds of places, one without).
 */
function shownApart(before: string, next: string): boolean {
  if (!UPPER_START.test(next)) return false;
  if (endsSentence(before)) return severalWords(before) || severalWords(next);
  return LOWER_END.test(before.slice(-2)) && WORD_START.test(next.slice(0, 4)) && severalWords(next);
}

/** Inline elements of code, whose pieces are names ("json.</code><code>JSONDecoder"), not sentences. */
const CODE_TAGS: ReadonlySet<string> = new Set(['code', 'kbd', 'samp', 'tt', 'var']);
/** Elements climbed at most from a text to find a code element around it. */
const MAX_CODE_CLIMB = 8;

/** Whether `node` lies in an inline code element (within MAX_CODE_CLIMB ancestors). */
function inCode(node: DomNode): boolean {
  let n = node.parentNode;
  for (let i = 0; n !== null && i < MAX_CODE_CLIMB; i++, n = n.parentNode) {
    if (isElement(n) && CODE_TAGS.has((n as DomElement).localName)) return true;
  }
  return false;
}

/** Whether the kept texts `before` and `next` (DOM text nodes, or the blocks' nodes) are shown apart though the
 *  markup has no whitespace between them: shownApart, and neither is code. */
export function textsApart(before: DomNode, beforeText: string, next: DomNode, nextText: string): boolean {
  return shownApart(beforeText, nextText) && !inCode(before) && !inCode(next);
}

/** How the plain text of `page` is laid out: word boundaries, table rows and cells, `<pre>` text kept as is. */
export function pageTextLayout(page: Page): TextLayout {
  const inPre = (i: number): boolean => page.leafInfo[i]?.context.tags[PRE] === 1;
  const inTable = (i: number): boolean => page.leafInfo[i]?.context.tags[TABLE] === 1;
  const node = (i: number): DomNode => page.blocks[i].domNode as DomNode;
  return {
    gap: (a, b) => {
      const pre = inPre(a) && inPre(b);
      const gap = gapBetween(node(a), node(b), pre);
      return gap === '' && !pre && textsApart(node(a), page.blocks[a].text, node(b), page.blocks[b].text) ? ' ' : gap;
    },
    verbatimGap: (a, b) => (inPre(a) && inPre(b) ? gapBetween(node(a), node(b), true) : null),
    cell: (a, b) => (inTable(a) && inTable(b) ? cellSeparator(node(a), node(b)) : null),
    lineBreak: (a, b) => !inPre(a) && !inPre(b) && lineBreakJoins(page.blocks, a),
    verbatim: (i) => (inPre(i) ? verbatimText(node(i)) : undefined),
  };
}
