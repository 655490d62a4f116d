// What the drop-in entry points accept as a page: an HTML string, or a DOM Document from linkedom, jsdom or a
// browser. A Document is serialised by walking it (nodeType, localName, attributes, childNodes: what all three
// have), not through outerHTML: a script's text written back as it is can re-parse differently (`<!--` and
// `<script` inside a script swallow the rest of the page in a browser-grade parser), so raw-text elements get
// those sequences escaped and comments are left out. Pure: reads only those fields.

import { PithError } from '../../errors.js';
import { escapeHtmlAttr, escapeHtmlText } from '../render/html.js';

/** The part of a DOM node this reads. */
export interface NodeLike {
  nodeType: number;
  localName?: string | null;
  nodeValue?: string | null;
  childNodes?: ArrayLike<NodeLike>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** The part of a DOM Document this reads. */
export interface DocumentLike {
  documentElement: NodeLike | null;
  doctype?: { name?: string } | null;
  /** The document's URL (a browser's or jsdom's); used when no url option is given. */
  URL?: string;
  baseURI?: string;
}

const VOID: ReadonlySet<string> = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT: ReadonlySet<string> = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes']);
// Inside raw text: what could end the element early or start an escaped state (JSON-LD stays valid JSON).
const RAW_HAZARDS = /<!--|<\/(?=script|style)/gi;
const NAME = /^[A-Za-z][^\s/>"'=]*$/;

/** HTML of a foreign DOM tree, iteratively (deep documents do not overflow the stack). */
export function serialiseDocument(document: DocumentLike): string {
  let out = document.doctype?.name ? `<!DOCTYPE ${document.doctype.name}>` : '';
  const root = document.documentElement;
  if (root === null) return out;
  // Each entry is a node to open, or a closing tag to write.
  const stack: Array<NodeLike | string> = [root];
  const rawParents: string[] = [];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out += item;
      if (RAW_TEXT.has(item.slice(2, -1))) rawParents.pop();
      continue;
    }
    if (item.nodeType === 3 || item.nodeType === 4) {
      const text = item.nodeValue ?? '';
      out += rawParents.length > 0 ? text.replace(RAW_HAZARDS, (m) => (m === '<!--' ? '<\\u0021--' : '<\\/')) : escapeHtmlText(text);
      continue;
    }
    if (item.nodeType !== 1) continue; // comments, processing instructions
    const tag = (item.localName ?? '').toLowerCase();
    if (!NAME.test(tag)) continue;
    out += `<${tag}`;
    const attributes = item.attributes ?? [];
    for (let i = 0; i < attributes.length; i++) {
      const { name, value } = attributes[i];
      if (NAME.test(name)) out += ` ${name}="${escapeHtmlAttr(value)}"`;
    }
    out += '>';
    if (VOID.has(tag)) continue;
    if (RAW_TEXT.has(tag)) rawParents.push(tag);
    stack.push(`</${tag}>`);
    const children = item.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

/** The page's HTML and, when the document knows it, its http(s) URL. */
export function htmlOfInput(input: string | DocumentLike): { html: string; url?: string } {
  if (typeof input === 'string') return { html: input };
  if (input === null || typeof input !== 'object' || input.documentElement === undefined) {
    throw new PithError('invalid_input', 'pass an HTML string or a DOM Document (linkedom, jsdom or a browser document)');
  }
  const html = serialiseDocument(input);
  const known = [input.baseURI, input.URL].find((u) => typeof u === 'string' && /^https?:\/\//i.test(u));
  return known === undefined ? { html } : { html, url: known };
}
