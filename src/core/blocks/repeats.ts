// Never repeat: a paragraph of the kept content that the output already has is dropped. Pages carry hidden copies
// of their text (a mobile and a desktop version, one of them `display: none`; `aria-hidden` clones for carousels;
// `<noscript>` fallbacks; a teaser repeating the body; a notice under every card), and a reader should not see the
// article start over.
// A paragraph is a run of kept blocks between block breaks (a `<br>` inside it does not end it, as the HTML output
// shows it: one paragraph of lines); only paragraphs of at least
// MIN_CHARS characters count, so short lines that pages repeat on purpose ("Reply", "Read more", prices) stay.
import type { CdomNode } from '../../types.js';
import { BLOCK_TAGS, type LeafInfo } from './cdom.js';
import { headingOf } from './whole.js';
import { type DomElement, type DomNode, type DomText, isElement } from '../parse/dom.js';

/** Shortest paragraph (characters of its block texts, spaces included) that is dropped when it repeats. */
export const MIN_REPEAT_CHARS = 80;

const SPACES = /\s+/g;

/** Whether a UTF-16 code unit is whitespace to a regex (`\s`: Unicode space separators, line terminators, BOM). */
export function isRegexSpace(c: number): boolean {
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The paragraph's text (its blocks' texts, in order) without whitespace: what groups copies. */
function textKey(blocks: readonly CdomNode[], run: readonly number[]): string {
  let key = '';
  for (const i of run) key += blocks[i].text;
  return key.replace(SPACES, '');
}

/** A hash of textKey, computed without building it (equal keys have equal hashes). */
function textHash(blocks: readonly CdomNode[], run: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const i of run) {
    const text = blocks[i].text;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      if (!isRegexSpace(c)) h = Math.imul(h ^ c, 0x01000193);
    }
  }
  return h;
}

interface Seen {
  /** Block indices of the first kept copy. */
  blocks: number[];
  hidden: boolean;
  /** The element around the paragraph's block element (copies side by side in it are shown twice on purpose). */
  container: DomNode | null;
  /** An ancestor's class names it a screen-size variant (a mobile or desktop copy). */
  variant: boolean;
}

/** Class names of screen-size variants (`mobileText`/`desktopText`, `hidden-up-md`, `d-md-none`, `lg:hidden`, Framer's
 *  `ssr-variant`), of carousel clones (`slick-cloned`, `swiper-slide-duplicate`) and of carousel slides (`swiper-slide`,
 *  `slick-slide`, `carousel-item`, `splide__slide`, `w-slide`: one is shown at a time, so a text in each is read once). */
const VARIANT_CLASS = /(?:^|[\s_-])(?:mobile|desktop|tablet)|\bssr-variant\b|\bslick-cloned\b|\bswiper-slide(?:-duplicate)?\b|\bslick-slide\b|\bcarousel-item\b|\bsplide__slide\b|\bw-slide\b|(?:hidden|visible|show|hide)-(?:up|down|for|on)?-?(?:xs|sm|md|lg|xl|mobile|desktop|small|medium|large)|\bd-(?:xs|sm|md|lg|xl)-(?:none|block)|\b(?:xs|sm|md|lg|xl):(?:hidden|block|flex)/i;

/** Elements climbed at most from a block to find a variant class. */
const VARIANT_CLIMB = 30;

function isVariant(node: DomNode): boolean {
  let n: DomNode | null = innermost(node);
  for (let i = 0; n !== null && i < VARIANT_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const cls = (n as DomElement).getAttribute('class');
    if (cls !== null && VARIANT_CLASS.test(cls)) return true;
  }
  return false;
}

/** Elements climbed at most from a block to its container. */
const MAX_CLIMB = 64;

/** Two containers are one, or siblings under one element: copies there are the page's own text shown twice. */
function near(a: DomNode | null, b: DomNode | null): boolean {
  if (a === null || b === null) return false;
  return a === b || (a.parentNode !== null && a.parentNode === b.parentNode);
}

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

