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
  return finishPre(readPre(root, null));
}

/** A link inside a code block: where its text runs in `preformattedLinks`' text, end exclusive. */
export interface PreLink {
  start: number;
  end: number;
  el: DomElement;
}

/** `preformattedText` and the links (`<a href>`) in it, in order, each with where its text runs in that text (an
 *  RFC's cross references, a man page's see-also). Links without text are left out. */
export function preformattedLinks(root: DomNode): { text: string; links: PreLink[] } {
  const links: PreLink[] = [];
  const raw = readPre(root, links);
  const text = finishPre(raw);
  if (links.length === 0) return { text, links };
  // finishPre only turns CR LF and CR into LF and cuts blank lines off the start and white space off the end: an
  // offset in the raw text maps to the length of its prefix so changed, less the lines cut off the start.
  const lf = raw.replace(CR, '\n');
  const lead = lf.length - lf.replace(LEADING_BLANK_LINES, '').length;
  const sameLength = lf.length === raw.length; // no CR LF pairs: raw offsets are LF offsets
  const at = (o: number): number => Math.min(text.length, Math.max(0, (sameLength ? o : raw.slice(0, o).replace(CR, '\n').length) - lead));
  const out: PreLink[] = [];
  for (const l of links) {
    const start = at(l.start);
    const end = at(l.end);
    if (end > start) out.push({ start, end, el: l.el });
  }
  return { text, links: out };
}

const LEADING_BLANK_LINES = /^(?:[ \t]*\n)+/;
const TRAILING_SPACE = /\s+$/;

function finishPre(raw: string): string {
  return raw.replace(CR, '\n').replace(LEADING_BLANK_LINES, '').replace(TRAILING_SPACE, '');
}

/** The walk of `preformattedText`, before the ends are trimmed; with `links`, notes each `<a href>`'s span. */
function readPre(root: DomNode, links: PreLink[] | null): string {
  let out = '';
  /** A line break is due before the next text (a block-level element ended, or starts). */
  let breakDue = false;
  const lineBreak = () => {
    if (out.length > 0 && !out.endsWith('\n')) out += '\n';
  };
  const exitBlock = new Set<DomNode>();
  let open: PreLink | null = null;
  let n: DomNode | null = root.firstChild;
  for (let steps = 0; n !== null && steps < MAX_NODES; steps++) {
    let descend = false;
    if (isText(n)) {
      const data = (n as DomText).data;
      if (data.length > 0) {
        if (breakDue && !data.startsWith('\n')) lineBreak();
        breakDue = false;
        if (open !== null && open.start < 0) open.start = out.length;
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
        // A link opens where its first text goes (after any line break due), and closes when the walk leaves it.
        if (descend && links !== null && open === null && tag === 'a' && n.getAttribute('href') !== null) {
          open = { start: -1, end: -1, el: n };
        }
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
      if (open !== null && n === open.el) open = closeLink(open, out, links!);
    }
    if (n !== null) n = n.nextSibling;
  }
  if (open !== null) closeLink(open, out, links!);
  return out;
}

function closeLink(open: PreLink, out: string, links: PreLink[]): null {
  if (open.start >= 0 && out.length > open.start) links.push({ start: open.start, end: out.length, el: open.el });
  return null;
}
