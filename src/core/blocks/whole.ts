// Label passes after decoding that make the kept content whole: a data table is kept with all its cells (the
// classifier judges each cell alone and drops short header cells: "Physics" kept, "Chemistry" lost), and heading
// edit links ("[edit]", Wikipedia's `mw-editsection`, the brackets left around a dropped link) are not text.
import type { CdomNode } from '../../types.js';
import type { LeafInfo } from './cdom.js';
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