/** The parent of the nearest block-level element holding `node` (null past MAX_CLIMB); undefined for an item. */
function containerOf(node: DomNode): DomNode | null | undefined {
  let n: DomNode | null = innermost(node);
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) {
    if (!isElement(n)) continue;
    const tag = (n as DomElement).localName;
    if (ITEM_TAGS.has(tag)) return undefined;
    if (BLOCK_TAGS.has(tag)) return n.parentNode;
  }
  return null;
}

/**
 * Drops (labels 0) kept paragraphs that repeat one the output already has: a hidden copy (an ancestor is
 * `display: none`, `hidden`, `aria-hidden`) when a visible one exists; every visible copy after the first when one
 * is a screen-size variant; else every visible copy after the first except one in the same element as the copy
 * kept before it (a page repeating a line in one place) or, of exactly two copies, in a sibling element (two
 * sections of one text). So a teaser far from its body goes, and so does a notice under each of a listing's cards
 * (kept once: the reviewed main text of the dev pages has such a paragraph once or not at all). List items, table
 * cells and code blocks are not paragraphs here: pages repeat them on purpose.
 * Returns the number of paragraphs dropped. `labels` is changed in place.
 */
export function dropRepeats(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array): number {
  // Copies are grouped by their text without whitespace. That text is cut out only for paragraphs whose hash came
  // before (most paragraphs are met once): `firstByHash` holds the first paragraph of each hash until a second comes,
  // then null; `groups` holds the paragraphs whose text was cut out, by it, in page order.
  const groups = new Map<string, Seen[]>();
  const firstByHash = new Map<number, Seen | null>();
  const addToGroup = (copy: Seen) => {
    const key = textKey(blocks, copy.blocks);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [copy]);
    else group.push(copy);
  };
  let run: number[] = [];
  let chars = 0;
  const flush = () => {
    if (run.length > 0 && chars >= MIN_REPEAT_CHARS) {
      const container = containerOf(blocks[run[0]].domNode as DomNode);
      if (container !== undefined) {
        let hidden = true;
        for (const i of run) if (leafInfo[i]?.context.hidden !== true) hidden = false;
        const copy: Seen = { blocks: run, hidden, container, variant: false };
        const hash = textHash(blocks, run);
        const first = firstByHash.get(hash);
        if (first === undefined) {
          firstByHash.set(hash, copy);
        } else {
          if (first !== null) {
            addToGroup(first);
            firstByHash.set(hash, null);
          }
          addToGroup(copy);
        }
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
    // a <br> between two lines of one element breaks the line, not the paragraph
    const br = blocks[i].props.brAfter && i + 1 < blocks.length && blocks[i + 1].props.brBefore;
    if (blocks[i].props.blockBreakAfter && !br) flush();
  }
  flush();
  let dropped = 0;
  let droppedHere: Uint8Array | null = null; // the blocks this pass dropped
  const drop = (copy: Seen) => {
    droppedHere ??= new Uint8Array(blocks.length);
    for (const i of copy.blocks) {
      labels[i] = 0;
      droppedHere[i] = 1;
    }
    dropped++;
  };
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const visible = group.filter((c) => !c.hidden);
    // hidden copies go when a visible one exists; of hidden ones only, the first stays
    for (let k = 0; k < group.length; k++) {
      if (group[k].hidden && (visible.length > 0 || k > 0)) drop(group[k]);
    }
    if (visible.length < 2) continue;
    const variant = visible.some((c) => isVariant(blocks[c.blocks[0]].domNode as DomNode));
    if (variant) {
      for (let k = 1; k < visible.length; k++) drop(visible[k]);
      continue;
    }
    // a copy stays when it follows the last one kept in the same element (the page says it twice, in one place),
    // or, of just two, in a sibling element (two sections of one text); others go
    let prev = visible[0];
    for (let k = 1; k < visible.length; k++) {
      const c = visible[k].container;
      if (c !== null && (c === prev.container || (visible.length === 2 && near(prev.container, c)))) prev = visible[k];
      else drop(visible[k]);
    }
  }
  if (droppedHere !== null) dropped += dropOrphanHeadings(blocks, leafInfo, labels, droppedHere);
  return dropped;
}

