// The tree pith's own DOM builds (src/core/parse/dom.ts) against the one linkedom builds from the same HTML, read through
// the same interfaces (DomNode, DomElement): node types, tag names, text, attribute names and values, in walk order.
// Equal signatures mean equal extractions, since the pipeline reads nothing else. Used by
// test/node/parse/dom-parity.test.ts (fixture pages) and eval/dom-parity.ts (the WCXB dev corpus).
import { DOMParser } from 'linkedom';
import { firstChildOf, parseHtmlDocument, topLevelNodes, type DomDocument, type DomElement, type DomNode, type DomText } from '../src/core/parse/dom.js';

const linkedomParser = new DOMParser();

/** linkedom's document for `html`, as pith parsed HTML before it had its own DOM. */
export function linkedomDocument(html: string): DomDocument {
  return linkedomParser.parseFromString(html, 'text/html') as unknown as DomDocument;
}

/** Attribute names of an element, in order: linkedom's Attr nodes or pith's name/value list. */
function attributeNames(el: DomElement): string[] {
  const names = (el as unknown as { getAttributeNames?: () => string[] }).getAttributeNames;
  if (names !== undefined) return names.call(el); // linkedom
  const a = (el as unknown as { attributes: string[] | null }).attributes;
  return a === null ? [] : a.filter((_, i) => i % 2 === 0);
}

const isLinkedom = (document: DomDocument): boolean => typeof (document as unknown as { createElement?: unknown }).createElement === 'function';

/** One line per node, in document order, as the pipeline walks it (the document's children, then depth first). */
export function domSignature(document: DomDocument): string[] {
  const out: string[] = [];
  const visit = (n: DomNode, depth: number): void => {
    if (n.nodeType === 1) {
      const el = n as DomElement;
      const names = attributeNames(el);
      // a repeated name counts once (pith keeps the first; linkedom never creates the second); the interfaces have no
      // attribute order (linkedom's follows Object.keys: names that read as integers first), so sorted
      const attrs = [...new Set(names)].sort().map((name) => `${name}=${JSON.stringify(el.getAttribute(name))}`).join(' ');
      out.push(`${depth} <${el.localName}${attrs ? ` ${attrs}` : ''}>${el.hasAttributes() ? '' : ' (no attributes)'}`);
      for (let c = n.firstChild; c !== null; c = c.nextSibling) visit(c, depth + 1);
    } else if (n.nodeType === 3 || n.nodeType === 4 || n.nodeType === 8) {
      out.push(`${depth} #${n.nodeType} ${JSON.stringify((n as DomText).data)}`);
    } else {
      out.push(`${depth} #${n.nodeType}`);
    }
  };
  for (const n of topLevelNodes(document)) visit(n, 0);
  // where a walk from the document starts: pith's rule for its own DOM; for linkedom's, the rule pith used with it
  // (a doctype first among the children has no next sibling there, so the walk starts at the document element)
  const lf = document.firstChild;
  const first = !isLinkedom(document) ? firstChildOf(document) : lf !== null && lf.nodeType === 10 && lf.nextSibling === null ? document.documentElement : lf;
  out.push(`walk starts at ${first === null ? 'nothing' : first.nodeType === 1 ? `<${(first as DomElement).localName}>` : `#${first.nodeType}`}`);
  out.push(`documentElement ${document.documentElement?.localName ?? 'none'}`);
  return out;
}

/** The first line where the two trees differ, with its index; null when they are the same. */
export function firstDomDifference(html: string): { line: number; pith: string | undefined; linkedom: string | undefined } | null {
  const a = domSignature(parseHtmlDocument(html));
  const b = domSignature(linkedomDocument(html));
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return { line: i, pith: a[i], linkedom: b[i] };
  return null;
}
