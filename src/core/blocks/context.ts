// What a block inherits from ALL its raw DOM ancestors (pith features): ancestor tags, ARIA roles, class/id words,
// hidden elements, link and heading. Contexts are immutable and shared: a child element that changes nothing
// reuses its parent's context, so the walk allocates only where something changes.
import { type DomElement, attr } from '../parse/dom.js';
import { ownedKeyMemo } from '../parse/string-memo.js';

/** Tags whose presence anywhere above a block is a feature (`anc_<tag>`). */
export const ANCESTOR_TAGS: readonly string[] = [
  'main', 'article', 'section', 'nav', 'aside', 'header', 'footer', 'form', 'li', 'ul', 'ol', 'dl', 'table', 'th',
  'caption', 'figure', 'figcaption', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'label', 'a', 'p',
  'pre', 'code', 'address', 'time', 'small', 'menu', 'details', 'dialog',
];
const ANCESTOR_TAG_INDEX: ReadonlyMap<string, number> = new Map(ANCESTOR_TAGS.map((t, i) => [t, i]));

/** ARIA roles (`role_<name>`); several role values map to one feature. */
export const ROLE_NAMES: readonly string[] = [
  'main', 'navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'menu', 'article',
];
const ROLE_INDEX: ReadonlyMap<string, number> = new Map([
  ...ROLE_NAMES.map((r, i) => [r, i] as [string, number]),
  ['alertdialog', 6], ['menubar', 7], ['menuitem', 7], ['tablist', 7], ['toolbar', 7],
]);

/** Class/id words (`cls_<word>`), matched on tokens split at `-`, `_`, spaces, digits and camelCase. */
export const CLASS_WORDS: readonly string[] = [
  'nav', 'menu', 'footer', 'header', 'sidebar', 'comment', 'share', 'social', 'related', 'cookie', 'banner', 'ad',
  'promo', 'breadcrumb', 'widget', 'subscribe', 'newsletter', 'popup', 'modal', 'article', 'content', 'post',
  'entry', 'body', 'main', 'text', 'story', 'author', 'date', 'tag', 'caption', 'title', 'hidden', 'pagination',
];
const w = (s: string): number => CLASS_WORDS.indexOf(s);
export const CLASS_TOKEN_INDEX: ReadonlyMap<string, number> = new Map<string, number>([
  ...CLASS_WORDS.map((c, i) => [c, i] as [string, number]),
  ['navigation', w('nav')], ['navbar', w('nav')], ['topnav', w('nav')], ['menus', w('menu')],
  ['dropdown', w('menu')], ['foot', w('footer')], ['masthead', w('header')], ['sidebars', w('sidebar')],
  ['aside', w('sidebar')], ['comments', w('comment')], ['disqus', w('comment')], ['reply', w('comment')],
  ['sharing', w('share')], ['sharer', w('share')], ['facebook', w('social')], ['twitter', w('social')],
  ['recommended', w('related')], ['cookies', w('cookie')], ['consent', w('cookie')], ['gdpr', w('cookie')],
  ['banners', w('banner')], ['ads', w('ad')], ['advert', w('ad')], ['adv', w('ad')], ['advertisement', w('ad')],
  ['sponsor', w('ad')], ['sponsored', w('ad')], ['dfp', w('ad')], ['promotion', w('promo')],
  ['breadcrumbs', w('breadcrumb')], ['crumbs', w('breadcrumb')], ['widgets', w('widget')],
  ['signup', w('subscribe')], ['subscription', w('subscribe')], ['popover', w('popup')], ['overlay', w('modal')],
  ['articles', w('article')], ['contents', w('content')], ['posts', w('post')], ['hentry', w('entry')],
  ['prose', w('text')], ['byline', w('author')], ['time', w('date')], ['published', w('date')],
  ['tags', w('tag')], ['headline', w('title')], ['heading', w('title')], ['pager', w('pagination')],
  // news pages (issue 10): recirculation rails, native-ad widgets, appeals
  ['trending', w('related')], ['popular', w('related')], ['recirc', w('related')], ['recirculation', w('related')],
  ['outbrain', w('ad')], ['taboola', w('ad')], ['teaser', w('promo')], ['teasers', w('promo')], ['donate', w('promo')],
  ['donation', w('promo')], ['paywall', w('subscribe')], ['membership', w('subscribe')], ['discussion', w('comment')],
  ['respond', w('comment')],
]);

