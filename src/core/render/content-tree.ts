// The kept content as a small clean tree, built in ONE iterative forward walk over the page's DOM; the markdown
// and HTML renderers serialise this tree. Why our own: the maintained HTML->markdown libraries (turndown and
// friends) need a browser DOM (or a DOM shim) that workerd does not have, and a sanitiser would
// need the same; building one allowlisted tree makes both outputs agree and keeps sanitising structural.
//
// Only text nodes in the kept set are emitted. Structure comes from their ancestors: an element appears in the
// tree only when kept text (or a kept image) lies inside it. Only allowlisted tags with checked attributes can
// enter the tree, so whatever serialises it cannot emit scripts, styles, event handlers or unsafe URLs.
// Iterative, not recursive: real pages nest thousands of unclosed tags deep.
//
// The tree's node types are in content-node.ts, the URL and image policy in url-policy.ts, the post-passes after
// the walk in finish-tree.ts.

import { type DomElement, type DomNode, type DomText, firstChildOf } from '../parse/dom.js';
import {
  type ContentAttrs,
  type ContentElement,
  type ContentNode,
  type ContentTag,
  NON_BLANK,
  type RegionCheck,
  type RegionFrame,
  hasContent,
  isBlockNode,
} from './content-node.js';
import { finalizeBlocks } from './finish-tree.js';
import { textsApart } from './spacing.js';
import { isHtmlSpace, pickImageSrc, safeUrl } from './url-policy.js';
import { preformattedLinks, preformattedText } from '../blocks/units.js';
import { LEAD_GAP_CHARS } from '../blocks/whole.js';

export interface ContentTreeOptions {
  /** Absolute base URL for links and images (see resolveBaseUrl); null leaves relative URLs relative. */
  baseUrl?: string | null;
}

const enum Kind {
  Transparent,
  Drop,
  Flow,
  Inline,
  Br,
  Img,
  Hr,
  Para,
  Mixed,
  List,
  Dl,
  Pre,
  Table,
  TSection,
  Tr,
}

const KIND = new Map<string, Kind>();
for (const t of [
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'title', 'meta', 'link', 'base', 'iframe',
  'object', 'embed', 'canvas', 'audio', 'video', 'select', 'textarea', 'input', 'option', 'datalist', 'frame',
  'frameset', 'noframes', 'applet', 'param', 'source', 'track', 'map', 'area', 'picture-source',
]) KIND.set(t, Kind.Drop);
for (const t of [
  'html', 'body', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'address', 'details',
  'summary', 'center', 'form', 'fieldset', 'legend', 'hgroup', 'search', 'dialog',
]) KIND.set(t, Kind.Flow);
for (const t of ['a', 'em', 'strong', 'b', 'i', 'code', 'sup', 'sub', 'kbd', 'samp', 'tt', 'var', 'dfn']) KIND.set(t, Kind.Inline);
for (const t of ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'figcaption', 'caption']) KIND.set(t, Kind.Para);
for (const t of ['li', 'dd', 'blockquote', 'figure', 'td', 'th']) KIND.set(t, Kind.Mixed);
for (const t of ['ul', 'ol', 'menu', 'dir']) KIND.set(t, Kind.List);
for (const t of ['pre', 'listing', 'xmp', 'plaintext']) KIND.set(t, Kind.Pre);
for (const t of ['thead', 'tbody', 'tfoot']) KIND.set(t, Kind.TSection);
KIND.set('br', Kind.Br);
KIND.set('img', Kind.Img);
KIND.set('hr', Kind.Hr);
KIND.set('dl', Kind.Dl);
KIND.set('table', Kind.Table);
KIND.set('tr', Kind.Tr);

/** Source tags renamed on the way into the clean tree. */
const RENAME: Readonly<Record<string, ContentTag>> = {
  kbd: 'code', samp: 'code', tt: 'code', var: 'em', dfn: 'em', caption: 'p', menu: 'ul', dir: 'ul',
};

/** Past this many nested clean elements, allowlisted tags are flattened (keeps later recursion shallow). */
const MAX_OUT_DEPTH = 48;

