// Label passes after decoding that make the kept content whole: a data table is kept with all its cells (the
// classifier judges each cell alone and drops short header cells: "Physics" kept, "Chemistry" lost), and heading
// edit links ("[edit]", Wikipedia's `mw-editsection`, the brackets left around a dropped link) are not text.
// A section heading is kept with the section it heads, and a line of text (blocks between two block breaks) whole,
// with the other lines of its paragraph when the page breaks the lines with a lone `<br>` (blocks/lines.ts).
import type { CdomNode } from '../../types.js';
import type { LeafInfo } from './cdom.js';
import { ANCESTOR_TAGS } from './context.js';
import { lineBreakJoins } from './lines.js';
import { type DomElement, type DomNode, isElement } from '../parse/dom.js';

/** Elements climbed at most from a block to its cell and table. */
const MAX_CLIMB = 12;
/** Share of a data table's characters that must be kept for the whole table to be kept. */
const KEEP_SHARE = 0.5;
/** Inline elements allowed between a cell and a block's text (more structure than this: a layout cell). */
const INLINE = new Set(['a', 'b', 'strong', 'i', 'em', 'span', 'small', 'sup', 'sub', 'abbr', 'code', 'font', 'time', 'data', 'br', 'u', 's', 'mark', 'bdi', 'q', 'cite', 'img']);

/** The table whose cell holds `node` through inline markup only, or null. */
function tableOf(node: DomNode): DomNode | null {
  let n: DomNode | null = node;
  let cell = false;
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const tag = (n as DomElement).localName;
    if (!cell) {
      if (tag === 'td' || tag === 'th') cell = true;
      else if (!INLINE.has(tag)) return null;
      continue;
    }
    if (tag === 'table') return n;
  }
  return null;
}

/**
 * Keeps every cell of a data table whose cells are mostly kept already (by characters), and the header cells of
 * any table with a kept cell. A cell counts only when its text sits in it through inline markup (a layout table's
 * cells hold paragraphs and divs, and are left to the classifier). `labels` is changed in place.
 */
export function keepTablesWhole(blocks: readonly CdomNode[], labels: Uint8Array): void {
  const tables = new Map<DomNode, { blocks: number[]; kept: number; total: number }>();
  for (let i = 0; i < blocks.length; i++) {
    const table = tableOf(blocks[i].domNode as DomNode);
    if (table === null) continue;
    let t = tables.get(table);
    if (t === undefined) tables.set(table, (t = { blocks: [], kept: 0, total: 0 }));
    t.blocks.push(i);
    const n = blocks[i].text.length;
    t.total += n;
    if (labels[i] === 1) t.kept += n;
  }
  for (const t of tables.values()) {
    if (t.kept === 0 || t.blocks.length < 4) continue;
    const whole = t.kept >= KEEP_SHARE * t.total;
    for (const i of t.blocks) {
      if (labels[i] === 1) continue;
      if (whole || isHeaderCell(blocks[i].domNode as DomNode)) labels[i] = 1;
    }
  }
}

function isHeaderCell(node: DomNode): boolean {
  let n: DomNode | null = node;
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) {
    if (isElement(n)) {
      const tag = (n as DomElement).localName;
      if (tag === 'th') return true;
      if (tag === 'td' || tag === 'table') return false;
    }
  }
  return false;
}

/** Text of a heading's edit link or what is left of one: "[edit]", "edit", "[", "]", "[ ]", "[edit source]". */
const EDIT_DEBRIS = /^[\s[\]|]*(?:edit|edit source|bearbeiten|quelltext bearbeiten|modifier|modifier le code|editar|modifica|編集|编辑|править)?[\s[\]|]*$/i;
const BRACKETS_ONLY = /^[\s[\]|]*$/;
const EDIT_SECTION = /(?:^|\s)(?:mw-editsection[\w-]*|editsection|edit-section|section-edit|headerlink|heading-edit)(?:\s|$)/;

/** Whether `node` lies in an element whose class marks a heading's edit link. */
function inEditSection(node: DomNode): boolean {
  let n: DomNode | null = node;
  for (let i = 0; n !== null && i < 4; i++, n = n.parentNode) {
    if (isElement(n)) {
      const cls = (n as DomElement).getAttribute('class');
      if (cls !== null && EDIT_SECTION.test(cls)) return true;
      if (/^h[1-6]$/.test((n as DomElement).localName)) return false;
    }
  }
  return false;
}

/** Drops heading edit links and the bracket debris around them (`[edit]`, `\[`, `\[\]` in markdown). */
export function dropEditLinks(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array): void {
  for (let i = 0; i < blocks.length; i++) {
    if (labels[i] !== 1) continue;
    const text = blocks[i].text;
    if (text.length > 40 || !EDIT_DEBRIS.test(text)) continue;
    const bracketsOnly = BRACKETS_ONLY.test(text);
    const inHeading = (leafInfo[i]?.context.heading ?? 0) > 0;
    if ((bracketsOnly && inHeading) || inEditSection(blocks[i].domNode as DomNode) || (inHeading && /[[\]]/.test(text))) labels[i] = 0;
  }
}

