// The DOM's node classes: only what the pipeline reads (src/core/parse/dom.ts has the interfaces), plus the links the
// tree builder (src/core/parse/tree-builder.ts) needs to move nodes: lastChild and previousSibling.

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const CDATA_SECTION_NODE = 4;
export const COMMENT_NODE = 8;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_TYPE_NODE = 10;

/** Namespaces of elements (WHATWG: HTML, SVG, MathML). */
export const NS_HTML = 0;
export const NS_SVG = 1;
export const NS_MATHML = 2;

export type Child = Leaf | Element;

/** A node with children: an element or the document. */
export abstract class ParentNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: ParentNode | null = null;
  nextSibling: Child | null = null;
  previousSibling: Child | null = null;
  firstChild: Child | null = null;
  lastChild: Child | null = null;

  append(child: Child): void {
    child.parentNode = this;
    const last = this.lastChild;
    child.previousSibling = last;
    child.nextSibling = null;
    if (last === null) this.firstChild = child;
    else last.nextSibling = child;
    this.lastChild = child;
  }

  /** Inserts `child` before `ref`, one of this node's children. */
  insertBefore(child: Child, ref: Child): void {
    child.parentNode = this;
    const prev = ref.previousSibling;
    child.previousSibling = prev;
    child.nextSibling = ref;
    ref.previousSibling = child;
    if (prev === null) this.firstChild = child;
    else prev.nextSibling = child;
  }

  removeChild(child: Child): void {
    const prev = child.previousSibling;
    const next = child.nextSibling;
    if (prev === null) this.firstChild = next;
    else prev.nextSibling = next;
    if (next === null) this.lastChild = prev;
    else next.previousSibling = prev;
    child.parentNode = null;
    child.previousSibling = null;
    child.nextSibling = null;
  }
}

/** Attributes of one element past which they are also kept in a Map (a hostile page can give one element 100,000). */
const INDEXED_ATTRIBUTES = 16;

export class Element extends ParentNode {
  // On the prototype, not in each element (a field is 8 bytes more for each of a page's thousands of elements).
  get nodeType(): number {
    return ELEMENT_NODE;
  }
  /** Attribute names and values, alternating, in source order (a repeated name: the first counts); null if none. */
  attributes: string[] | null;
  /** The same by name, once there are more than INDEXED_ATTRIBUTES. */
  private index: Map<string, string> | null = null;
  constructor(
    /** Lower-case tag name (also for SVG and MathML elements). */
    readonly localName: string,
    attributes: string[] | null,
    readonly ns: number,
  ) {
    super();
    this.attributes = attributes;
    if (attributes !== null && attributes.length > 2 * INDEXED_ATTRIBUTES) this.buildIndex(attributes);
  }
  get nodeName(): string {
    return this.localName.toUpperCase();
  }
  getAttribute(name: string): string | null {
    if (this.index !== null) return this.index.get(name) ?? null;
    const a = this.attributes;
    if (a !== null) for (let i = 0; i < a.length; i += 2) if (a[i] === name) return a[i + 1];
    return null;
  }
  /** Adds an attribute unless the element already has one of that name (`<html>`/`<body>` met again). */
  addAttribute(name: string, value: string): void {
    if (this.getAttribute(name) !== null) return;
    const a = (this.attributes ??= []);
    a.push(name, value);
    if (this.index !== null) this.index.set(name, value);
    else if (a.length > 2 * INDEXED_ATTRIBUTES) this.buildIndex(a);
  }
  hasAttributes(): boolean {
    return this.attributes !== null;
  }
  private buildIndex(a: string[]): void {
    this.index = new Map();
    for (let i = a.length - 2; i >= 0; i -= 2) this.index.set(a[i], a[i + 1]);
  }
}

/** Text, comment, CDATA section or doctype: no children. */
export class Leaf {
  parentNode: ParentNode | null = null;
  nextSibling: Child | null = null;
  previousSibling: Child | null = null;
  get firstChild(): null {
    return null;
  }
  constructor(
    readonly nodeType: number,
    /** Text nodes grow while the builder appends adjacent characters. */
    public data: string,
  ) {}
  get nodeName(): string {
    return LEAF_NAMES[this.nodeType] ?? '#text';
  }
}
const LEAF_NAMES: Record<number, string> = { 3: '#text', 4: '#cdata-section', 8: '#comment', 10: 'html' };

export class Document extends ParentNode {
  readonly nodeType = DOCUMENT_NODE;
  readonly nodeName = '#document';
  /** Set when the builder stopped at a node or element budget: the tree holds the page up to `cutAt`. */
  cutAt = -1;
  get childNodes(): Child[] {
    const out: Child[] = [];
    for (let c = this.firstChild; c !== null; c = c.nextSibling) out.push(c);
    return out;
  }
  get documentElement(): Element | null {
    for (let c = this.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) return c as Element;
    return null;
  }
}
