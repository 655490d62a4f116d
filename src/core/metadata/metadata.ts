// Page metadata: title, author, dates, language, site name, lead image, canonical URL, description.
// One bounded forward walk over the document (metadata-walk.ts; head and body: JSON-LD and microdata often sit in
// the body) collects the candidates; each field then takes the first candidate of its ladder (below), cleaned by
// metadata-fields.ts. JSON-LD: metadata-json-ld.ts; dates: metadata-dates.ts; language: metadata-language.ts.

import type { DomNode } from '../parse/dom.js';
import { PAGE_KINDS, type PageKind, type PageMetadata } from '../../types.js';
import { firstDate } from './dates.js';
import { SiteNames, absolute, clean, firstAuthor, firstOf, labelNotTitle, nonUrl, parseUrl, preferHeading, stripSiteName } from './fields.js';
import { pickJsonLd } from './json-ld.js';
import { detectLanguage, normaliseLanguage } from './language.js';
import { collectCandidates } from './walk.js';

export interface MetadataOptions {
  /** The page's URL: resolves relative image and canonical URLs. */
  url?: string;
  /** Text of the page (e.g. the blocks joined) for language detection when the markup names none. */
  sampleText?: string;
}

/** Reads the metadata of a parsed page. Never throws; absent fields are null. */
export function extractMetadata(document: DomNode, options: MetadataOptions = {}): PageMetadata {
  const c = collectCandidates(document);
  const base = parseUrl(options.url);
  const ld = pickJsonLd(c.jsonLd);
  const m = c.meta;

  const siteName = clean(m.get('og:site_name') ?? ld?.siteName ?? ld?.publisher ?? m.get('application-name') ?? null);
  const parsely = readParselyPage(m.get('parsely-page'));

  // A site name is never the title: a candidate that is one (a logo h1, og:title "Example News") is passed over
  // for the next; but the site's home page is titled by its name.
  const sites = new SiteNames(
    [m.get('og:site_name'), m.get('application-name'), ld?.siteName, ld?.publisher, c.h1Logo ? c.h1 : null],
    base,
  );
  const home = base !== null && HOME_PATH.test(base.pathname);
  const notSite = (v: string | null | undefined) => (v && (home || !sites.isSiteName(v)) ? v : null);
  const h1 = notSite(c.h1);
  const ladder = [
    labelNotTitle(ld?.headline ?? null, c.title, h1) ? null : ld?.headline,
    m.get('dc.title'),
    m.get('dcterms.title'),
    m.get('og:title'),
    m.get('twitter:title'),
    m.get('parsely-title'),
    parsely.title,
    m.get('citation_title'),
    ld?.rank === 2 ? ld.name : null,
    c.title,
  ];
  // ... unless the page names nothing else (a home page titled "The Verge")
  const rawTitle = firstOf(...ladder.map(notSite), h1) ?? firstOf(...ladder);
  const title = preferHeading(rawTitle === null ? null : stripSiteName(rawTitle, sites, h1), h1);

  // The first source whose value is a name after cleaning: a byline element holding only "Jun 2 Written By" (its
  // name in a child further on) gives way to the next source.
  const author = firstAuthor(
    ld?.author,
    nonUrl(m.get('author')),
    nonUrl(m.get('article:author')),
    nonUrl(m.get('parsely-author')),
    nonUrl(parsely.author ?? undefined),
    nonUrl(m.get('sailthru.author')),
    nonUrl(m.get('dc.creator')),
    nonUrl(m.get('citation_author')),
    nonUrl(m.get('byl')),
    c.itempropAuthor,
    c.relAuthor,
    c.byline,
  );

  const kinds = pageKindsOf(c.types, m.get('og:type') ?? null);
  // A date shown as text under a date class is the page's own on an article, but on a page that declares a product
  // or a listing it is a review's or an item's.
  const shownDate = kinds.includes('product') || kinds.includes('listing') ? null : c.dateText;
  const publishedDate = firstDate(
    ld?.datePublished,
    m.get('article:published_time'),
    m.get('og:published_time'),
    m.get('published_time'),
    m.get('datepublished'),
    c.itempropPublished,
    m.get('parsely-pub-date'),
    parsely.pubDate,
    m.get('sailthru.date'),
    m.get('citation_publication_date'),
    m.get('citation_date'),
    m.get('dc.date.issued'),
    m.get('dcterms.created'),
    m.get('dc.date'),
    m.get('date'),
    m.get('pubdate'),
    m.get('publishdate'),
    m.get('publish_date'),
    m.get('publish-date'),
    m.get('publication_date'),
    m.get('article.published'),
    c.timePublished,
    c.time,
    shownDate,
    ld?.dateModified,
  );
  const modifiedDate = firstDate(
    ld?.dateModified,
    m.get('article:modified_time'),
    m.get('og:updated_time'),
    m.get('datemodified'),
    c.itempropModified,
    m.get('dcterms.modified'),
    m.get('last-modified'),
  );

  const language = normaliseLanguage(
    firstOf(c.htmlLang, m.get('content-language'), m.get('og:locale'), ld?.language, m.get('dc.language')),
  ) ?? detectLanguage(options.sampleText ?? c.h1 ?? '');

  const image = absolute(
    firstOf(m.get('og:image:secure_url'), m.get('og:image'), m.get('twitter:image'), m.get('twitter:image:src'), ld?.image, c.imageSrc),
    base,
  );
  const canonicalUrl = absolute(firstOf(c.canonical, m.get('og:url'), ld?.url), base);
  const description = clean(
    firstOf(m.get('description'), m.get('og:description'), m.get('twitter:description'), ld?.description),
  );


  return { title, author, publishedDate, modifiedDate, language, siteName, image, canonicalUrl, description, kinds };
}

const HOME_PATH = /^\/(?:index\.\w+)?$/i;

interface ParselyPage {
  title: string | null;
  author: string | null;
  pubDate: string | null;
}

/** Parse.ly's `<meta name="parsely-page" content='{"title": ..., "author": ..., "pub_date": ...}'>`. */
function readParselyPage(json: string | undefined): ParselyPage {
  const none = { title: null, author: null, pubDate: null };
  if (json === undefined) return none;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return none;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return none;
  const o = v as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' && x.trim() !== '' ? x : null);
  return { title: str(o.title), author: str(o.author), pubDate: str(o.pub_date) };
}

/** schema.org types (lower case) and `og:type` values of each page kind. */
const KIND_TYPES: Record<PageKind, ReadonlySet<string>> = {
  article: new Set([
    'article', 'newsarticle', 'blogposting', 'reportagenewsarticle', 'analysisnewsarticle', 'opinionnewsarticle',
    'reviewnewsarticle', 'backgroundnewsarticle', 'askpublicnewsarticle', 'liveblogposting', 'scholarlyarticle',
    'techarticle', 'report', 'og:article',
  ]),
  product: new Set(['product', 'productgroup', 'productmodel', 'individualproduct', 'og:product', 'og:product.item']),
  discussion: new Set(['discussionforumposting', 'qapage']),
  listing: new Set(['itemlist', 'collectionpage', 'searchresultspage', 'offercatalog']),
};

/** The kinds a page declares, from its schema.org types and its `og:type`. */
function pageKindsOf(types: ReadonlySet<string>, ogType: string | null): PageKind[] {
  const og = ogType === null ? null : `og:${ogType.trim().toLowerCase()}`;
  return PAGE_KINDS.filter((kind) => {
    const names = KIND_TYPES[kind];
    if (og !== null && names.has(og)) return true;
    for (const t of types) if (names.has(t)) return true;
    return false;
  });
}