const ASCII_SPACE_RUN = /[ \t\n\r\f]+/g;
/** Whitespace that collapseSpaces changes: a run of two or more, or one that is not a plain space. */
const NON_SINGLE_SPACE = /[\t\n\r\f]| [ \t\n\r\f]/;

/**
 * ASCII whitespace runs as one space. Text that has none to change is returned as it is: a global replace on it
 * would rebuild the string from every word and space between them (V8 returns a rope of those pieces, 128 for a
 * 400-character paragraph, kept in the tree until rendered: an 8 MB page of paragraphs needed 30 MB for them).
 */
function collapseSpaces(text: string): string {
  return NON_SINGLE_SPACE.test(text) ? text.replace(ASCII_SPACE_RUN, ' ') : text;
}
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([A-Za-z0-9_+#.-]{1,40})(?:\s|$)/;
const HIGHLIGHT_CLASS = /(?:^|\s)(?:highlight-source|brush:?\s*)-?([A-Za-z0-9_+#.-]{1,40})(?:\s|$)/;
const SPAN_NUMBER = /^\s*(\d{1,4})\s*$/;
interface Sink {
  nodes: ContentNode[];
  /** Kept text or an image somewhere inside. */
  content: boolean;
  hasBlock: boolean;
  /** Whitespace came while the sink was still empty (not kept as a node: it would lead a run). An inline element
   *  holding only that (`uncertainty.<em> </em>Cybersecurity`) is still a space between its neighbours. */
  leadingSpace?: boolean;
}

interface Frame {
  kind: Kind;
  tag: string;
  el: DomElement;
  sink: Sink;
  /** Set for Para/Mixed: the image-rule frame it opened. */
  region: RegionFrame | null;
  /** Counts toward MAX_OUT_DEPTH. */
  counted: boolean;
  /** Pre: language found on the pre or a code inside. */
  language?: string;
  /** Pre: an `<a>` was met inside (its links are kept in the HTML; see preformattedLinks). */
  hasLinks?: boolean;
  /** The element itself is in the kept set (the top of a merged CDOM chain): all text inside is kept. */
  keptElement: boolean;
  /** A `<figure>`: its images are judged by the text around the figure (see FigureScope). */
  figure?: FigureScope;
}

/**
 * The images of a `<figure>` are judged by the text around the figure, not by the figure's own credits and labels
 * ("Photo", "Credit …", a dropped caption): kept text before the figure counts as kept text before each image, and an
 * image whose next text (inside the figure) was not kept waits for the first text after the figure.
 */
interface FigureScope {
  keptBefore: boolean;
  images: RegionCheck[];
  parent: FigureScope | null;
}

const newSink = (): Sink => ({ nodes: [], content: false, hasBlock: false });

function push(sink: Sink, node: ContentNode): void {
  if (node.kind === 'text') {
    // the parser splits text at character references ("a &lt;b" -> "a ", "<", "b"): join them again so that
    // escaping sees whole strings
    const last = sink.nodes[sink.nodes.length - 1];
    if (last !== undefined && last.kind === 'text') {
      last.text += node.text;
      return;
    }
  }
  sink.nodes.push(node);
  if (isBlockNode(node)) sink.hasBlock = true;
}

function pushSpace(sink: Sink): void {
  const last = sink.nodes[sink.nodes.length - 1];
  if (last === undefined) {
    sink.leadingSpace = true;
    return;
  }
  if (last.kind === 'text' && last.text.endsWith(' ')) return;
  sink.nodes.push({ kind: 'text', text: ' ' });
}

const el = (tag: ContentTag, children: ContentNode[], attrs: ContentAttrs = {}): ContentElement => ({
  kind: 'el',
  tag,
  attrs,
  children,
});

/** Wraps each run of inline nodes in a `p` (when it has content); blocks pass through. */
function groupRuns(nodes: readonly ContentNode[]): ContentElement[] {
  const out: ContentElement[] = [];
  let run: ContentNode[] = [];
  const flush = () => {
    if (run.length > 0 && hasContent(run)) out.push(el('p', run));
    run = [];
  };
  for (const n of nodes) {
    if (isBlockNode(n)) {
      flush();
      out.push(n);
    } else run.push(n);
  }
  flush();
  return out;
}

/** Inline nodes only: blocks are replaced by their inline content, separated by spaces. */
function flattenInline(nodes: readonly ContentNode[], out: ContentNode[] = []): ContentNode[] {
  for (const n of nodes) {
    if (isBlockNode(n)) {
      if (n.tag === 'hr' || n.tag === 'pre') {
        if (n.tag === 'pre') out.push(el('code', n.children[0]?.kind === 'el' ? n.children[0].children : []));
        continue;
      }
      out.push({ kind: 'text', text: ' ' });
      flattenInline(n.children, out);
      out.push({ kind: 'text', text: ' ' });
    } else out.push(n);
  }
  return out;
}

function languageOf(element: DomElement): string | undefined {
  const cls = element.getAttribute('class');
  if (!cls) return undefined;
  const m = LANGUAGE_CLASS.exec(cls) ?? HIGHLIGHT_CLASS.exec(cls);
  return m ? m[1] : undefined;
}

function spanOf(element: DomElement, name: string): number | undefined {
  const v = element.getAttribute(name);
  if (v === null) return undefined;
  const m = SPAN_NUMBER.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n > 1 && n <= 1000 ? n : undefined;
}

const PIXEL = /^\s*[01](?:px)?\s*$/;

/**
 * Builds the clean tree of the kept content under `root` (a document or element). `kept` holds the kept blocks'
 * DOM nodes: Text nodes (a text node right after a kept one is kept too) or elements (all text inside is kept).
 * The steps: walk the DOM (`TreeWalk.run`), entering elements (`enter`: leaves such as images and rules at once,
 * a frame for the rest) and leaving them (`exit`: each kind of element made into clean nodes by its finisher),
 * then the post-passes of finish-tree.ts.
 */
export function buildContentTree(
  root: DomNode,
  kept: ReadonlySet<unknown>,
  options: ContentTreeOptions = {},
): ContentElement[] {
  const walk = new TreeWalk(kept, options.baseUrl ?? null);
  walk.run(root);
  return finalizeBlocks(groupRuns(walk.rootSink.nodes));
}

/** The state of one walk over the DOM and its steps. */
class TreeWalk {
  readonly rootSink: Sink = newSink();
  private readonly stack: Frame[] = [];
  private sink: Sink = this.rootSink;
  private region: RegionFrame | null = null;
  private pre = 0;
  private preFrame: Frame | null = null;
  private tableDepth = 0;
  private outDepth = 0;
  private lastTextKept = false;
  private pending: RegionCheck[] = [];
  private keptAncestors = 0;
  private lastKeptText: DomNode | null = null;
  /** Images waiting for the next text, with the last kept text before them (to decide closesContent). */
  private pendingImages: Array<{ check: RegionCheck; image: DomNode; keptBefore: DomNode }> = [];
  /** The innermost `<figure>` the walk is in, or null. */
  private figure: FigureScope | null = null;
  /** Before the first kept text: the last content image met, and how much dropped text has come since. */
  private lead: LeadImage | null = null;

  constructor(
    private readonly kept: ReadonlySet<unknown>,
    private readonly baseUrl: string | null,
  ) {}

  /** The forward walk: text nodes and elements in document order, a frame per element descended into. */
  run(root: DomNode): void {
    let node: DomNode | null = firstChildOf(root);
    while (node !== null) {
      let descended = false;
      if (node.nodeType === 3) this.text(node);
      else if (node.nodeType === 1) descended = this.enter(node as DomElement);
      if (descended) {
        if (node.firstChild !== null) {
          node = node.firstChild;
          continue;
        }
        this.exit();
      }
      while (node !== null && node.nextSibling === null) {
        node = node.parentNode;
        if (node === null || node === root) {
          node = null;
          break;
        }
        this.exit();
      }
      if (node !== null) node = node.nextSibling;
    }
    while (this.stack.length > 0) this.exit();
    this.onText(false, null); // the end of the page: images after the last kept text close the content
  }

  /** A text node: kept text joins the current sink; dropped text only closes pending image and rule checks. */
  private text(node: DomNode): void {
    const data = (node as DomText).data;
    // A block is one Text node, or a run of adjacent ones (the parser joins text split at character
    // references), or everything inside the top element of its merged chain.
    const isKept =
      this.keptAncestors > 0 || this.kept.has(node) || (this.lastKeptText !== null && this.lastKeptText.nextSibling === node);
    if (isKept) {
      const before = this.lastKeptText;
      this.lastKeptText = node;
      this.onText(true, node);
      const r = this.region as RegionFrame | null;
      if (r) r.hasKept = true;
      this.sink.content = true;
      const text = this.pre > 0 ? data : collapseSpaces(data);
      // texts that only CSS shows apart ("underground.</span><span>Credit"): a space between them
      if (this.pre === 0 && before !== null && before.nextSibling !== node && textsApart(before, (before as DomText).data, node, text)) {
        pushSpace(this.sink);
      }
      push(this.sink, { kind: 'text', text });
    } else if (NON_BLANK.test(data)) {
      this.onText(false, node);
    } else if (this.pre > 0) {
      push(this.sink, { kind: 'text', text: data });
    } else if (data.length > 0) {
      pushSpace(this.sink);
    }
  }

  private onText(isKept: boolean, text: DomNode | null): void {
    if (this.lead !== null) {
      if (isKept && text !== null) {
        if (sharesArticle(this.lead.image, text)) this.lead.check.opensContent = true;
        this.lead = null;
      } else if (text !== null) {
        this.lead.gap += (text as DomText).data.trim().length;
        if (this.lead.gap > LEAD_GAP_CHARS) this.lead = null;
      }
    }
    for (const p of this.pending) p.nextKept = isKept;
    if (this.pending.length > 0) this.pending = [];
    if (!isKept) for (const p of this.pendingImages) p.check.closesContent = closesContent(p.keptBefore, p.image, text);
    if (this.pendingImages.length > 0) this.pendingImages = [];
    this.lastTextKept = isKept;
  }

  private newRegion(image?: DomNode): RegionCheck {
    const r: RegionCheck = { prevKept: this.lastTextKept, nextKept: false, frame: this.region };
    this.pending.push(r);
    if (image !== undefined && this.lastTextKept && this.lastKeptText !== null) {
      this.pendingImages.push({ check: r, image, keptBefore: this.lastKeptText });
    }
    return r;
  }

  /** The kind an element takes here: inside `<pre>` and outside tables some kinds change; deep trees flatten. */
  private kindOf(element: DomElement, tag: string): Kind {
    let kind = KIND.get(tag) ?? Kind.Transparent;
    if (kind === Kind.Drop) return kind;
    if (this.pre > 0) {
      if (kind === Kind.Br || kind === Kind.Img || kind === Kind.Hr) return kind;
      if (tag === 'code' && this.preFrame && this.preFrame.language === undefined) this.preFrame.language = languageOf(element);
      if (tag === 'a' && this.preFrame) this.preFrame.hasLinks = true;
      kind = Kind.Transparent;
    }
    if (this.tableDepth === 0 && (kind === Kind.TSection || kind === Kind.Tr || tag === 'td' || tag === 'th')) kind = Kind.Flow;
    if (this.outDepth >= MAX_OUT_DEPTH) {
      if (kind === Kind.Inline) kind = Kind.Transparent;
      else if (kind >= Kind.Para) kind = Kind.Flow;
    }
    return kind;
  }

  /** Handles an element; returns true when the walk should descend (a frame was pushed). */
  private enter(element: DomElement): boolean {
    const tag = element.localName;
    const kind = this.kindOf(element, tag);
    switch (kind) {
      case Kind.Drop:
        return false;
      case Kind.Br:
        push(this.sink, this.pre > 0 ? { kind: 'text', text: '\n' } : el('br', []));
        return false;
      case Kind.Img:
        if (this.pre === 0) this.image(element);
        return false;
      case Kind.Hr:
        if (this.pre === 0) this.rule();
        return false;
      default:
        this.pushFrame(element, tag, kind);
        return true;
    }
  }

  private image(element: DomElement): void {
    const w = element.getAttribute('width');
    const h = element.getAttribute('height');
    if ((w !== null && PIXEL.test(w)) || (h !== null && PIXEL.test(h))) return;
    const src = pickImageSrc(element, this.baseUrl);
    if (src === null) return;
    const attrs: ContentAttrs = { src, alt: collapseSpaces(element.getAttribute('alt') ?? '').trim() };
    const title = element.getAttribute('title');
    if (title) attrs.title = collapseSpaces(title).trim();
    const img = el('img', [], attrs);
    img.region = this.newRegion(element);
    if (this.lastKeptText === null && isContentImage(element, this.figure !== null) && !this.inLink()) this.lead = { check: img.region, image: element, gap: 0 };
    if (this.figure !== null) {
      if (this.figure.keptBefore) img.region.prevKept = true;
      this.figure.images.push(img.region);
    }
    push(this.sink, img);
    this.sink.content = true;
  }

  /** Whether the walk is inside an `<a>` (a logo linking home, a teaser's thumbnail, an avatar). */
  private inLink(): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i].tag === 'a') return true;
    return false;
  }

  private rule(): void {
    const hr = el('hr', []);
    hr.region = this.newRegion();
    hr.region.frame = null;
    push(this.sink, hr);
  }

  private pushFrame(element: DomElement, tag: string, kind: Kind): void {
    const transparent = kind === Kind.Transparent;
    const frame: Frame = {
      kind,
      tag,
      el: element,
      sink: transparent ? this.sink : newSink(),
      region: null,
      counted: !transparent && kind !== Kind.Flow,
      keptElement: this.kept.has(element),
    };
    if (frame.keptElement) this.keptAncestors++;
    if (kind === Kind.Para || kind === Kind.Mixed) {
      frame.region = { hasKept: false, parent: this.region };
      this.region = frame.region;
    }
    if (kind === Kind.Pre) {
      this.pre++;
      this.preFrame = frame;
      frame.language = languageOf(element);
    }
    if (kind === Kind.Table) this.tableDepth++;
    if (tag === 'figure' && this.pre === 0) {
      frame.figure = { keptBefore: this.lastTextKept, images: [], parent: this.figure };
      this.figure = frame.figure;
    }
    if (frame.counted) this.outDepth++;
    this.stack.push(frame);
    this.sink = frame.sink;
  }

  /** Leaves the innermost element: its clean nodes go to the parent's sink (the finisher of its kind). */
  private exit(): void {
    const frame = this.stack.pop()!;
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1].sink : this.rootSink;
    this.sink = parent;
    if (frame.counted) this.outDepth--;
    if (frame.keptElement) this.keptAncestors--;
    if (frame.region) {
      if (frame.region.hasKept && frame.region.parent) frame.region.parent.hasKept = true;
      this.region = frame.region.parent;
    }
    if (frame.figure !== undefined) {
      // images whose next text inside the figure was dropped wait for the text after it
      for (const r of frame.figure.images) if (!r.nextKept && !this.pending.includes(r)) this.pending.push(r);
      this.figure = frame.figure.parent;
      if (this.figure !== null) this.figure.images.push(...frame.figure.images);
    }
    const child = frame.sink;
    switch (frame.kind) {
      case Kind.Flow:
        return finishFlow(child, parent);
      case Kind.Inline:
        return finishInline(frame, child, parent, this.baseUrl);
      case Kind.Para:
        return finishPara(frame, child, parent);
      case Kind.Mixed:
        return finishMixed(frame, child, parent);
      case Kind.List:
        return finishList(frame, child, parent);
      case Kind.Dl:
        return finishDl(child, parent);
      case Kind.Pre:
        return this.finishPre(frame, child, parent);
      case Kind.TSection:
        return finishTSection(frame, child, parent);
      case Kind.Tr:
        return finishTr(child, parent);
      case Kind.Table:
        this.tableDepth--;
        if (!child.content) return;
        parent.content = true;
        finishTable(child.nodes, parent);
        return;
      default:
        return; // Transparent: its nodes are already in the parent's sink
    }
  }

  private finishPre(frame: Frame, child: Sink, parent: Sink): void {
    this.pre--;
    this.preFrame = null;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      if (this.stack[i].kind === Kind.Pre) {
        this.preFrame = this.stack[i];
        break;
      }
    }
    if (!child.content) return;
    parent.content = true;
    if (this.pre > 0) {
      // a pre inside a pre: its text joins the outer one
      for (const n of child.nodes) push(parent, n);
      return;
    }
    const attrs: ContentAttrs = {};
    if (frame.language !== undefined) attrs.language = frame.language;
    // One unit: the whole block as the page shows it, with its links (an RFC's cross references) where it has any.
    const body = frame.hasLinks === true ? this.preWithLinks(frame.el) : [{ kind: 'text', text: preformattedText(frame.el) } as ContentNode];
    push(parent, el('pre', [el('code', body, attrs)]));
  }

  /** A code block's text cut at its links: text, then each link with a safe URL as an `<a>` over its own text. */
  private preWithLinks(pre: DomElement): ContentNode[] {
    const { text, links } = preformattedLinks(pre);
    const out: ContentNode[] = [];
    let at = 0;
    for (const link of links) {
      const href = link.el.getAttribute('href');
      const safe = href === null ? null : safeUrl(href, this.baseUrl, 'link');
      if (safe === null) continue;
      // white space at a link's ends stays outside it: the link is its words
      let start = link.start;
      let end = link.end;
      while (start < end && isHtmlSpace(text.charCodeAt(start))) start++;
      while (end > start && isHtmlSpace(text.charCodeAt(end - 1))) end--;
      if (end === start || start < at) continue;
      if (start > at) out.push({ kind: 'text', text: text.slice(at, start) });
      const linkAttrs: ContentAttrs = { href: safe };
      const title = link.el.getAttribute('title');
      if (title) linkAttrs.title = collapseSpaces(title).trim();
      out.push(el('a', [{ kind: 'text', text: text.slice(start, end) }], linkAttrs));
      at = end;
    }
    if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
    return out;
  }
}

