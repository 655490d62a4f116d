// The metadata walk: one bounded forward walk over the document that records every candidate value (meta tags,
// JSON-LD, microdata, the first h1, bylines, <time>); metadata.ts picks from them.

import { type DomElement, type DomNode, type DomText, attr, firstChildOf } from '../parse/dom.js';
import { URL_LIKE, WS } from './fields.js';
import { type JsonLdFacts, MAX_TYPES, readJsonLd, schemaTypeName } from './json-ld.js';
import { normaliseDate } from './dates.js';
import { ownedKeyMemo } from '../parse/string-memo.js';

/** Elements visited at most; JSON-LD, `<meta>`, the first `h1` and bylines are almost always well before. */
const MAX_ELEMENTS = 40_000;
/** Characters of an element's text read for bylines, headings and `<time>`. */
const MAX_TEXT_CHARS = 400;
const MAX_JSON_LD_CHARS = 1_000_000;

/** Class words of an element that shows the publication date as text ("p.date", "entry-date", "post_time"). */
const DATE_CLASS = /(?:^|[\s_-])(?:date|dates|dateline|pubdate|published|publish|posted|time|timestamp|post-date|entry-date)(?:$|[\s_-])/i;
/** Characters at most of such an element's text: a date and a few words around it ("Published: January 3, 2024"). */
const MAX_DATE_TEXT = 80;
/** DATE_CLASS per distinct class attribute (the DOM's own strings, as the tree builder keeps them). */
const isDateClass = ownedKeyMemo((cls: string): boolean => DATE_CLASS.test(cls));
/** Date-class elements read at most: the page's own date is near its top; later ones are comments' and items'. */
const MAX_DATE_TRIES = 8;

const BYLINE_CLASS = /(?:^|[\s_-])(?:byline|by-line|author|authors|author-name|writer|creator|posted-by|contributor)(?:$|[\s_-])/i;

export interface Candidates {
  meta: Map<string, string>;
  jsonLd: JsonLdFacts[];
  /** schema.org types the page names in JSON-LD and microdata (`itemtype`), lower case, without the vocabulary URL. */
  types: Set<string>;
  title: string | null;
  h1: string | null;
  /** The h1 chosen so far is only a link to the site's home page (a logo). */
  h1Home: boolean;
  /** The h1 chosen is the site's logo or name: a link home, or marked so by its or its parent's class or id. */
  h1Logo: boolean;
  /** The h1 chosen is marked `itemprop="headline"`. */
  h1Headline: boolean;
  htmlLang: string | null;
  canonical: string | null;
  imageSrc: string | null;
  relAuthor: string | null;
  itempropAuthor: string | null;
  itempropPublished: string | null;
  itempropModified: string | null;
  byline: string | null;
  time: string | null;
  timePublished: string | null;
  /** Text of the first element whose class names a date and whose short text holds a whole date, with the year. */
  dateText: string | null;
  /** Date-class elements read so far for `dateText`. */
  dateTries: number;
}

