// JSON-LD blocks of a page: the facts of each article- or page-like entity, and the best entity with its gaps
// filled from the others.

import { decodeCharacterReferences } from '../parse/entities.js';
import { URL_LIKE, WS } from './fields.js';

const ARTICLE_TYPES: ReadonlySet<string> = new Set([
  'article', 'newsarticle', 'blogposting', 'reportagenewsarticle', 'analysisnewsarticle', 'opinionnewsarticle',
  'reviewnewsarticle', 'backgroundnewsarticle', 'scholarlyarticle', 'techarticle', 'report', 'socialmediaposting',
  'liveblogposting', 'discussionforumposting', 'qapage', 'howto', 'recipe', 'review', 'medicalwebpage', 'posting',
  'creativework', 'webpage', 'itempage', 'aboutpage', 'faqpage', 'collectionpage', 'product', 'course', 'event',
  'videoobject', 'podcastepisode',
]);
/** JSON-LD types that describe the page itself more than a part of it (ranked below articles). */
const PAGE_TYPES: ReadonlySet<string> = new Set([
  'webpage', 'itempage', 'aboutpage', 'faqpage', 'collectionpage', 'qapage', 'medicalwebpage',
]);

/** Distinct types recorded per page (JSON-LD and microdata together). */
export const MAX_TYPES = 64;

export interface JsonLdFacts {
  headline: string | null;
  name: string | null;
  author: string | null;
  datePublished: string | null;
  dateModified: string | null;
  image: string | null;
  publisher: string | null;
  siteName: string | null;
  description: string | null;
  language: string | null;
  url: string | null;
  /** 2 article-like, 1 page-like, 0 other. */
  rank: number;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Reads one JSON-LD block: the facts of its article- and page-like entities go to `out`, and every schema.org type
 * it names (lower case, without the vocabulary's URL) to `types`.
 */
export function readJsonLd(text: string, out: JsonLdFacts[], types: Set<string>): void {
  let data: Json;
  try {
    data = JSON.parse(text.trim().replace(/^<!--|-->$/g, '')) as Json;
  } catch {
    return;
  }
  const todo: Json[] = [data];
  let budget = 500;
  while (todo.length > 0 && budget-- > 0) {
    const item = todo.pop();
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) todo.push(item[i]);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item['@graph'])) todo.push(item['@graph']);
    const itemTypes = typesOf(item['@type']);
    if (itemTypes.length === 0) continue;
    for (const t of itemTypes) if (types.size < MAX_TYPES) types.add(t);
    const isWebsite = itemTypes.includes('website');
    const rank = itemTypes.some((t) => ARTICLE_TYPES.has(t) && !PAGE_TYPES.has(t))
      ? 2
      : itemTypes.some((t) => PAGE_TYPES.has(t))
        ? 1
        : 0;
    if (isWebsite) {
      out.push({ ...emptyFacts(), siteName: str(item.name), rank: -1 });
      continue;
    }
    if (rank === 0) continue;
    const publisher = item.publisher;
    out.push({
      headline: str(item.headline),
      name: str(item.name),
      author: authorsOf(item.author ?? item.creator),
      datePublished: str(item.datePublished) ?? str(item.dateCreated) ?? str(item.uploadDate),
      dateModified: str(item.dateModified),
      image: imageOf(item.image ?? item.thumbnailUrl),
      publisher: publisher && typeof publisher === 'object' && !Array.isArray(publisher) ? str(publisher.name) : null,
      siteName: null,
      description: str(item.description),
      language: str(item.inLanguage),
      url: str(item.url) ?? (typeof item.mainEntityOfPage === 'string' ? item.mainEntityOfPage : null),
      rank,
    });
    // an Article nested as mainEntity of a WebPage
    if (item.mainEntity && typeof item.mainEntity === 'object') todo.push(item.mainEntity);
  }
}

function emptyFacts(): JsonLdFacts {
  return {
    headline: null, name: null, author: null, datePublished: null, dateModified: null, image: null,
    publisher: null, siteName: null, description: null, language: null, url: null, rank: 0,
  };
}

/** The best JSON-LD entity (article-like before page-like), with gaps filled from the others. */
export function pickJsonLd(all: JsonLdFacts[]): JsonLdFacts | null {
  if (all.length === 0) return null;
  const ranked = all.slice().sort((a, b) => b.rank - a.rank);
  const best: JsonLdFacts = { ...ranked[0] };
  for (const other of ranked.slice(1)) {
    for (const key of Object.keys(best) as Array<keyof JsonLdFacts>) {
      if (key === 'rank') continue;
      if (best[key] === null && other[key] !== null) {
        // a page-level entity's name is not the article's headline
        if ((key === 'headline' || key === 'name') && other.rank < 2) continue;
        (best as unknown as Record<string, unknown>)[key] = other[key];
      }
    }
  }
  return best;
}

/** A schema.org type as named in JSON-LD or microdata ("https://schema.org/NewsArticle") -> "newsarticle". */
export function schemaTypeName(t: string): string {
  return t.toLowerCase().replace(/^.*[/#:]/, '');
}

function typesOf(t: Json | undefined): string[] {
  if (typeof t === 'string') return [schemaTypeName(t)];
  if (Array.isArray(t)) return t.flatMap((x) => typesOf(x));
  return [];
}

function str(v: Json | undefined): string | null {
  if (typeof v === 'string') {
    const s = decodeCharacterReferences(v).replace(WS, ' ').trim();
    return s === '' ? null : s;
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      const s = str(x);
      if (s !== null) return s;
    }
  }
  return null;
}

function authorsOf(v: Json | undefined): string | null {
  const names: string[] = [];
  const add = (x: Json | undefined) => {
    if (typeof x === 'string') {
      const s = str(x);
      if (s !== null && !URL_LIKE.test(s)) names.push(s);
    } else if (Array.isArray(x)) x.forEach(add);
    else if (x !== null && typeof x === 'object') {
      const n = str(x.name);
      if (n !== null) names.push(n);
    }
  };
  add(v);
  const unique = [...new Set(names)];
  return unique.length > 0 ? unique.join(', ') : null;
}

function imageOf(v: Json | undefined): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const s = imageOf(x);
      if (s !== null) return s;
    }
    return null;
  }
  if (v !== null && typeof v === 'object') return str(v.url) ?? str(v.contentUrl);
  return null;
}