/** Flow content (div, section, ...): its inline runs become paragraphs. */
function finishFlow(child: Sink, parent: Sink): void {
  for (const b of groupRuns(child.nodes)) push(parent, b);
  if (child.content) parent.content = true;
}

/** An inline element (a, em, code, ...): kept when it holds content; a link only with a safe URL. */
function finishInline(frame: Frame, child: Sink, parent: Sink, baseUrl: string | null): void {
  if (!child.content) {
    if (child.nodes.length > 0 || child.leadingSpace === true) pushSpace(parent);
    return;
  }
  parent.content = true;
  const tag = RENAME[frame.tag] ?? (frame.tag as ContentTag);
  let attrs: ContentAttrs | null = {};
  if (tag === 'a') {
    const href = frame.el.getAttribute('href');
    const safe = href === null ? null : safeUrl(href, baseUrl, 'link');
    if (safe === null) attrs = null;
    else {
      attrs.href = safe;
      const title = frame.el.getAttribute('title');
      if (title) attrs.title = collapseSpaces(title).trim();
    }
  }
  if (attrs === null || child.hasBlock) {
    for (const n of child.nodes) push(parent, n);
  } else push(parent, el(tag, child.nodes, attrs));
}

/** A paragraph-like element (p, h1-h6, dt, figcaption, caption): inline content only. */
function finishPara(frame: Frame, child: Sink, parent: Sink): void {
  if (!child.content) return;
  parent.content = true;
  if (frame.tag === 'p' && child.hasBlock) {
    for (const b of groupRuns(child.nodes)) push(parent, b);
    return;
  }
  const tag = RENAME[frame.tag] ?? (frame.tag as ContentTag);
  push(parent, el(tag, child.hasBlock ? flattenInline(child.nodes) : child.nodes));
}

