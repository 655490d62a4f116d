// Never repeat: a paragraph of the kept content that the output already has is dropped. Pages carry hidden copies
// of their text (a mobile and a desktop version, one of them `display: none`; `aria-hidden` clones for carousels;
// `<noscript>` fallbacks; a teaser repeating the body; a notice under every card), and a reader should not see the
// article start over.
// A paragraph is a run of kept blocks between block breaks, as the plain text shows it; only paragraphs of at least
// MIN_CHARS characters count, so short lines that pages repeat on purpose ("Reply", "Read more", prices) stay.
import type { CdomNode } from '../../types.js';
import { BLOCK_TAGS, type LeafInfo } from './cdom.js';
import { type DomElement, type DomNode, type DomText, isElement } from '../parse/dom.js';

/** Shortest paragraph (characters of its block texts, spaces included) that is dropped when it repeats. */
export const MIN_REPEAT_CHARS = 80;

const SPACES = /\s+/g;

interface Seen {
  /** Block indices of the copy. */
  blocks: number[];
  hidden: boolean;
}

/** Elements climbed at most from a block to its container. */
const MAX_CLIMB = 64;

/** A block's own text node: its DOM node is the top of a merged chain (`<div><p>text</p></div>`). */
function innermost(node: DomNode): DomNode {
  let n = node;
  for (let i = 0; i < MAX_CLIMB && n.firstChild !== null; i++) {
    let c: DomNode | null = n.firstChild;
    while (c !== null && !(isElement(c) || (c.nodeType === 3 && /\S/.test((c as DomText).data)))) c = c.nextSibling;
    if (c === null) break;
    n = c;
  }
  return n;
}

/** Items of lists and tables, and code blocks: pages repeat them on purpose (terms in two tabs, a line of code). */
const ITEM_TAGS: ReadonlySet<string> = new Set(['li', 'dd', 'dt', 'td', 'th', 'tr', 'pre', 'listing', 'xmp', 'plaintext']);

/** Whether `node` lies in a list or table item or a code block (up to its nearest block-level element). */
function isItem(node: DomNode): boolean {
  let n: DomNode | null = innermost(node);
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const tag = (n as DomElement).localName;
    if (ITEM_TAGS.has(tag)) return true;
    if (BLOCK_TAGS.has(tag)) return false;
  }
  return false;
}

/**
 * Drops (labels 0) kept paragraphs that repeat one the output already has: a hidden copy (an ancestor is
 * `display: none`, `hidden`, `aria-hidden`) when a visible one exists, and every visible copy after the first,
 * wherever it is (a mobile and a desktop copy, a teaser and its body, a disclosure or a notice under each card, a
 * forum post quoting the one above it). The reviewed main text of the dev pages keeps such a paragraph once: keeping
 * visible copies side by side or of three and more, as this pass once did, left 23 of the 1,497 pages repeating a
 * paragraph against 7 now, at the same word-F1. List items, table cells and code blocks are not paragraphs here
 * (pages repeat them on purpose: terms in two tabs, a line of code). Returns the number of paragraphs dropped. `labels` is changed in place.
 */
export function dropRepeats(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array): number {
  const groups = new Map<string, Seen[]>();
  let run: number[] = [];
  let chars = 0;
  const flush = () => {
    if (run.length > 0 && chars >= MIN_REPEAT_CHARS) {
      if (!isItem(blocks[run[0]].domNode as DomNode)) {
        let key = '';
        let hidden = true;
        for (const i of run) {
          key += blocks[i].text;
          if (leafInfo[i]?.context.hidden !== true) hidden = false;
        }
        key = key.replace(SPACES, '');
        const copy: Seen = { blocks: run, hidden };
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [copy]);
        else group.push(copy);
      }
    }
    run = [];
    chars = 0;
  };
  for (let i = 0; i < blocks.length; i++) {
    if (labels[i] === 1) {
      run.push(i);
      chars += blocks[i].text.length;
    }
    if (blocks[i].props.blockBreakAfter) flush();
  }
  flush();
  let dropped = 0;
  const drop = (copy: Seen) => {
    for (const i of copy.blocks) labels[i] = 0;
    dropped++;
  };
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const visible = group.filter((c) => !c.hidden);
    // hidden copies go when a visible one exists; of hidden ones only, the first stays
    for (let k = 0; k < group.length; k++) {
      if (group[k].hidden && (visible.length > 0 || k > 0)) drop(group[k]);
    }
    for (let k = 1; k < visible.length; k++) drop(visible[k]);
  }
  return dropped;
}