export interface AncestorContext {
  /** [ANCESTOR_TAGS.length] 1 when some ancestor element has the tag. */
  readonly tags: Uint8Array;
  /** [ROLE_NAMES.length] 1 when some ancestor has the role. */
  readonly roles: Uint8Array;
  /**
   * The CLASS_WORDS that the class or id of some ancestor has, with the raw DOM depth of the nearest such ancestor:
   * pairs [word index, depth, word index, depth, ...] by word index. Copied on change (most contexts have a few
   * words: a pair per word is less to copy than a depth for each of the 34).
   */
  readonly classWords: readonly number[];
  /**
   * Some ancestor is hidden: an inline style `display: none` or `visibility: hidden`, the `hidden` attribute,
   * `aria-hidden="true"`, or a class that hides it in common CSS frameworks (`hidden`, `d-none`, `sr-only`, ...).
   */
  readonly hidden: boolean;
  /**
   * Raw DOM depth of the nearest comment-section ancestor (class or id words comment/respond/disqus/reply/...,
   * `role="comment"`, `itemprop="comment"`, a schema.org Comment item), -1 when none.
   */
  readonly commentDepth: number;
  /** Some ancestor is an `a` element. */
  readonly inLink: boolean;
  /** Level (1-6) of the nearest heading ancestor, 0 when none. */
  readonly heading: number;
}

// Not frozen: a frozen object has a hidden class of its own, and every function that reads contexts would then see
// two shapes (the root's and its descendants') and be compiled again when the rarer one turns up. `readonly` guards it.
export const ROOT_CONTEXT: AncestorContext = {
  tags: new Uint8Array(ANCESTOR_TAGS.length),
  roles: new Uint8Array(ROLE_NAMES.length),
  classWords: [],
  hidden: false,
  commentDepth: -1,
  inLink: false,
  heading: 0,
};

const NO_WORDS: readonly number[] = [];

/**
 * End of the class/id token that starts at s[start] (an ASCII letter): the run of ASCII letters, cut before an
 * upper-case letter that follows a lower-case one. The tokens are the non-empty pieces of
 * `s.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/)`, found without the regex and the array of pieces (ids, and class
 * attributes the memos have not seen, are split on every element).
 */
function tokenEnd(s: string, start: number): number {
  let prevLower = s.charCodeAt(start) >= 97;
  let i = start + 1;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) prevLower = true;
    else if (c >= 65 && c <= 90) {
      if (prevLower) break;
    } else break;
  }
  return i;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Start of the first class/id token at or after `from` (the next ASCII letter), or s.length when none. */
function tokenStart(s: string, from: number): number {
  let at = from;
  while (at < s.length && !isAsciiLetter(s.charCodeAt(at))) at++;
  return at;
}

/**
 * Lower-case ASCII words, looked up by a run of ASCII letters of a string in any case, found without cutting the run
 * out and lower-casing it (class/id tokens: ids, and class attributes the memos have not seen, are split on every
 * element). A trie over a-z: node n's child for letter c is next[n * 26 + c], 0 when none.
 */
class LetterTrie<V> {
  private readonly next: Int32Array;
  private readonly values: (V | undefined)[] = [undefined];

  constructor(entries: Iterable<readonly [string, V]>) {
    const next: number[] = new Array<number>(26).fill(0);
    for (const [word, value] of entries) {
      if (!/^[a-z]+$/.test(word)) continue; // never a token: tokens are letters only
      let node = 0;
      for (let i = 0; i < word.length; i++) {
        const at = node * 26 + word.charCodeAt(i) - 97;
        if (next[at] === 0) {
          next[at] = this.values.length;
          this.values.push(undefined);
          for (let k = 0; k < 26; k++) next.push(0);
        }
        node = next[at];
      }
      this.values[node] = value;
    }
    this.next = Int32Array.from(next);
  }

  /** The value of the word s[start, end), a run of ASCII letters, lower-cased; undefined when none. */
  get(s: string, start: number, end: number): V | undefined {
    let node = 0;
    for (let i = start; i < end; i++) {
      node = this.next[node * 26 + (s.charCodeAt(i) | 0x20) - 97];
      if (node === 0) return undefined;
    }
    return this.values[node];
  }
}

/** Indices of CLASS_WORDS found in an id (not remembered: ids are unique, they would only fill a memo). */
function idWordIndices(s: string): readonly number[] {
  return s.length === 0 ? NO_WORDS : classWordsOf(s);
}
const CLASS_TOKENS = new LetterTrie(CLASS_TOKEN_INDEX);
/** Indices of CLASS_WORDS found in a class attribute or id. */
export function classWordsOf(s: string): readonly number[] {
  let out: number[] | null = null;
  for (let at = tokenStart(s, 0), end = at; at < s.length; at = tokenStart(s, end)) {
    end = tokenEnd(s, at);
    const i = CLASS_TOKENS.get(s, at, end);
    if (i !== undefined) {
      out ??= [];
      if (!out.includes(i)) out.push(i);
    }
  }
  return out ?? NO_WORDS;
}

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Class names that hide an element in common CSS frameworks and CMS themes (whole class names, lower-cased). */
const HIDDEN_CLASSES: ReadonlySet<string> = new Set([
  'hidden', 'hide', 'is-hidden', 'u-hidden', 'js-hidden', 'display-none', 'd-none', 'invisible', 'visually-hidden',
  'visuallyhidden', 'sr-only', 'screen-reader-text', 'screen-reader-only', 'element-invisible', 'offscreen',
  'a11y-hidden', 'hide-text', 'is-invisible', 'u-visually-hidden', 'hidden-content', 'ng-hide', 'x-hidden',
]);
/** True when a class list holds one of HIDDEN_CLASSES, in any case. */
function hasHiddenClass(classList: readonly string[]): boolean {
  for (const c of classList) if (HIDDEN_CLASSES.has(c.toLowerCase())) return true;
  return false;
}