/** An element of mixed content (li, dd, blockquote, figure, td, th); cells are kept even when empty. */
function finishMixed(frame: Frame, child: Sink, parent: Sink): void {
  const cell = frame.tag === 'td' || frame.tag === 'th';
  if (!child.content && !cell) return;
  if (child.content) parent.content = true;
  const attrs: ContentAttrs = {};
  if (cell) {
    const colspan = spanOf(frame.el, 'colspan');
    const rowspan = spanOf(frame.el, 'rowspan');
    if (colspan !== undefined) attrs.colspan = colspan;
    if (rowspan !== undefined) attrs.rowspan = rowspan;
  }
  push(parent, el(frame.tag as ContentTag, child.nodes, attrs));
}

/** Children of a list or definition list as items: a run of loose content becomes one item of `wrap`. */
function asItems(nodes: readonly ContentNode[], isItem: (n: ContentElement) => boolean, wrap: ContentTag): ContentElement[] {
  const items: ContentElement[] = [];
  let run: ContentNode[] = [];
  const flush = () => {
    if (run.length > 0 && hasContent(run)) items.push(el(wrap, run));
    run = [];
  };
  for (const n of nodes) {
    if (n.kind === 'el' && isItem(n)) {
      flush();
      items.push(n);
    } else if (isBlockNode(n)) {
      flush();
      items.push(el(wrap, [n]));
    } else run.push(n);
  }
  flush();
  return items;
}