/** Permalink marks after a heading's text ("Quickstart¶", "Install #"). */
const TRAILING_MARKS = /[\s\u00b6#\u00a7\u{1f517}]+$/u;
const HOME_HREF = /^(?:https?:\/\/[^/]+)?\/?(?:index\.\w+)?$/i;

/** An element whose only content is one link to the site's home page. */
function isHomeLink(el: DomNode): boolean {
  let n: DomNode | null = el.firstChild;
  let link: DomNode | null = null;
  for (; n !== null; n = n.nextSibling) {
    if (n.nodeType === 3) {
      if (/\S/.test((n as unknown as { data: string }).data)) return false;
    } else if (n.nodeType === 1) {
      if (link !== null || (n as DomElement).localName !== 'a') return false;
      link = n;
    }
  }
  const href = link === null ? null : (link as DomElement).getAttribute('href');
  return href !== null && HOME_HREF.test(href.trim());
}

/** An element whose class or id says it is the site's logo or name ("site-title", "topbar__logo__title"). */
function isMarkedLogo(el: DomNode | null): boolean {
  if (el === null || el.nodeType !== 1 || !(el as DomElement).hasAttributes()) return false;
  return LOGO_MARK.test(`${attr(el as DomElement, 'class') ?? ''} ${attr(el as DomElement, 'id') ?? ''}`);
}

/** Every candidate value of the page's metadata, from one walk of at most MAX_ELEMENTS elements. */
export function collectCandidates(document: DomNode): Candidates {
  const propertyKeys = new Set<string>();
  const c: Candidates = {
    meta: new Map(),
    jsonLd: [],
    types: new Set(),
    title: null,
    h1: null,
    h1Home: false,
    h1Logo: false,
    h1Headline: false,
    htmlLang: null,
    canonical: null,
    imageSrc: null,
    relAuthor: null,
    itempropAuthor: null,
    itempropPublished: null,
    itempropModified: null,
    byline: null,
    time: null,
    timePublished: null,
    dateText: null,
    dateTries: 0,
  };
  let visited = 0;
  let node: DomNode | null = firstChildOf(document);
  while (node !== null && visited < MAX_ELEMENTS) {
    if (node.nodeType === 1) {
      visited++;
      if (visit(node as DomElement, c, propertyKeys)) {
        const first = node.firstChild;
        if (first !== null) {
          node = first;
          continue;
        }
      }
    }
    let next: DomNode | null = null;
    for (let n: DomNode | null = node; n !== null; ) {
      next = n.nextSibling;
      if (next !== null) break;
      n = n.parentNode;
      if (n === document) n = null;
    }
    node = next;
  }
  return c;
}

const META_KEY_ATTRIBUTES = ['property', 'name', 'itemprop', 'http-equiv'] as const;
/** Dublin Core keys under one spelling: `dc:title` and `DC.title` -> `dc.title`; `dcterm:` and `dcterms:` -> `dcterms.`. */
const DUBLIN_CORE_KEY = /^(dc|dcterms?)[:.]/;
const LOGO_MARK = /(?:^|[\s_-])(?:logo|navbar-brand|site-?(?:title|name|logo|branding))(?:$|[\s_-])/i;
const PUBLISHED_HINT = /publish|posted|created|pubdate|entry-date/i;
const AUTHOR_PROP = /\b(?:author|creator)\b/;
const REL_AUTHOR = /\bauthor\b/i;

/**
 * Records what the element says; returns true to descend into it. Attributes are read with `attr`.
 */
function visit(el: DomElement, c: Candidates, propertyKeys: Set<string>): boolean {
  const tag = el.localName;
  switch (tag) {
    case 'html': {
      const lang = attr(el, 'lang') ?? attr(el, 'xml:lang');
      if (lang && lang.trim()) c.htmlLang = lang.trim();
      return true;
    }
    case 'meta': {
      const content = attr(el, 'content');
      if (content === null || content.trim() === '') return false;
      const value = content.replace(WS, ' ').trim();
      for (const name of META_KEY_ATTRIBUTES) {
        const key = attr(el, name);
        if (!key) continue;
        for (const word of key.toLowerCase().split(WS)) {
          if (word === '') continue;
          const k = word.replace(DUBLIN_CORE_KEY, (_, p: string) => (p === 'dc' ? 'dc.' : 'dcterms.'));
          if (name === 'itemprop') {
            if (k === 'datepublished' && c.itempropPublished === null) c.itempropPublished = value;
            else if (k === 'datemodified' && c.itempropModified === null) c.itempropModified = value;
            else if (k === 'author' && c.itempropAuthor === null && !URL_LIKE.test(value)) c.itempropAuthor = value;
          }
          // The first value of a key wins, except that a `property` (RDFa, Open Graph's own attribute) replaces a
          // `name` given before it: `<meta name="og:title">` then `<meta property="og:title">`.
          if (!c.meta.has(k) || (name === 'property' && !propertyKeys.has(k))) {
            c.meta.set(k, value);
            if (name === 'property') propertyKeys.add(k);
          }
        }
      }
      return false;
    }
    case 'title':
      if (c.title === null) {
        const t = textOf(el);
        if (t) c.title = t;
      }
      return false;
    case 'link': {
      const rel = (attr(el, 'rel') ?? '').toLowerCase();
      const href = attr(el, 'href');
      if (!href) return false;
      if (rel.split(WS).includes('canonical') && c.canonical === null) c.canonical = href.trim();
      else if (rel.split(WS).includes('image_src') && c.imageSrc === null) c.imageSrc = href.trim();
      return false;
    }
    case 'script': {
      const type = (attr(el, 'type') ?? '').toLowerCase();
      if (type.includes('ld+json')) readJsonLd(rawText(el), c.jsonLd, c.types);
      return false;
    }
    case 'style':
    case 'noscript':
    case 'template':
    case 'svg':
    case 'iframe':
      return false;
    default:
      break;
  }
  if (tag === 'h1' && !c.h1Headline) {
    // The page's headline h1: one marked itemprop="headline" wins; an h1 that is only a link home (a site logo:
    // `<h1><a href="/">V8</a></h1>`) is passed over for a later one.
    const t = textOf(el)?.replace(TRAILING_MARKS, '') || null;
    const headline = el.hasAttributes() && attr(el, 'itemprop') === 'headline';
    if (t && (headline || c.h1 === null || c.h1Home)) {
      c.h1 = t;
      c.h1Home = !headline && isHomeLink(el);
      c.h1Headline = headline;
      c.h1Logo = c.h1Home || (!headline && (isMarkedLogo(el) || isMarkedLogo(el.parentNode)));
    }
  }
  const hasAttributes = el.hasAttributes();
  if (tag === 'time') {
    const dt = (hasAttributes ? attr(el, 'datetime') : null) ?? textOf(el);
    if (dt && hasAttributes) {
      if (c.time === null) c.time = dt;
      const hint = `${attr(el, 'itemprop') ?? ''} ${attr(el, 'class') ?? ''} ${attr(el, 'pubdate') !== null ? 'published' : ''}`;
      if (c.timePublished === null && PUBLISHED_HINT.test(hint)) c.timePublished = dt;
    } else if (dt && c.time === null) {
      c.time = dt;
    }
  }
  if (!hasAttributes) return true;
  const itemtype = attr(el, 'itemtype');
  if (itemtype) {
    for (const t of itemtype.split(WS)) {
      const name = schemaTypeName(t);
      if (name !== '' && c.types.size < MAX_TYPES) c.types.add(name);
    }
  }
  const itemprop = attr(el, 'itemprop');
  if (itemprop) {
    const props = itemprop.toLowerCase();
    if (props.includes('datepublished') && c.itempropPublished === null) {
      c.itempropPublished = attr(el, 'datetime') ?? attr(el, 'content') ?? textOf(el);
    } else if (props.includes('datemodified') && c.itempropModified === null) {
      c.itempropModified = attr(el, 'datetime') ?? attr(el, 'content') ?? textOf(el);
    } else if (AUTHOR_PROP.test(props) && c.itempropAuthor === null) {
      const t = attr(el, 'content') ?? textOf(el);
      if (t && !URL_LIKE.test(t)) c.itempropAuthor = t;
    }
  }
  if (tag === 'a' && c.relAuthor === null) {
    const rel = attr(el, 'rel');
    if (rel && REL_AUTHOR.test(rel)) {
      const t = textOf(el);
      if (t) c.relAuthor = t;
    }
  }
  // Bylines and dates shown as text, from the element's class (read once for both).
  const wantDate = c.dateText === null && c.dateTries < MAX_DATE_TRIES;
  if ((wantDate || c.byline === null) && tag !== 'body' && tag !== 'html' && tag !== 'meta') {
    const cls = attr(el, 'class');
    if (cls) {
      if (wantDate && isDateClass(cls)) {
        c.dateTries++;
        const t = textOf(el);
        if (t.length <= MAX_DATE_TEXT && normaliseDate(t) !== null) c.dateText = t;
      }
      if (c.byline === null && BYLINE_CLASS.test(cls)) {
        const t = textOf(el);
        if (t && t.length <= 80 && t.length >= 3) c.byline = t;
      }
    }
  }
  return true;
}

/** Whitespace-normalised text of an element, at most MAX_TEXT_CHARS (script/style skipped). */
function textOf(el: DomNode): string {
  let s = '';
  let node: DomNode | null = el.firstChild;
  while (node !== null && s.length < MAX_TEXT_CHARS) {
    let descend = false;
    if (node.nodeType === 3) s += (node as DomText).data;
    else if (node.nodeType === 1) {
      const t = (node as DomElement).localName;
      descend = t !== 'script' && t !== 'style' && t !== 'noscript' && t !== 'template';
      if (t === 'br' || t === 'p' || t === 'div' || t === 'li') s += ' ';
    }
    if (descend && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node.nextSibling === null) {
      node = node.parentNode;
      if (node === el) node = null;
    }
    if (node !== null) node = node.nextSibling;
  }
  return s.replace(WS, ' ').trim();
}

function rawText(el: DomNode): string {
  let s = '';
  for (let n = el.firstChild; n !== null && s.length < MAX_JSON_LD_CHARS; n = n.nextSibling) {
    if (n.nodeType === 3) s += (n as DomText).data;
  }
  return s;
}
