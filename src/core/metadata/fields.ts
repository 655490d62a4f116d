// Cleaning of metadata field values: whitespace and character references, bylines to author names, titles
// without the site name, absolute http(s) URLs.

import { decodeCharacterReferences } from '../parse/entities.js';

export const WS = /\s+/g;
export const URL_LIKE = /^(?:https?:)?\/\/|^www\.|\.(?:com|org|net)\//i;
const BY_PREFIX = /^\s*(?:by|von|par|por|di|door|av|af)\s*[:\s]\s*/i;
const AUTHOR_LABEL = /^\s*(?:written|posted|published|reviewed|authored|words|story|text)\s+by\s*:?\s*/i;
const AUTHOR_NOISE = /\b(?:updated|published|posted on|minute read|min read|follow|share)\b.*$/i;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** A date inside a byline: numeric, or with an English month name ("Mar 9, 2012", "9 March 2012", "Jun 2"). */
const DATE_IN_TEXT = new RegExp(
  `\\d{1,2}/\\d{1,2}/\\d{2,4}|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b(?:,?\\s+\\d{4}\\b)?|\\b\\d{1,2}\\s+${MONTH}(?:,?\\s+\\d{4})?\\b`,
  'i',
);
const SEPARATORS = /^[\s,|·•-]+/;
const LEADING_WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+/i;
const LEADING_TIME = /^[\s,]*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?/i;
/** A label left at the end of a byline whose name is in another element ("Jun 2 Written By"). */
const TRAILING_LABEL = /\s*\b(?:(?:written|posted|published|reviewed|authored)\s+)?by\s*:?$/i;
const TITLE_SEPARATORS = /\s+(?:[|\-–—:·•»~/\\]|::)\s+/;

export function firstOf(...values: Array<string | null | undefined>): string | null {
  for (const v of values) if (v !== null && v !== undefined && v.trim() !== '') return v;
  return null;
}

export function clean(v: string | null): string | null {
  if (v === null) return null;
  const s = decodeCharacterReferences(v).replace(WS, ' ').trim();
  return s === '' ? null : s;
}

export function nonUrl(v: string | undefined): string | null {
  return v === undefined || URL_LIKE.test(v) ? null : v;
}