function finishList(frame: Frame, child: Sink, parent: Sink): void {
  if (!child.content) return;
  parent.content = true;
  const items = asItems(child.nodes, (n) => n.tag === 'li', 'li');
  if (items.length > 0) push(parent, el(frame.tag === 'ol' ? 'ol' : 'ul', items));
}

function finishDl(child: Sink, parent: Sink): void {
  if (!child.content) return;
  parent.content = true;
  const items = asItems(child.nodes, (n) => n.tag === 'dt' || n.tag === 'dd', 'dd');
  if (items.length > 0) push(parent, el('dl', items));
}

/** thead/tbody/tfoot: its rows pass to the table, rows of a thead marked as header rows. */
function finishTSection(frame: Frame, child: Sink, parent: Sink): void {
  for (const n of child.nodes) {
    if (n.kind === 'el' && n.tag === 'tr' && frame.tag === 'thead') n.head = true;
    push(parent, n);
  }
  if (child.content) parent.content = true;
}

/** A table row: its cells, loose content wrapped in a cell. */
function finishTr(child: Sink, parent: Sink): void {
  const cells: ContentElement[] = [];
  for (const n of child.nodes) {
    if (n.kind === 'el' && (n.tag === 'td' || n.tag === 'th')) cells.push(n);
    else if (n.kind === 'el' || NON_BLANK.test(n.text)) cells.push(el('td', [n]));
  }
  if (child.content) parent.content = true;
  if (cells.length > 0) push(parent, el('tr', cells));
}

