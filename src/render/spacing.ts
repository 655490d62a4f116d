// Whether a space separates two consecutive blocks in the page as a browser would show it.
//
// The collapsed DOM drops whitespace-only text nodes (docs/design.md, Collapsed DOM), so `<span>from</span> <span>typing</span>` gives the
// blocks "from" and "typing" with the space between them gone, and the reference's concatenation (docs/design.md, Text output) prints "fromtyping" (the
// reference does the same). Code listings, tag clouds and inline-styled prose lose their word boundaries that way.
// This looks at the DOM between the end of one block and the start of the next: a whitespace text node, a line
// break or a block-level boundary means the two are separate words.

import { BLOCK_TAGS, SKIP_TAGS } from '../parse/cdom.js';
import { type DomElement, type DomNode, isElement, isText, type DomText } from '../parse/dom.js';

const WHITESPACE = /[\s\u00a0]/;
/** Steps walked at most between two blocks; past it they are taken as separate (a long stretch of dropped markup). */
const MAX_STEPS = 200;

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

/** Last node that belongs to a block whose DOM node is `start` (text split by linkedom at references runs on). */
function blockEnd(start: DomNode): DomNode {
  if (!isText(start)) return start;
  let end: DomNode = start;
  while (end.nextSibling !== null && isText(end.nextSibling)) end = end.nextSibling;
  return end;
}

/**
 * True when the page shows a word boundary between the block whose DOM node is `from` and the block whose DOM node
 * is `to` (the next block in document order).
 */
export function spaceBetween(from: DomNode, to: DomNode): boolean {
  let next = after(blockEnd(from));
  for (let steps = 0; next !== null; steps++) {
    if (crossedBlock || steps > MAX_STEPS) return true;
    if (next === to) return false;
    if (isText(next)) {
      if (WHITESPACE.test((next as DomText).data)) return true;
      next = after(next);
      continue;
    }
    if (isElement(next)) {
      const tag = (next as DomElement).localName;
      if (BLOCK_TAGS.has(tag)) return true;
      if (!SKIP_TAGS.has(tag) && next.firstChild !== null) {
        next = next.firstChild;
        continue;
      }
    }
    next = after(next);
  }
  return true;
}
