// Lines of one paragraph: text that a page breaks with `<br>` ("Lorem ipsum<br>dolor sit<br><br>amet") is split
// into blocks at every `<br>` (a `<br>` is a block tag of the reference), but a reader sees one `<br>` as a line
// break inside a paragraph and two or more as a paragraph break. The label passes keep a paragraph's lines together
// (blocks/whole.ts) and the plain text gives them single line breaks (render/text.ts); both ask here.
import { BLOCK_TAGS } from './cdom.js';
import { COMMENT_NODE, type DomElement, type DomNode, type DomText, isElement, isText } from '../parse/dom.js';
import { isBlankText } from '../parse/text-stats.js';
import type { CdomNode } from '../../types.js';

/** Siblings looked at between two lines (blank text, comments and the `<br>`s themselves). */
const MAX_SIBLINGS = 16;
/** Inline levels climbed from a block's node to the element the `<br>` follows, and down to the next block's. */
const MAX_CLIMB = 6;

/** Whether `n` shows nothing between two lines: a comment or whitespace-only text. */
function silent(n: DomNode): boolean {
  return n.nodeType === COMMENT_NODE || (isText(n) && isBlankText((n as DomText).data));
}

/**
 * How many `<br>` elements alone (with whitespace and comments) separate the block whose DOM node is `from` from
 * the next block, whose DOM node is `to`: 0 when anything else lies between them (a block boundary, other markup)
 * or when they are not in one run of inline content.
 */
export function brsBetween(from: DomNode, to: DomNode): number {
  let n: DomNode = from;
  // the block's text may be several adjacent text nodes (the parser splits at character references)
  if (isText(n)) while (n.nextSibling !== null && isText(n.nextSibling)) n = n.nextSibling;
  for (let i = 0; n.nextSibling === null; i++) {
    const parent = n.parentNode;
    if (parent === null || i >= MAX_CLIMB || !isElement(parent) || BLOCK_TAGS.has((parent as DomElement).localName)) return 0;
    n = parent;
  }
  let brs = 0;
  let next: DomNode | null = n.nextSibling;
  for (let steps = 0; next !== null && steps < MAX_SIBLINGS; steps++, next = next.nextSibling) {
    if (silent(next)) continue;
    if (isElement(next) && (next as DomElement).localName === 'br') {
      brs++;
      continue;
    }
    break;
  }
  if (brs === 0 || next === null) return 0;
  // `to` is `next` itself or its first content, through inline elements
  let m: DomNode | null = to;
  for (let i = 0; m !== null && i <= MAX_CLIMB; i++, m = m.parentNode) {
    if (m === next) return brs;
    if (isElement(m) && BLOCK_TAGS.has((m as DomElement).localName)) return 0;
  }
  return 0;
}

/** Whether blocks i and i + 1 are two lines of one paragraph: one `<br>` alone between them. */
export function lineBreakJoins(blocks: readonly CdomNode[], i: number): boolean {
  if (i + 1 >= blocks.length) return false;
  if (!blocks[i].props.brAfter && !blocks[i + 1].props.brBefore) return false;
  return brsBetween(blocks[i].domNode as DomNode, blocks[i + 1].domNode as DomNode) === 1;
}