/** Class/id tokens (split as for CLASS_WORDS, lower-cased) that mark a comment section. */
export const COMMENT_TOKENS: ReadonlySet<string> = new Set([
  'comment', 'comments', 'commentlist', 'commentary', 'disqus', 'reply', 'replies', 'respond', 'responses',
  'discussion', 'discuss', 'commento', 'remarks', 'talkback', 'coral', 'fb-comments', 'livefyre', 'viafoura',
]);
/** True when an id names a comment section (not remembered: ids are unique). */
function idNamesComment(s: string): boolean {
  return s.length !== 0 && namesComment(s);
}
const COMMENT_TOKEN_TRIE = new LetterTrie([...COMMENT_TOKENS].map((t) => [t, true] as const));
/** True when a class attribute or id names a comment section. */
export function namesComment(s: string): boolean {
  for (let at = tokenStart(s, 0), end = at; at < s.length; at = tokenStart(s, end)) {
    end = tokenEnd(s, at);
    if (COMMENT_TOKEN_TRIE.get(s, at, end) === true) return true;
  }
  return false;
}

/** The class list of an element without classes: one shared frozen array (never mutated). */
export const NO_CLASSES = Object.freeze([]) as unknown as string[];
const WS_SPLIT = /\s+/;

/** Class names of a class attribute, each once, in order. */
function classListOf(cls: string): string[] {
  const t = cls.trim();
  if (t.length === 0) return NO_CLASSES;
  const parts = t.split(WS_SPLIT);
  return hasRepeats(parts) ? [...new Set(parts)] : parts;
}

/** Whether a name is in `names` twice (class attributes of the DOM have no repeats: normalised by the tree builder). */
function hasRepeats(names: readonly string[]): boolean {
  if (names.length > 16) return new Set(names).size < names.length;
  for (let i = 1; i < names.length; i++) for (let j = 0; j < i; j++) if (names[i] === names[j]) return true;
  return false;
}

/** What the CDOM walk reads of one class attribute. */
export interface ClassFacts {
  /** Indices of CLASS_WORDS in it. */
  readonly words: readonly number[];
  /** It holds one of HIDDEN_CLASSES. */
  readonly hidden: boolean;
  /** It names a comment section. */
  readonly comment: boolean;
  /** Its class names (the CDOM node's class list): one array per distinct attribute, never mutated. */
  readonly list: string[];
}
const NO_CLASS_FACTS: ClassFacts = { words: NO_WORDS, hidden: false, comment: false, list: NO_CLASSES };

/**
 * The facts of a class attribute of the DOM, remembered per distinct attribute (pages repeat them on thousands of
 * elements): one memo lookup per element for all of them. The keys are the tree builder's own strings
 * (ownedKeyMemo), the same object for each repeat; page features compare class lists by identity.
 */
export function classFactsOf(classAttr: string): ClassFacts {
  return classAttr.length === 0 ? NO_CLASS_FACTS : classFactsMemo(classAttr);
}
const classFactsMemo = ownedKeyMemo((cls: string): ClassFacts => {
  const list = classListOf(cls);
  return { words: classWordsOf(cls), hidden: hasHiddenClass(list), comment: namesComment(cls), list };
});

