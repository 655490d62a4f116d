// pith's tree (src/core/parse/dom.ts) against parse5's, the WHATWG-conformant parser, as text placement: for every
// text run that is not whitespace only, in document order, the tag names of its ancestors from <html> down and its
// text with whitespace collapsed. Equal sequences mean every piece of text sits in the same elements in both trees.
// Left out on purpose: attributes and comments (the pipeline's text does not come from them), and the inside of
// <noscript>, which both parse as raw text (scripting on) but pith then parses into children for its noscript
// fallback (its position is kept: a `noscript` entry). Template contents count as the template's children (parse5
// keeps them in a fragment; pith, which never shows them, as children). Tag names are compared lower-cased (parse5
// restores the SVG case, `foreignObject`). Used by test/node/parse/parse5-parity.test.ts and eval/parse5-parity.ts.
import { parse } from 'parse5';
import { parseHtmlDocument, type DomElement, type DomNode, type DomText } from '../src/core/parse/dom.js';

export interface TextPlacement {
  /** Ancestor tag names, outermost first, joined by `>`. */
  path: string;
  text: string;
}

const SPACE = /[\t\n\f\r ]+/g;

function normalise(s: string): string {
  return s.replace(SPACE, ' ').trim();
}

interface P5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  childNodes?: P5Node[];
  content?: { childNodes: P5Node[] };
}

/** parse5's placements of `html`. */
export function parse5Placements(html: string): TextPlacement[] {
  const out: TextPlacement[] = [];
  const visit = (n: P5Node, path: string[]): void => {
    if (n.nodeName === '#text') {
      const t = normalise(n.value ?? '');
      if (t !== '') out.push({ path: path.join('>'), text: t });
      return;
    }
    if (n.tagName !== undefined) {
      const name = n.tagName.toLowerCase();
      path.push(name);
      if (name === 'noscript') out.push({ path: path.join('>'), text: '' });
      else for (const c of n.content?.childNodes ?? n.childNodes ?? []) visit(c, path);
      path.pop();
      return;
    }
    for (const c of n.childNodes ?? []) visit(c, path);
  };
  visit(parse(html) as unknown as P5Node, []);
  return out;
}

/** pith's placements of `html`. */
export function pithPlacements(html: string): TextPlacement[] {
  const out: TextPlacement[] = [];
  const path: string[] = [];
  const visit = (n: DomNode): void => {
    if (n.nodeType === 3) {
      const t = normalise((n as DomText).data);
      if (t !== '') out.push({ path: path.join('>'), text: t });
      return;
    }
    if (n.nodeType !== 1) return;
    const name = (n as DomElement).localName;
    path.push(name);
    if (name === 'noscript') out.push({ path: path.join('>'), text: '' });
    else for (let c = n.firstChild; c !== null; c = c.nextSibling) visit(c);
    path.pop();
  };
  for (let c = parseHtmlDocument(html).firstChild; c !== null; c = c.nextSibling) visit(c);
  return out;
}

export interface ParityDifference {
  /** Index of the first placement that differs. */
  at: number;
  pith: TextPlacement | undefined;
  parse5: TextPlacement | undefined;
  /** Placements in each tree. */
  pithCount: number;
  parse5Count: number;
}

/** The first placement where pith's tree and parse5's differ; null when they are the same. */
export function firstParityDifference(html: string): ParityDifference | null {
  const a = pithPlacements(html);
  const b = parse5Placements(html);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || x.path !== y.path || x.text !== y.text) {
      return { at: i, pith: x, parse5: y, pithCount: a.length, parse5Count: b.length };
    }
  }
  return null;
}

/** A placement for a report: the last few ancestors and the start of the text. */
export function describePlacement(p: TextPlacement | undefined): string {
  if (p === undefined) return '(none)';
  const parts = p.path.split('>');
  const path = parts.length > 6 ? `…>${parts.slice(-6).join('>')}` : p.path;
  const text = p.text.length > 60 ? `${p.text.slice(0, 60)}…` : p.text;
  return `${path} ${JSON.stringify(text)}`;
}