/**
 * A lead image: the picture above an article's first kept paragraph (under a headline the output gives as its
 * title). Kept when it is a content image (isContentImage) and not inside a link, no more
 * than a caption, a credit and a byline of dropped text (LEAD_GAP_CHARS) lie between it and the first kept text,
 * and the two share an element below `<body>` (not only the page as a whole).
 */
interface LeadImage {
  check: RegionCheck;
  image: DomNode;
  /** Characters of dropped text since the image. */
  gap: number;
}

const LEAD_MIN_WIDTH = 300;
const LEAD_MIN_HEIGHT = 150;

/** A picture of the article, not a thumbnail or an avatar: never declared smaller than LEAD_MIN_WIDTH by
 *  LEAD_MIN_HEIGHT, and in a `<figure>`, with a `srcset`, or declared at least that wide. */
function isContentImage(img: DomElement, inFigure: boolean): boolean {
  const w = Number.parseInt(img.getAttribute('width') ?? '', 10);
  const h = Number.parseInt(img.getAttribute('height') ?? '', 10);
  if (w > 0 && w < LEAD_MIN_WIDTH) return false;
  if (h > 0 && h < LEAD_MIN_HEIGHT) return false;
  return inFigure || w >= LEAD_MIN_WIDTH || img.getAttribute('srcset') !== null || img.getAttribute('data-srcset') !== null;
}

