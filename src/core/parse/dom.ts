// The only file that builds the DOM. Everything else sees it through the minimal interfaces below (the Workers
// typecheck has no DOM lib).
//
// The DOM is pith's own: htmlparser2's tokenizer and tree rules (the parser linkedom runs), with nodes that hold
// only what the interfaces read. A linkedom document gives every node an event-listener table, its attributes as
// linked nodes and its class as a token set, none of which pith reads; building them was about half of an
// extraction's time and most of its garbage. The tree is the one linkedom builds from the same events (the same
// elements, text runs, comments and doctype quirk), so extractions are identical: test/node/parse/dom-parity.test.ts
// compares the two on the fixture pages, `npx tsx eval/dom-parity.ts` on the WCXB dev corpus.
import { Parser } from 'htmlparser2';
import { stringMemo } from './string-memo.js';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_TYPE_NODE = 10;

/** What pith reads of a DOM node. */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly parentNode: DomNode | null;
}

export interface DomText extends DomNode {
  readonly data: string;
}

export interface DomElement extends DomNode {
  /** Lower-case tag name for HTML elements. */
  readonly localName: string;
  getAttribute(name: string): string | null;
  hasAttributes(): boolean;
}

/** Raw attribute value, or null. */
export function attr(el: DomElement, name: string): string | null {
  return el.getAttribute(name);
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode>;
}

/**
 * Children of a node as an array. A top-level doctype has no next sibling (as in linkedom), so the document's
 * children must be read through `childNodes`; below the document, `firstChild`/`nextSibling` are fine (and cheaper).
 */
export function topLevelNodes(document: DomDocument): DomNode[] {
  return Array.from(document.childNodes);
}

/** A node with children: an element or the document. `lastChild` is for building only. */
abstract class ParentNode implements DomNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: ParentNode | null = null;
  nextSibling: DomNode | null = null;
  firstChild: DomNode | null = null;
  lastChild: DomNode | null = null;

  append(child: Leaf | Element): void {
    child.parentNode = this;
    if (this.lastChild === null) this.firstChild = child;
    else (this.lastChild as Leaf | Element).nextSibling = child;
    this.lastChild = child;
  }
}

/** Attributes of one element past which they are also kept in a Map (a hostile page can give one element 100,000). */
const INDEXED_ATTRIBUTES = 16;

class Element extends ParentNode implements DomElement {
  readonly nodeType = ELEMENT_NODE;
  /** Attribute names and values, alternating, in source order (a repeated name: the first counts); null if none. */
  attributes: string[] | null = null;
  /** The same by name, once there are more than INDEXED_ATTRIBUTES. */
  private index: Map<string, string> | null = null;
  constructor(readonly localName: string) {
    super();
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
  /** Adds an attribute unless the element already has one of that name (the parser's rule: the first counts). */
  addAttribute(name: string, value: string): void {
    if (this.getAttribute(name) !== null) return;
    const a = (this.attributes ??= []);
    a.push(name, value);
    if (this.index !== null) this.index.set(name, value);
    else if (a.length > 2 * INDEXED_ATTRIBUTES) {
      this.index = new Map();
      for (let i = a.length - 2; i >= 0; i -= 2) this.index.set(a[i], a[i + 1]);
    }
  }
  hasAttributes(): boolean {
    return this.attributes !== null;
  }
}

/** Text, comment, CDATA section or doctype: no children. */
class Leaf implements DomText {
  parentNode: ParentNode | null = null;
  nextSibling: DomNode | null = null;
  readonly firstChild = null;
  constructor(
    readonly nodeType: number,
    readonly data: string,
  ) {}
  get nodeName(): string {
    return LEAF_NAMES[this.nodeType] ?? '#text';
  }
}
const LEAF_NAMES: Record<number, string> = { 3: '#text', 4: '#cdata-section', 8: '#comment', 10: 'html' };

class Document extends ParentNode implements DomDocument {
  readonly nodeType = DOCUMENT_NODE;
  readonly nodeName = '#document';
  /**
   * Doctypes, the last one first: each goes before all the children but is linked to none (linkedom's quirk, kept
   * so that the walk and the top-level nodes are the same).
   */
  doctypes: Leaf[] = [];
  get childNodes(): DomNode[] {
    const out: DomNode[] = [...this.doctypes];
    for (let c = this.firstChild; c !== null; c = c.nextSibling) out.push(c);
    return out;
  }
  get documentElement(): DomElement | null {
    for (let c = this.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) return c as Element;
    return null;
  }
}

/** linkedom keeps a doctype only when its text starts with a name (its PUBLIC/SYSTEM ids are optional). */
const DOCTYPE_TEXT = /^[a-z:]/i;
const SPACES = /\s+/;

/**
 * A class attribute as linkedom stores it: its distinct non-empty tokens, joined by single spaces. Memoised: a page
 * repeats its class attributes thousands of times, and the memos keyed by class attributes further on
 * (src/core/blocks/context.ts, src/core/blocks/cdom.ts) then see the same string again, whose hash V8 has already computed.
 */
const normaliseClass = stringMemo(normaliseClassOf);

function normaliseClassOf(value: string): string {
  const tokens = value.split(SPACES);
  let out = '';
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t === '' || seen.has(t)) continue;
    seen.add(t);
    out = out === '' ? t : `${out} ${t}`;
  }
  return out;
}