/** Whether `ancestor` holds `node` (within MAX_CLIMB levels). */
function holds(ancestor: DomNode, node: DomNode): boolean {
  let n: DomNode | null = node;
  for (let i = 0; n !== null && i < MAX_CLIMB; i++, n = n.parentNode) if (n === ancestor) return true;
  return false;
}

/**
 * After copies of a text were dropped, their headings stay: short, they are no paragraphs here, and a page that
 * holds its article twice (a mobile and a desktop copy, the slides of a carousel) would show the second copy's
 * headings in a row with nothing under them. A kept heading goes when the output has the same heading before it and
 * its section lost text here and heads nothing now. Its section is what follows it in its parent element up to the
 * next heading; it lost text when a block of it is in `droppedHere` (the blocks this pass dropped); it heads nothing
 * when no block of it is kept and the next heading is not a deeper one that heads something (judged from the end, so
 * that a section heading over emptied subsections goes with them, while a forum post's name over its rank, `h4`
 * over `h5`, over the post, heads the post). Product cards that repeat a name over another colour lose nothing: no
 * text of theirs went as a copy. Returns the number of headings dropped.
 */
function dropOrphanHeadings(blocks: readonly CdomNode[], leafInfo: readonly LeafInfo[], labels: Uint8Array, droppedHere: Uint8Array): number {
  const level = (i: number) => leafInfo[i]?.context.heading ?? 0;
  // kept heading runs [start, end] of one heading element, in page order, with the text that names them
  const runs: Array<{ start: number; end: number; level: number; key: string; heads: boolean }> = [];
  for (let i = 0; i < blocks.length; i++) {
    if (labels[i] !== 1 || level(i) === 0) continue;
    const heading = headingOf(blocks[i].domNode as DomNode);
    let end = i;
    let key = blocks[i].text;
    while (end + 1 < blocks.length && labels[end + 1] === 1 && level(end + 1) > 0 && headingOf(blocks[end + 1].domNode as DomNode) === heading) {
      end++;
      key += blocks[end].text;
    }
    runs.push({ start: i, end, level: level(i), key: key.replace(SPACES, '').toLowerCase(), heads: true });
    i = end;
  }
  const first = new Map<string, number>();
  for (const r of runs) if (r.key !== '' && !first.has(r.key)) first.set(r.key, r.start);
  let dropped = 0;
  for (let k = runs.length - 1; k >= 0; k--) {
    const r = runs[k];
    const parent = headingOf(blocks[r.start].domNode as DomNode)?.parentNode ?? null;
    let emptied = false;
    let heads = false;
    let j = r.end + 1;
    for (; j < blocks.length; j++) {
      if (parent === null || !holds(parent, blocks[j].domNode as DomNode) || level(j) > 0) break;
      if (labels[j] === 1) {
        heads = true;
        break;
      }
      if (droppedHere[j] === 1) emptied = true;
    }
    // the next heading in the section's place: a deeper one that heads something heads this one's text, and one
    // dropped here as emptied empties this one
    if (!heads && j < blocks.length && level(j) > r.level) {
      const next = runs[k + 1];
      heads = next !== undefined && next.start === j && next.heads;
      if (droppedHere[j] === 1) emptied = true;
    }
    r.heads = heads;
    if (!heads && emptied && r.key !== '' && first.get(r.key) !== r.start) {
      for (let i = r.start; i <= r.end; i++) {
        labels[i] = 0;
        droppedHere[i] = 1;
      }
      dropped++;
    }
  }
  return dropped;
}