/** Whether the image and the first kept text lie in one element below `<body>` (an article, its header and body). */
function sharesArticle(image: DomNode, text: DomNode): boolean {
  const common = commonAncestor(text, image);
  if (common === null || common.nodeType !== 1) return false;
  const tag = (common as DomElement).localName;
  return tag !== 'body' && tag !== 'html';
}

/** Elements climbed at most when comparing ancestors (real pages nest at most a few hundred deep). */
const MAX_CLIMB = 5_000;

/**
 * Whether an image after kept text closes the kept content: the element holding both the kept text and the image
 * does not hold `next`, the first text after the image (null: the page ends), and is not the whole page.
 */
function closesContent(keptBefore: DomNode, image: DomNode, next: DomNode | null): boolean {
  const common = commonAncestor(keptBefore, image);
  if (common === null) return false;
  if (next === null) return true;
  if (common.nodeType !== 1) return false;
  const tag = (common as DomElement).localName;
  if (tag === 'body' || tag === 'html') return false;
  for (let n: DomNode | null = next, i = 0; n !== null && i < MAX_CLIMB; n = n.parentNode, i++) if (n === common) return false;
  return true;
}

/** The nearest element holding both `a` and `image` (climbing from `a`'s parent), or null. */
function commonAncestor(a: DomNode, image: DomNode): DomNode | null {
  const ancestors = new Set<DomNode>();
  for (let n = image.parentNode, i = 0; n !== null && i < MAX_CLIMB; n = n.parentNode, i++) ancestors.add(n);
  let common = a.parentNode;
  for (let i = 0; common !== null && !ancestors.has(common) && i < MAX_CLIMB; i++) common = common.parentNode;
  return common !== null && ancestors.has(common) ? common : null;
}

