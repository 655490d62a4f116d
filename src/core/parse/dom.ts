// The only file that builds the DOM. Everything else sees it through the minimal interfaces below (the Workers
// typecheck has no DOM lib).
//
// The tree is the one a browser builds: WHATWG tokenization and tree construction (src/core/parse/html-tokenizer.ts,
// src/core/parse/tree-builder.ts) on nodes that hold only what the interfaces read (src/core/parse/nodes.ts).
// dev/parse5-parity.ts compares it with parse5's tree (`npm run parity:parse5`, docs/parse-parity.md).
import { Document, Element, NS_HTML } from './nodes.js';
import { type BuildBudget, buildDocument } from './tree-builder.js';

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

/** The document's children as an array. */
export function topLevelNodes(document: DomDocument): DomNode[] {
  return Array.from(document.childNodes);
}

const UNBOUNDED: BuildBudget = { maxElements: Infinity, maxNodes: Infinity, maxDepth: Infinity };

/**
 * Parses HTML. Never throws on odd markup; an empty string gives a document with empty head and body. With a
 * budget, building stops once more elements or nodes were created, or elements nested deeper: then
 * `parseCut(document)` says where it stopped. `nulFree`: the caller has made sure that `html` holds no U+0000 (the
 * parser then does not search every text for one).
 */
export function parseHtmlDocument(html: string, budget: BuildBudget = UNBOUNDED, nulFree = false): DomDocument {
  return buildDocument(html, budget, nulFree);
}

/** Where the build stopped at its budget (a character offset of the input), or -1 when it read everything. */
export function parseCut(document: DomDocument): number {
  return document instanceof Document ? document.cutAt : -1;
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
 * Where the walk starts: `<body>`, which holds all content in a browser's tree. The `<html>` element when there is
 * no body (a frameset page, or a build stopped by its budget inside `<head>`), the document when there is no `<html>`.
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

/** Text of the document's first HTML `<title>` in tree order (a browser's `document.title`, before trimming), else null. */
export function findTitle(document: DomDocument): string | null {
  const todo: DomNode[] = [];
  for (let c = document.firstChild; c !== null; c = c.nextSibling) todo.push(c);
  todo.reverse();
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (!(n instanceof Element) || n.ns !== NS_HTML) continue;
    if (n.localName === 'title') {
      let s = '';
      for (let x = n.firstChild; x; x = x.nextSibling) if (isText(x)) s += x.data;
      return s;
    }
    const from = todo.length;
    for (let c = n.firstChild; c !== null; c = c.nextSibling) todo.push(c);
    // children in document order on top of the stack
    for (let i = from, k = todo.length - 1; i < k; i++, k--) [todo[i], todo[k]] = [todo[k], todo[i]];
  }
  return null;
}

/** The first child to walk under `root`. */
export function firstChildOf(root: DomNode): DomNode | null {
  return root.firstChild;
}
