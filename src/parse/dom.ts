// The only file that imports linkedom. Everything else sees the DOM through the minimal interfaces below
// (the Workers typecheck has no DOM lib).
import { DOMParser } from 'linkedom';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const DOCUMENT_NODE = 9;

/** What pith reads of a linkedom node. */
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
  /** Cheaper than getAttribute in linkedom (which builds a DOMTokenList for `class`). */
  getAttributeNode(name: string): { readonly value: string } | null;
  hasAttributes(): boolean;
}

/** Raw attribute value, or null. */
export function attr(el: DomElement, name: string): string | null {
  const a = el.getAttributeNode(name);
  return a === null ? null : a.value;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode>;
}

/**
 * Children of a node as an array. linkedom's `nextSibling` of a top-level doctype is null, so the document's
 * children must be read through `childNodes`; below the document, `firstChild`/`nextSibling` are fine (and cheaper).
 */
export function topLevelNodes(document: DomDocument): DomNode[] {
  return Array.from(document.childNodes);
}

// linkedom's DOMParser directly: `parseHTML` does the same parse and then builds a window Proxy around it.
const parser = new DOMParser();

/** Parses HTML with linkedom. Never throws on odd markup; an empty string gives an empty document. */
export function parseHtmlDocument(html: string): DomDocument {
  // linkedom treats a string without an <html> element as a fragment; that is fine for the walk below.
  return parser.parseFromString(html, 'text/html') as unknown as DomDocument;
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
 * The first child to walk under `root`. linkedom gives a document's doctype no next sibling, so after a doctype
 * the walk starts at the document element instead.
 */
export function firstChildOf(root: DomNode): DomNode | null {
  const first = root.firstChild;
  if (first !== null && first.nodeType === 10 && first.nextSibling === null) {
    return (root as DomNode & { documentElement?: DomNode | null }).documentElement ?? null;
  }
  return first;
}
