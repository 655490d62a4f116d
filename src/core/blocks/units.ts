// Blocks that are units: a preformatted element (`<pre>`, `<listing>`, `<xmp>`, `<plaintext>`) is ONE block, kept
// or dropped whole by the classifier, and its text is read here the way a browser lays it out: text nodes as they
// are, a line break for each `<br>`, and block-level children (a `<div>` per line, highlighter line spans that
// their CSS makes `display: block`) on lines of their own. The collapsed DOM, the plain-text layout and the clean
// tree all read a code block's text through `preformattedText`, so the three agree.
import { type DomElement, type DomNode, type DomText, isElement, isText } from '../parse/dom.js';

/** Elements whose text is preformatted (shown with its spaces and line breaks). */
export const PRE_TAGS: ReadonlySet<string> = new Set(['pre', 'listing', 'xmp', 'plaintext']);

/** Inside a code block: elements that show nothing. */
const HIDDEN_IN_PRE: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link', 'iframe', 'object', 'embed', 'svg',
  'math', 'select', 'textarea', 'input', 'button', 'video', 'audio', 'canvas',
]);

/** Elements that start a line of their own inside a code block (HTML's block-level boxes). */
const BLOCK_IN_PRE: ReadonlySet<string> = new Set([
  'div', 'p', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'table', 'tr', 'section', 'article', 'header', 'footer', 'blockquote',
  'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'figcaption', 'hr', 'address', 'details', 'summary',
]);

/** Class tokens of highlighters' line wrappers, which their CSS shows as `display: block` (Prism's gatsby line
 *  highlight, rouge/pygments `hll`, highlight.js line plugins): a line of its own. */
const LINE_CLASS = /(?:^|\s)(?:[\w-]*-)?(?:code-line|highlight-line|highlighted-line|hll|line-block)(?:\s|$)/;
const BLOCK_STYLE = /display\s*:\s*(?:block|flex|grid|list-item|table)/i;
const CR = /\r\n?/g;

/** Nodes visited at most in one code block's text (a code block is bounded by the parse limits already). */
const MAX_NODES = 500_000;

/** Whether an element inside a code block shows on lines of its own. */
function blockInPre(el: DomElement, tag: string): boolean {
  if (BLOCK_IN_PRE.has(tag)) return true;
  if (!el.hasAttributes()) return false;
  const cls = el.getAttribute('class');
  if (cls !== null && LINE_CLASS.test(cls)) return true;
  const style = el.getAttribute('style');
  return style !== null && BLOCK_STYLE.test(style);
}

/**
 * The text of a preformatted element as a browser shows it: spaces and line breaks kept, `<br>` a line break,
 * block-level children on their own lines (a break added only where the text does not already have one).
 * Leading and trailing blank lines are trimmed (HTML drops a first newline right after `<pre>`).
 */
export function preformattedText(root: DomNode): string {
  let out = '';
  /** A line break is due before the next text (a block-level element ended, or starts). */
  let breakDue = false;
  const lineBreak = () => {
    if (out.length > 0 && !out.endsWith('\n')) out += '\n';
  };
  const exitBlock = new Set<DomNode>();
  let n: DomNode | null = root.firstChild;
  for (let steps = 0; n !== null && steps < MAX_NODES; steps++) {
    let descend = false;
    if (isText(n)) {
      const data = (n as DomText).data;
      if (data.length > 0) {
        if (breakDue && !data.startsWith('\n')) lineBreak();
        breakDue = false;
        out += data;
      }
    } else if (isElement(n)) {
      const tag = n.localName;
      if (tag === 'br') {
        out += '\n';
        breakDue = false;
      } else if (!HIDDEN_IN_PRE.has(tag)) {
        if (blockInPre(n, tag)) {
          lineBreak();
          exitBlock.add(n);
        }
        descend = n.firstChild !== null;
        if (!descend && exitBlock.has(n)) breakDue = true;
      }
    }
    if (descend) {
      n = n.firstChild;
      continue;
    }
    while (n !== null && n.nextSibling === null) {
      n = n.parentNode;
      if (n === null || n === root) {
        n = null;
        break;
      }
      if (exitBlock.has(n)) breakDue = true;
    }
    if (n !== null) n = n.nextSibling;
  }
  return out.replace(CR, '\n').replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}