/** A heading the classifier leaned towards keeping (its probability at least this) heads the text it introduces. */
const HEADING_KEEP_PROBABILITY = 0.3;

/** A heading's permalink ("¶", "#", "§", "🔗"): navigation, left as the classifier judged it. */
export const PERMALINK_MARK = /^\s*(?:¶|§|#|🔗)\s*$/u;
/** A footnote's way back to where it was cited ("^", "↑", "a b c" letters are left to the classifier). */
const BACKLINK_MARK = /^\s*[\^↑↩]\s*$/u;

/** The h1-h6 element holding `node`, climbing at most a few inline levels, or null. */
export function headingOf(node: DomNode): DomNode | null {
  let n: DomNode | null = node;
  for (let i = 0; n !== null && i < 8; i++, n = n.parentNode) {
    if (isElement(n) && /^h[1-6]$/.test((n as DomElement).localName)) return n;
  }
  return null;
}

/**
 * Keeps a dropped heading whose section is kept: the block right after the heading's own blocks is kept, and the
 * classifier gave the heading at least HEADING_KEEP_PROBABILITY. A section title is judged alone by the classifier
 * (a few words, often a link to itself) and lost while the paragraphs under it stay, so the reader sees the
 * section run into the one before. Run before dropEditLinks, which then takes the heading's edit-link debris out.
 * A heading's permalink mark is not promoted. `probabilities`: [nBlocks, 2] row-major. `labels` is changed in place.
 */
export function keepSectionHeadings(
  blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array, probabilities: Float32Array,
): void {
  // Each heading's blocks [start, end); judged from the last one back, so a heading over a kept subheading's
  // section is kept with it ("Sharing" over "Setting up" over paragraphs).
  const groups: Array<[number, number]> = [];
  for (let i = 0; i < blocks.length; i++) {
    if ((leafInfo[i]?.context.heading ?? 0) === 0) continue;
    const heading = headingOf(blocks[i].domNode as DomNode);
    if (heading === null) continue;
    let end = i + 1;
    while (end < blocks.length && headingOf(blocks[end].domNode as DomNode) === heading) end++;
    groups.push([i, end]);
    i = end - 1;
  }
  for (let g = groups.length - 1; g >= 0; g--) {
    const [start, end] = groups[g];
    if (end >= blocks.length || labels[end] !== 1) continue;
    let dropped = false;
    let best = 0;
    for (let j = start; j < end; j++) {
      if (labels[j] === 0 && !PERMALINK_MARK.test(blocks[j].text)) dropped = true;
      best = Math.max(best, probabilities[j * 2 + 1]);
    }
    if (!dropped || best < HEADING_KEEP_PROBABILITY) continue;
    for (let j = start; j < end; j++) if (!PERMALINK_MARK.test(blocks[j].text)) labels[j] = 1;
  }
}

/** Whether every character of blocks [from, to] is link text. */
function allLink(blocks: readonly CdomNode[], from: number, to: number): boolean {
  for (let k = from; k <= to; k++) if (blocks[k].props.nCharsInLink < blocks[k].props.nCharacters) return false;
  return true;
}

/** Share of a line's characters that must be kept for its dropped pieces to be kept with it. */
const LINE_KEEP_SHARE = 0.5;

/**
 * Keeps a line whole: the blocks between two block breaks are one line of text to a reader (a citation, a sentence
 * with a link in it), and the classifier, judging each piece alone, drops the punctuation and the short pieces
 * between kept links ("Larabel. <a>Title</a>. <i>Phoronix.com</i>. Retrieved 10 May 2016." came out as the link
 * glued to the italic). When most of a line's characters are kept, its dropped pieces are kept too, except hidden
 * ones, permalink marks and footnote backlinks ("^"). Lines one `<br>` apart are one paragraph to a reader (a poem,
 * an address, a forum post typed with line breaks), judged together the same way; there a dropped line that is all
 * link text ("Read entire review" under a review) stays dropped. Run before dropEditLinks. `labels` is changed in place.
 */
export function keepLinesWhole(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array): void {
  let start = 0;
  let joined = false;
  for (let i = 0; i < blocks.length; i++) {
    if (i + 1 < blocks.length && !blocks[i].props.blockBreakAfter) continue;
    if (i + 1 < blocks.length && lineBreakJoins(blocks, i)) {
      joined = true;
      continue;
    }
    if (i > start) {
      let kept = 0;
      let total = 0;
      let dropped = false;
      for (let j = start; j <= i; j++) {
        const n = blocks[j].text.trim().length;
        total += n;
        if (labels[j] === 1) kept += n;
        else if (n > 0) dropped = true;
      }
      if (dropped && kept > 0 && kept >= LINE_KEEP_SHARE * total) {
        let lineStart = start;
        for (let j = start; j <= i; j++) {
          if (j < i && !blocks[j].props.blockBreakAfter) continue;
          // one line (of the paragraph): a line of links alone ("Read entire review", "More »") is not its text
          if (joined && allLink(blocks, lineStart, j)) {
            lineStart = j + 1;
            continue;
          }
          for (let k = lineStart; k <= j; k++) {
            if (labels[k] === 1 || leafInfo[k]?.context.hidden === true || PERMALINK_MARK.test(blocks[k].text) || BACKLINK_MARK.test(blocks[k].text)) continue;
            labels[k] = 1;
          }
          lineStart = j + 1;
        }
      }
    }
    start = i + 1;
    joined = false;
  }
}

const FIGURE_TAG = ANCESTOR_TAGS.indexOf('figure');

/** Characters of dropped text (a caption, a credit, a byline) at most between a lead figure and the first kept text;
 *  the renderer's lead image (render/content-tree.ts) takes the same. */
export const LEAD_GAP_CHARS = 400;

/**
 * Whether the figure of blocks [start, end) opens the kept content: no block before it is kept, and the first kept
 * block after it follows within LEAD_GAP_CHARS characters of dropped text (the article's picture, over its first
 * paragraph, with a credit and a byline between).
 */
function leadsContent(blocks: readonly CdomNode[], labels: Uint8Array, start: number, end: number): boolean {
  for (let j = 0; j < start; j++) if (labels[j] === 1) return false;
  let gap = 0;
  for (let j = end; j < blocks.length; j++) {
    if (labels[j] === 1) return true;
    gap += blocks[j].props.nCharacters;
    if (gap > LEAD_GAP_CHARS) return false;
  }
  return false;
}

/** Characters a figure caption may have for it to be kept with the text around its figure. */
const CAPTION_MAX_CHARS = 600;

/** The `<figure>` holding `node` within MAX_CLIMB ancestors, and the `<figcaption>` on the way to it (null when the
 *  node is not in one); null when no figure holds the node. */
function figureOf(node: DomNode): { figure: DomNode; caption: DomNode | null } | null {
  if (isElement(node) && (node as DomElement).localName === 'figure') {
    // a block merged up to the figure itself (its only text is in one chain): the caption, when the figure has one
    for (let c = node.firstChild; c !== null; c = c.nextSibling) {
      if (isElement(c) && (c as DomElement).localName === 'figcaption') return { figure: node, caption: c };
    }
    return { figure: node, caption: null };
  }
  let n: DomNode | null = node;
  let caption: DomNode | null = null;
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const tag = (n as DomElement).localName;
    if (tag === 'figcaption') caption = n;
    else if (tag === 'figure') return { figure: n, caption };
  }
  return null;
}