/** A table of data cells stays a table; a layout table (blocks in cells, or one column) becomes its cells' blocks. */
function finishTable(nodes: readonly ContentNode[], parent: Sink): void {
  const rows: ContentElement[] = [];
  const before: ContentElement[] = [];
  for (const n of nodes) {
    if (n.kind === 'el' && n.tag === 'tr') {
      if (hasContent(n.children)) rows.push(n);
    } else if (n.kind === 'el' && n.tag === 'p') before.push(n); // caption, stray text
    else if (isBlockNode(n)) before.push(n);
  }
  for (const b of before) push(parent, b);
  if (rows.length === 0) return;
  let layout = false;
  let maxCols = 0;
  for (const row of rows) {
    let cols = 0;
    for (const cell of row.children as ContentElement[]) {
      cols += cell.attrs.colspan ?? 1;
      // a single paragraph in a cell is just its text
      const blocks = cell.children.filter(isBlockNode);
      if (blocks.length === 1 && blocks[0].tag === 'p' && cell.children.every((c) => c === blocks[0] || !hasContent([c]))) {
        cell.children = blocks[0].children;
      } else if (blocks.length > 0) layout = true;
    }
    maxCols = Math.max(maxCols, cols);
  }
  if (layout || maxCols <= 1) {
    for (const row of rows) {
      for (const cell of row.children as ContentElement[]) for (const b of groupRuns(cell.children)) push(parent, b);
    }
    return;
  }
  const headRows = rows.filter((r) => r.head);
  const bodyRows = rows.filter((r) => !r.head);
  const children: ContentElement[] = [];
  if (headRows.length > 0) children.push(el('thead', headRows));
  if (bodyRows.length > 0) children.push(el('tbody', bodyRows));
  push(parent, el('table', children));
}

/** The kept Text nodes of a page: `blocks[i].domNode` for every block labelled 1. */
export function keptTextNodes(blocks: ReadonlyArray<{ domNode: unknown }>, labels: ArrayLike<number>): Set<unknown> {
  const kept = new Set<unknown>();
  for (let i = 0; i < blocks.length; i++) if (labels[i] === 1) kept.add(blocks[i].domNode);
  return kept;
}
