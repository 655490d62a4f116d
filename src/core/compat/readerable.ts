// isProbablyReaderable(): Readability.js's quick "is there an article here?" test, over pith's own DOM. The same
// idea and defaults as Readability's: paragraphs (p, pre, article, divs holding <br>) that are visible, not in an
// unlikely container and longer than `minContentLength` characters add sqrt(length - minContentLength) to a score;
// the page is readerable once the score passes `minScore`. Pure and synchronous, like Readability's.

import { isElement, isText, parseHtmlDocument, type DomElement, type DomNode } from '../parse/dom.js';

export interface ReaderableOptions {
  /** Characters a paragraph needs before it counts (Readability's default 140). */
  minContentLength?: number;
  /** Score at which the page is readerable (Readability's default 20). */
  minScore?: number;
}

const UNLIKELY = /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|shadow/i;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const SKIP: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math']);
const PARAGRAPHS: ReadonlySet<string> = new Set(['p', 'pre', 'article']);

function hidden(el: DomElement): boolean {
  const style = el.getAttribute('style');
  return el.getAttribute('hidden') !== null || el.getAttribute('aria-hidden') === 'true' || (style !== null && HIDDEN_STYLE.test(style));
}

function textLength(node: DomNode): number {
  let n = 0;
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (isText(c)) n += c.data.length;
    else if (isElement(c) && !SKIP.has(c.localName)) n += textLength(c);
  }
  return n;
}

function trimmedTextOf(node: DomNode): string {
  let s = '';
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (isText(c)) s += c.data;
    else if (isElement(c) && !SKIP.has(c.localName)) s += trimmedTextOf(c);
  }
  return s.trim();
}

/** True when the page probably has an article (a cheap test, before extracting). Takes HTML or a DOM Document. */
export function isProbablyReaderableHtml(html: string, options: ReaderableOptions = {}): boolean {
  const minLength = options.minContentLength ?? 140;
  const minScore = options.minScore ?? 20;
  const document = parseHtmlDocument(html);
  let score = 0;
  // Depth-first over visible elements; `inListItem` skips paragraphs inside <li> (lists are rarely the article).
  const stack: Array<{ node: DomNode; inListItem: boolean }> = [];
  for (let i = document.childNodes.length - 1; i >= 0; i--) stack.push({ node: document.childNodes[i], inListItem: false });
  while (stack.length > 0) {
    const { node, inListItem } = stack.pop()!;
    if (!isElement(node) || SKIP.has(node.localName) || hidden(node)) continue;
    const tag = node.localName;
    let counts = PARAGRAPHS.has(tag) && !(tag === 'p' && inListItem);
    if (tag === 'div') for (let c = node.firstChild; c && !counts; c = c.nextSibling) counts = isElement(c) && c.localName === 'br';
    if (counts) {
      const marks = `${node.getAttribute('class') ?? ''} ${node.getAttribute('id') ?? ''}`;
      if (!(UNLIKELY.test(marks) && !MAYBE.test(marks)) && textLength(node) >= minLength) {
        const length = trimmedTextOf(node).length;
        if (length >= minLength) {
          score += Math.sqrt(length - minLength);
          if (score > minScore) return true;
        }
      }
    }
    const childInList = inListItem || tag === 'li';
    const kids: DomNode[] = [];
    for (let c = node.firstChild; c; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], inListItem: childInList });
  }
  return false;
}