/**
 * Keeps a figure's caption with the text around the figure: when the text right before a `<figure>` and right after
 * it are kept, or the figure opens the kept content (leadsContent: the article's picture, whose caption the renderer's
 * lead image then heads), its `<figcaption>` is kept too, so that the image and its caption stay together where the
 * article has them. The classifier judges a caption alone ("Photo by …", a credit, a short line) and drops it, and the image
 * (kept by the renderer only between kept text) goes with it. Only the figcaption counts (other text in a figure, a
 * credit line, a product card's buttons, is left as judged), and not when most of it is link text (a card's "Quick
 * view" and "Add to Cart" links in its figcaption); hidden text and captions of more than CAPTION_MAX_CHARS
 * characters are left as the classifier judged them too. `labels` is changed in place.
 */
export function keepFigureCaptions(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array): void {
  // the ancestor tags the blocks' contexts already hold say which blocks a figure holds: only those climb
  const figures = blocks.map((b, i) => (leafInfo[i]?.context.tags[FIGURE_TAG] === 1 ? figureOf(b.domNode as DomNode) : null));
  for (let i = 0; i < blocks.length; i++) {
    const at = figures[i];
    if (at === null) continue;
    // the figure's blocks [start, end)
    let end = i + 1;
    while (end < blocks.length && figures[end]?.figure === at.figure) end++;
    const start = i;
    i = end - 1;
    const between = start > 0 && labels[start - 1] === 1 && end < blocks.length && labels[end] === 1;
    if (!between && !leadsContent(blocks, labels, start, end)) continue;
    for (let c = start; c < end; c++) {
      const caption = figures[c]!.caption;
      if (caption === null) continue;
      let last = c + 1;
      while (last < end && figures[last]!.caption === caption) last++;
      let chars = 0;
      let linked = 0;
      for (let j = c; j < last; j++) {
        chars += blocks[j].props.nCharacters;
        linked += blocks[j].props.uCharsInLink;
      }
      if (chars <= CAPTION_MAX_CHARS && linked * 2 <= chars) {
        for (let j = c; j < last; j++) if (leafInfo[j]?.context.hidden !== true) labels[j] = 1;
      }
      c = last - 1;
    }
  }
}