const AUTHOR_JUNK = /\{\{|\}\}|^\w+(?:\.\w+){2,}$|^(?:view|read|more|see|all)\b.*\bposts?\b|^(?:admin|administrator|unknown|null|undefined)$|\bsays:$/i;
const LAST_COMMA_FIRST = /^([\p{L}'-]+),\s*([\p{L}'.-]+(?:\s[\p{L}'.-]+)?)$/u;

export function cleanAuthor(v: string | null): string | null {
  let s = clean(v);
  if (s === null) return null;
  if (AUTHOR_JUNK.test(s)) return null;
  // "Roy, Aniruddha" (citation style) -> "Aniruddha Roy"
  const lf = LAST_COMMA_FIRST.exec(s);
  if (lf) s = `${lf[2]} ${lf[1]}`;
  // a date before the name goes ("Jun 2 Written By Polly Barks"), a date after it ends it ("B. Diddy Mar 9, 2012")
  const lead = DATE_IN_TEXT.exec(s.replace(LEADING_WEEKDAY, ''));
  if (lead && lead.index === 0) {
    s = s.replace(LEADING_WEEKDAY, '').slice(lead[0].length).replace(SEPARATORS, '').replace(LEADING_TIME, '').replace(SEPARATORS, '');
  }
  s = s.replace(AUTHOR_LABEL, '').replace(BY_PREFIX, '').replace(AUTHOR_NOISE, '');
  const date = DATE_IN_TEXT.exec(s);
  if (date && date.index > 0) s = s.slice(0, date.index);
  s = s.replace(/[\s,|·•-]+$/, '').replace(TRAILING_LABEL, '').trim();
  if (s.length < 2 || s.length > 120) return null;
  return s;
}

/** The first of `values` that cleanAuthor keeps, cleaned; null when none is a name. */
export function firstAuthor(...values: Array<string | null | undefined>): string | null {
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const name = cleanAuthor(v);
    if (name !== null) return name;
  }
  return null;
}

/** Token F1 between the meta title and the first `h1` from which the `h1` wins (0.3 best on the train split). */
const HEADING_AGREEMENT = 0.3;
const MAX_HEADING_WORDS = 40;

/**
 * The visible headline wins when it tells the same story as the meta title: meta titles are often rewritten for
 * search engines and social cards, and `h1` is what readers see. (Train split: 75.1% -> 79.6% title accuracy.)
 */
export function preferHeading(title: string | null, h1: string | null): string | null {
  if (h1 === null || h1.split(' ').length > MAX_HEADING_WORDS) return title;
  if (title === null) return h1;
  return tokenF1(title, h1) >= HEADING_AGREEMENT ? h1 : title;
}

const TOKEN = /[\p{L}\p{N}]+/gu;
/**
 * A JSON-LD headline that is a label, not the page's title: it does not agree with the page's `h1`, while the
 * `<title>` does (Wikipedia's "Wikimedia list article" beside "List of Nobel laureates").
 */
export function labelNotTitle(headline: string | null, title: string | null, h1: string | null): boolean {
  if (headline === null || title === null || h1 === null) return false;
  return tokenF1(headline, h1) < HEADING_AGREEMENT && tokenF1(title, h1) >= HEADING_AGREEMENT;
}

function tokenF1(a: string, b: string): number {
  const ta = a.toLowerCase().match(TOKEN) ?? [];
  const tb = b.toLowerCase().match(TOKEN) ?? [];
  if (ta.length === 0 || tb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of tb) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  return (2 * common) / (ta.length + tb.length);
}

function normKey(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Words at most in a site name: a longer "site name" is a page's title copied into og:site_name. */
const MAX_SITE_NAME_WORDS = 8;

/**
 * The names a page gives its site (og:site_name, application-name, JSON-LD's WebSite and publisher, a logo h1) and
 * its host's name ("example" in www.example.com). A whole title candidate is a site name when it is one of them,
 * give or take one word ("Archive of Our Own beta", "The Verge"); a part of a title ("Headline | Site") when one
 * holds the other.
 */
export class SiteNames {
  private readonly keys: string[] = [];
  private readonly words: string[][] = [];

  constructor(names: ReadonlyArray<string | null | undefined>, base: URL | null) {
    for (const n of names) this.add(n);
    if (base) this.add(base.hostname.replace(/^www\./, '').replace(/\.[a-z.]+$/i, ''));
  }

  add(name: string | null | undefined): void {
    const k = name ? normKey(name) : '';
    if (k === '' || this.keys.includes(k)) return;
    const words = name!.toLowerCase().match(TOKEN) ?? [];
    if (words.length > MAX_SITE_NAME_WORDS) return;
    this.keys.push(k);
    this.words.push(words);
  }

  /** `text` is a site name, give or take one word. */
  isSiteName(text: string): boolean {
    const k = normKey(text);
    if (k === '') return false;
    const words = text.toLowerCase().match(TOKEN) ?? [];
    for (let i = 0; i < this.keys.length; i++) {
      if (k === this.keys[i]) return true;
      const site = this.words[i];
      const [short, long] = words.length < site.length ? [words, site] : [site, words];
      if (long.length - short.length <= 1 && short.length > 0 && containsRun(long, short)) return true;
    }
    return false;
  }

  /** `part` of a title holds a site name or is held by one. */
  isSitePart(part: string): boolean {
    const k = normKey(part);
    return k !== '' && this.keys.some((site) => k.includes(site) || site.includes(k));
  }
}

/** `run` occurs in `words` as consecutive words. */
function containsRun(words: string[], run: string[]): boolean {
  outer: for (let i = 0; i + run.length <= words.length; i++) {
    for (let j = 0; j < run.length; j++) if (words[i + j] !== run[j]) continue outer;
    return true;
  }
  return false;
}

/** Separator marks around a whole title (":: PIXNET ::", "Headline |"). */
const EDGE_SEPARATORS = /^(?:\s*(?:[|\-–—:·•»~/\\_]|::)+\s+)+|(?:\s+(?:[|\-–—:·•»~/\\_]|::)+\s*)+$/g;
/** A bracketed last part: "Weekly Edition [LWN.net]", "見出し【サイト】". */
const BRACKETED_END = /^(.*\S)\s*(?:\[([^\[\]]+)\]|【([^【】]+)】)$/u;
/** Words at most in a last part that is taken for the site's or author's name without confirmation. */
const MAX_GUESSED_SITE_WORDS = 3;
/** Words at least in what is left of the title then. */
const MIN_GUESSED_HEADLINE_WORDS = 4;

/**
 * Removes a site-name part from a title: "Headline | Site", "Site - Headline", "Headline [Site]". A part is the
 * site name when `sites` says so; failing that, when the first `h1` equals one part, that part; failing that,
 * a short last part after a long headline ("Lorem ipsum dolor sit amet – My website"); else the title stays whole.
 */
export function stripSiteName(title: string, sites: SiteNames, h1: string | null): string {
  const t = (clean(title) ?? title).replace(EDGE_SEPARATORS, '');
  const bracketed = BRACKETED_END.exec(t);
  if (bracketed !== null && sites.isSitePart(bracketed[2] ?? bracketed[3])) return stripSiteName(bracketed[1], sites, h1);
  const parts = t.split(TITLE_SEPARATORS);
  if (parts.length < 2) return t;
  // drop site-name parts from the end, then from the start
  let start = 0;
  let end = parts.length;
  while (end - start > 1 && sites.isSitePart(parts[end - 1])) end--;
  while (end - start > 1 && sites.isSitePart(parts[start])) start++;
  if (start > 0 || end < parts.length) return rejoin(t, parts, start, end);
  if (h1) {
    const k = normKey(h1);
    for (let i = 0; i < parts.length; i++) if (normKey(parts[i]) === k) return parts[i].trim();
  }
  const last = parts[parts.length - 1];
  if (wordCount(last) <= MAX_GUESSED_SITE_WORDS && wordCount(rejoin(t, parts, 0, parts.length - 1)) >= MIN_GUESSED_HEADLINE_WORDS) {
    return rejoin(t, parts, 0, parts.length - 1);
  }
  return t;
}

function wordCount(s: string): number {
  return (s.match(TOKEN) ?? []).length;
}

/** The original title text from part `start` to part `end` (separators inside kept as they were). */
function rejoin(title: string, parts: string[], start: number, end: number): string {
  if (end - start === 1) return parts[start].trim();
  let from = 0;
  for (let i = 0; i < start; i++) from = title.indexOf(parts[i + 1], from + parts[i].length);
  let to = title.length;
  let pos = 0;
  for (let i = 0; i < end; i++) pos = title.indexOf(parts[i], pos) + parts[i].length;
  to = pos;
  return title.slice(from, to).trim();
}

export function parseUrl(url: string | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** `v` resolved against `base` when it is an absolute http(s) URL, else null. */
export function absolute(v: string | null, base: URL | string | null): string | null {
  if (v === null) return null;
  const s = v.trim();
  try {
    const u = base ? new URL(s, base) : new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}