/** Parses HTML. Never throws on odd markup; an empty string gives an empty document. */
export function parseHtmlDocument(html: string): DomDocument {
  const document = new Document();
  let node: ParentNode = document;
  let element: Element | null = null; // the element whose attributes are being read
  let cdata = false;
  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() !== '!doctype' || !DOCTYPE_TEXT.test(data.slice(name.length).trim())) return;
        // A doctype goes first, wherever it was; the first child stays the first linked one.
        const doctype = new Leaf(DOCUMENT_TYPE_NODE, '');
        doctype.parentNode = document;
        document.doctypes.unshift(doctype);
      },
      onopentagname(name) {
        element = new Element(name);
        node.append(element);
        node = element;
      },
      onattribute(name, value) {
        // (`__proto__` never reached a linkedom element: htmlparser2 collects attributes in a plain object.)
        if (name !== '__proto__') element!.addAttribute(name, name === 'class' ? normaliseClass(value) : value);
      },
      ontext(text) {
        node.append(new Leaf(cdata ? 4 : TEXT_NODE, text));
      },
      oncomment(data) {
        node.append(new Leaf(COMMENT_NODE, data));
      },
      oncdatastart() {
        cdata = true;
      },
      oncdataend() {
        cdata = false;
      },
      onclosetag() {
        node = node.parentNode ?? document;
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: true, xmlMode: false },
  );
  parser.write(html);
  parser.end();
  return document;
}

export function isElement(n: DomNode): n is DomElement {
  return n.nodeType === ELEMENT_NODE;
}

export function isText(n: DomNode): n is DomText {
  return n.nodeType === TEXT_NODE;
}

const NON_BLANK = /[^\p{Z}\s]/u;
// Elements that may appear outside <head>/<body> without meaning content.
const HEADISH = new Set(['head', 'body', 'meta', 'link', 'script', 'style', 'title', 'noscript', 'base', 'template']);

/**
 * Where the walk starts. Normally `<body>`. linkedom does not build implied elements and keeps markup where it
 * found it, so: without an `<html>` element the document itself is the root (a fragment); with `<html>` but content
 * outside `<head>`/`<body>` (markup before `<head>` can leave `<body>` empty with the real content after it) the
 * `<html>` element is walked instead (its `<head>` is a skip tag); without `<body>` too.
 */
export function findContentRoot(document: DomDocument): { root: DomNode; tag: string } {
  const top = topLevelNodes(document);
  let html: DomElement | null = null;
  for (const c of top) {
    if (isElement(c) && c.localName === 'html') {
      html = c;
      break;
    }
  }
  const kids: DomNode[] = [];
  if (html) for (let c = html.firstChild; c; c = c.nextSibling) kids.push(c);
  const body = soleBody(html ? kids : top);
  if (body) return { root: body, tag: 'body' };
  return html ? { root: html, tag: 'html' } : { root: document, tag: 'body' };
}

/** The `<body>` among `nodes` when all content is inside it; null when there is none or content lies outside. */
function soleBody(nodes: DomNode[]): DomElement | null {
  let body: DomElement | null = null;
  for (const c of nodes) {
    if (isElement(c)) {
      const t = c.localName;
      if (t === 'body') {
        if (body) return null; // a second body: walk everything
        body = c;
      } else if (!HEADISH.has(t)) return null;
    } else if (isText(c) && NON_BLANK.test(c.data)) return null;
  }
  return body;
}

/** Text of the first `<title>` in `<head>` (or directly under `<html>` / the document), else null. */
export function findTitle(document: DomDocument): string | null {
  const scan = (parent: DomNode, depth: number): string | null => {
    const kids = depth === 0 ? topLevelNodes(document) : [];
    if (depth > 0) for (let c = parent.firstChild; c; c = c.nextSibling) kids.push(c);
    for (const c of kids) {
      if (!isElement(c)) continue;
      const t = c.localName;
      if (t === 'title') {
        let s = '';
        for (let x = c.firstChild; x; x = x.nextSibling) if (isText(x)) s += x.data;
        return s;
      }
      if (depth < 2 && (t === 'html' || t === 'head')) {
        const r = scan(c, depth + 1);
        if (r !== null) return r;
      }
    }
    return null;
  };
  return scan(document, 0);
}

/**
 * The first child to walk under `root`. A document's doctype is linked to no sibling, so after a doctype the walk
 * starts at the document element instead (what a linkedom document gives; kept so that extractions stay the same).
 */
export function firstChildOf(root: DomNode): DomNode | null {
  if (root instanceof Document && root.doctypes.length > 0) return root.documentElement;
  return root.firstChild;
}