const HEADING_LEVEL: ReadonlyMap<string, number> = new Map([
  ['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6],
]);

/** Where withClassWords merges, before the result is copied out at its exact length. */
const mergedWords: number[] = new Array<number>(2 * CLASS_WORDS.length).fill(0);

/** AncestorContext.classWords `pairs` with the words of `a` and `b` (indices of CLASS_WORDS) set to `depth`. */
function withClassWords(pairs: readonly number[], a: readonly number[], b: readonly number[], depth: number): number[] {
  for (let k = 0; k < pairs.length; k++) mergedWords[k] = pairs[k];
  let n = pairs.length;
  for (let k = 0; k < a.length + b.length; k++) n = setWord(n, k < a.length ? a[k] : b[k - a.length], depth);
  return mergedWords.slice(0, n);
}

/** Sets `word` to `depth` in the first n entries of mergedWords, adding it in its place; returns the new length. */
function setWord(n: number, word: number, depth: number): number {
  let at = n;
  while (at > 0 && mergedWords[at - 2] > word) at -= 2;
  if (at > 0 && mergedWords[at - 2] === word) {
    mergedWords[at - 1] = depth;
    return n;
  }
  for (let k = n - 1; k >= at; k--) mergedWords[k + 2] = mergedWords[k];
  mergedWords[at] = word;
  mergedWords[at + 1] = depth;
  return n + 2;
}

/** How many CLASS_WORDS one of two contexts has and the other has not. */
export function classWordsApart(a: AncestorContext, b: AncestorContext): number {
  const x = a.classWords;
  const y = b.classWords;
  let i = 0;
  let j = 0;
  let apart = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      i += 2;
      j += 2;
    } else if (x[i] < y[j]) {
      i += 2;
      apart++;
    } else {
      j += 2;
      apart++;
    }
  }
  return apart + (x.length - i) / 2 + (y.length - j) / 2;
}

/**
 * The context last made below an element at one raw DOM depth, for a CDOM walk (one per depth). The elements that
 * follow at that depth with the same parent context, tag and class attribute, and no other attribute childContext
 * reads, get the same context instead of a copy: the items of a list, the links in them, the paragraphs of a text.
 */
export class ContextMemo {
  parent: AncestorContext | null = null;
  tag = '';
  classFacts: ClassFacts = NO_CLASS_FACTS;
  depth = -1;
  context: AncestorContext = ROOT_CONTEXT;
}

/** The context below element `el` (raw DOM depth `depth`), given its parent's. */
export function childContext(
  parent: AncestorContext, el: DomElement, tag: string, classFacts: ClassFacts, id: string, depth: number,
  hasAttributes: boolean, memo: ContextMemo | null = null,
): AncestorContext {
  const role = hasAttributes ? attr(el, 'role') : null;
  const style = hasAttributes ? attr(el, 'style') : null;
  const hiddenAttr = hasAttributes ? attr(el, 'hidden') : null;
  const ariaHidden = hasAttributes ? attr(el, 'aria-hidden') : null;
  const itemprop = hasAttributes ? attr(el, 'itemprop') : null;
  const itemtype = hasAttributes ? attr(el, 'itemtype') : null;
  // Only the tag and the class attribute count (an empty id is none).
  const plain = memo !== null && id === '' && role === null && style === null && hiddenAttr === null &&
    ariaHidden === null && itemprop === null && itemtype === null;
  if (plain && memo.parent === parent && memo.tag === tag && memo.classFacts === classFacts && memo.depth === depth) {
    return memo.context;
  }

  let tags = parent.tags;
  let roles = parent.roles;
  let classWords = parent.classWords;
  let hidden = parent.hidden;
  let commentDepth = parent.commentDepth;
  let inLink = parent.inLink;
  let heading = parent.heading;
  let changed = false;

  const ti = ANCESTOR_TAG_INDEX.get(tag);
  if (ti !== undefined && tags[ti] === 0) {
    tags = tags.slice();
    tags[ti] = 1;
    changed = true;
  }
  const h = HEADING_LEVEL.get(tag);
  if (h !== undefined && h !== heading) {
    heading = h;
    changed = true;
  }
  if (tag === 'a' && !inLink) {
    inLink = true;
    changed = true;
  }
  if (role !== null && role.length > 0) {
    for (const r of role.toLowerCase().split(' ')) {
      const ri = ROLE_INDEX.get(r);
      if (ri !== undefined && roles[ri] === 0) {
        if (roles === parent.roles) roles = roles.slice();
        roles[ri] = 1;
        changed = true;
      }
    }
  }
  const cw = classFacts.words;
  const iw = idWordIndices(id);
  if (cw.length > 0 || iw.length > 0) {
    classWords = withClassWords(classWords, cw, iw, depth);
    changed = true;
  }
  if (hasAttributes) {
    if (!hidden) {
      if (
        (style !== null && HIDDEN_STYLE.test(style)) || hiddenAttr !== null || ariaHidden === 'true' ||
        classFacts.hidden
      ) {
        hidden = changed = true;
      }
    }
    let comment = classFacts.comment || idNamesComment(id);
    if (!comment) {
      comment = (role !== null && /\bcomment\b/i.test(role)) ||
        (itemprop !== null && /\bcomment\b/i.test(itemprop)) ||
        (itemtype !== null && /Comment\b/.test(itemtype));
    }
    if (comment) {
      commentDepth = depth;
      changed = true;
    }
  }
  if (!changed) return parent;
  const context: AncestorContext = { tags, roles, classWords, hidden, commentDepth, inLink, heading };
  if (plain) {
    memo.parent = parent;
    memo.tag = tag;
    memo.classFacts = classFacts;
    memo.depth = depth;
    memo.context = context;
  }
  return context;
}
