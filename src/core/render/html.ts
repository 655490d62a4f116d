// Clean, embeddable HTML of the kept content. It serialises the clean tree of content-tree.ts, which can only
// hold allowlisted tags and checked attributes: no scripts, styles, event handlers, SVG/MathML, or
// javascript:/vbscript:/data: URLs (data: images are dropped too: on real pages they are lazy-loading
// placeholders, and an SVG data URL is a way to smuggle markup). Links and images are absolute when the page URL
// is known. Text and attribute values are escaped.

import type { DomNode } from '../parse/dom.js';
import type { ContentNode } from './content-node.js';
import { buildContentTree, type ContentTreeOptions } from './content-tree.js';

/** Sanitised HTML of the kept Text nodes under `root` (the page's document). '' when nothing is kept. */
export function renderHtml(root: DomNode, kept: ReadonlySet<unknown>, options: ContentTreeOptions = {}): string {
  return htmlFromTree(buildContentTree(root, kept, options));
}

const TEXT_ESCAPES = /[&<>]/g;
const ATTR_ESCAPES = /[&<>"']/g;
const ESCAPE: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtmlText(text: string): string {
  return text.replace(TEXT_ESCAPES, (c) => ESCAPE[c]);
}

export function escapeHtmlAttr(value: string): string {
  return value.replace(ATTR_ESCAPES, (c) => ESCAPE[c]);
}

const VOID: ReadonlySet<string> = new Set(['br', 'hr', 'img']);
/** Blocks followed by a newline, for readable output. */
const LINE_AFTER: ReadonlySet<string> = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'pre', 'blockquote', 'table', 'thead', 'tbody', 'tr',
  'figure', 'figcaption', 'dl', 'dt', 'dd', 'hr',
]);

/** HTML of an already built clean tree. */
export function htmlFromTree(nodes: readonly ContentNode[]): string {
  return serialise(nodes).trim();
}

function serialise(nodes: readonly ContentNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') {
      out += escapeHtmlText(n.text);
      continue;
    }
    const a = n.attrs;
    let attrs = '';
    if (a.href !== undefined) attrs += ` href="${escapeHtmlAttr(a.href)}"`;
    if (a.src !== undefined) attrs += ` src="${escapeHtmlAttr(a.src)}"`;
    if (n.tag === 'img') attrs += ` alt="${escapeHtmlAttr(a.alt ?? '')}"`;
    if (a.title !== undefined) attrs += ` title="${escapeHtmlAttr(a.title)}"`;
    if (a.colspan !== undefined) attrs += ` colspan="${a.colspan}"`;
    if (a.rowspan !== undefined) attrs += ` rowspan="${a.rowspan}"`;
    if (a.language !== undefined) attrs += ` class="language-${escapeHtmlAttr(a.language)}"`;
    if (VOID.has(n.tag)) {
      out += `<${n.tag}${attrs}>`;
    } else {
      const open = n.tag === 'ul' || n.tag === 'ol' || n.tag === 'table' || n.tag === 'thead' || n.tag === 'tbody' || n.tag === 'tr' || n.tag === 'dl' || n.tag === 'blockquote' || n.tag === 'figure';
      out += `<${n.tag}${attrs}>${open ? '\n' : ''}${serialise(n.children)}</${n.tag}>`;
    }
    if (LINE_AFTER.has(n.tag)) out += '\n';
  }
  return out;
}
