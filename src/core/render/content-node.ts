// The clean tree that content-tree.ts builds and the markdown and HTML renderers serialise: its node types and
// the small queries every pass over it shares.

/** Tags the clean tree can hold (the HTML renderer's allowlist). */
export type ContentTag =
  | 'p' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'ul' | 'ol' | 'li' | 'a' | 'em' | 'strong' | 'b' | 'i'
  | 'code' | 'pre' | 'blockquote' | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td' | 'img' | 'figure'
  | 'figcaption' | 'br' | 'hr' | 'sup' | 'sub' | 'dl' | 'dt' | 'dd';

export interface ContentAttrs {
  /** Absolute (or, without a page URL, relative) http(s)/mailto/tel/ftp URL. */
  href?: string;
  /** Absolute (or relative) http(s) URL. */
  src?: string;
  alt?: string;
  title?: string;
  colspan?: number;
  rowspan?: number;
  /** Code language from `class="language-x"` / `lang-x`, restricted to [A-Za-z0-9_+#.-]. */
  language?: string;
}

export interface ContentText {
  kind: 'text';
  text: string;
}

export interface ContentElement {
  kind: 'el';
  tag: ContentTag;
  attrs: ContentAttrs;
  children: ContentNode[];
  /** Images and rules: decided after the walk (see RegionCheck). */
  region?: RegionCheck;
  /** Table rows from `<thead>`. */
  head?: boolean;
}

export type ContentNode = ContentText | ContentElement;

/**
 * An image or rule is kept when kept text lies before and after it, or (images) in its nearest content block, or
 * (images) when it closes the kept content: kept text before it and, after it, no text at all or only text outside
 * the element that holds both (an article's last figure before the footer).
 */
export interface RegionCheck {
  prevKept: boolean;
  nextKept: boolean;
  frame: RegionFrame | null;
  /** Images: set when the image closes the kept content (see above). */
  closesContent?: boolean;
  /** Images: set when the image opens the kept content (a lead image; see content-tree.ts, LeadImage). */
  opensContent?: boolean;
}

export interface RegionFrame {
  hasKept: boolean;
  parent: RegionFrame | null;
}

/** Block-level tags of the clean tree; everything else in it is inline. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'pre', 'blockquote', 'table', 'thead', 'tbody', 'tr',
  'th', 'td', 'figure', 'figcaption', 'dl', 'dt', 'dd', 'hr',
]);

/** A character other than ASCII whitespace (the clean tree collapses only ASCII whitespace, as HTML does). */
export const NON_BLANK = /[^ \t\n\r\f]/;

export function isBlockNode(n: ContentNode): n is ContentElement {
  return n.kind === 'el' && BLOCK_TAGS.has(n.tag);
}

/** True when the nodes hold text, an image or a rule (cells count by their own content). */
export function hasContent(nodes: readonly ContentNode[]): boolean {
  for (const n of nodes) {
    if (n.kind === 'text') {
      if (NON_BLANK.test(n.text)) return true;
    } else if (n.tag === 'td' || n.tag === 'th') {
      if (hasContent(n.children)) return true;
    } else if (n.tag !== 'br') return true;
  }
  return false;
}

/** The plain text of nodes, a line break for each `br` (code spans, code blocks). */
export function textOf(nodes: readonly ContentNode[]): string {
  let s = '';
  for (const n of nodes) {
    if (n.kind === 'text') s += n.text;
    else if (n.tag === 'br') s += '\n';
    else s += textOf(n.children);
  }
  return s;
}
