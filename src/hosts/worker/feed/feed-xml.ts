// Feeds as XML: recognise RSS 2.0, RSS 1.0 (RDF) and Atom, find each item and its link, and splice the clean
// articles into the original text. The only file that imports fast-xml-parser.
//
// Why splice instead of parse-and-rebuild: a feed carries much that a parse/build round trip loses or changes
// (comments, CDATA versus escaped text, entity spellings, attribute quoting, namespace prefixes and where they
// are declared, whitespace, unknown extensions). Readers compare guids and sometimes hashes of items, so
// pith changes only what it adds: the output is the original text with one element inserted (or replaced) per
// filled item, the content namespace declared on the root when it was missing, and the XML declaration's
// encoding set to UTF-8 (pith answers in UTF-8 whatever the feed came in). Everything else is byte for byte
// the feed as received.
//
// Roles: fast-xml-parser's validator decides whether the text is well-formed XML (else 422 invalid_feed); the
// scanner in xml-scan.ts finds element offsets in the original text; fast-xml-parser then parses each item's
// own text to read its link with entities and CDATA decoded. Items are parsed without the document's DOCTYPE,
// so a feed cannot make pith expand entities (no "billion laughs").
//
// What goes in:
// - RSS 2.0 and RSS 1.0: <content:encoded> holding the article as HTML in a CDATA section, as the last child
//   of the item; <description> is kept as it was. An existing content:encoded is replaced (the reader asked
//   pith for the clean article).
// - Atom: <content type="html"> with the article; <summary> is kept. An existing <content> is replaced, except
//   one with a src attribute (out-of-line content such as media): that entry is left as it was.
// Relative links are resolved against the URL the feed came from (xml:base is not read).

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PithError } from '../../../errors.js';
import { looksLikeHtml } from '../../../io/fetch.js';
import { isHtmlMediaType } from '../../../io/media-type.js';
import { absolute } from '../../../core/metadata/fields.js';
import { attributesOf, scanElements, XmlScanError, type XmlElement } from './xml-scan.js';

export type FeedKind = 'rss' | 'rdf' | 'atom';

/** Content type of the answer for each kind of feed. */
export const FEED_CONTENT_TYPE: Readonly<Record<FeedKind, string>> = Object.freeze({
  rss: 'application/rss+xml; charset=utf-8',
  rdf: 'application/rdf+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
});

export const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/';
const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RSS1_NS = 'http://purl.org/rss/1.0/';

export interface FeedItem {
  /** The item (RSS/RDF) or entry (Atom) element. */
  element: XmlElement;
  /** Absolute http(s) URL of the item's article, or null when it has none pith can use. */
  link: string | null;
  /** Whether pith may put an article into this item (false e.g. for Atom content with src). */
  fillable: boolean;
  /** The existing content element that an article replaces, or null (the article is appended). */
  replaces: XmlElement | null;
  /** Last child element, after which an appended article goes (null for an item without children). */
  lastChild: XmlElement | null;
  /** Qualified name of the element that carries the article ("content:encoded", "content", "atom:content"). */
  contentName: string;
  /** Title and description (Atom: summary, else content) joined by a line break, for dedupe=1; '' when not read. */
  teaser: string;
}

export interface FeedDocument {
  kind: FeedKind;
  /** The feed as received (decoded, BOM removed). */
  text: string;
  /** Items in document order. */
  items: FeedItem[];
  root: XmlElement;
  /** A namespace declaration to add to the root start tag (RSS/RDF without a content namespace), or ''. */
  rootDeclaration: string;
}

// Parses an item's own text. Values stay strings; "link" is always an array (Atom entries have several).
const itemParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true, // numeric character references (&#38;) too, and the HTML names feeds use without a DTD
  isArray: (name) => name === 'link' || name.endsWith(':link'),
});

const XML_DECLARATION = /^<\?xml\s[^?]*\?>/;
const DECLARED_ENCODING = /(\bencoding\s*=\s*)(["'])[^"']*\2/;
const HTTP_URL = /^https?:\/\//i;
// Characters XML 1.0 forbids; removed from articles before they go into the feed.
const XML_INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function prefixOf(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(':');
  return colon < 0 ? '' : qualifiedName.slice(0, colon);
}

function localNameOf(qualifiedName: string): string {
  const colon = qualifiedName.indexOf(':');
  return colon < 0 ? qualifiedName : qualifiedName.slice(colon + 1);
}

/** Namespace declarations (prefix -> URI; '' for the default namespace) of a start tag. */
function namespacesOf(text: string, element: XmlElement): Map<string, string> {
  const declared = new Map<string, string>();
  for (const [name, value] of attributesOf(text.slice(element.start, element.startTagEnd))) {
    if (name === 'xmlns') declared.set('', value);
    else if (name.startsWith('xmlns:')) declared.set(name.slice(6), value);
  }
  return declared;
}

function notAFeed(what: string): PithError {
  return new PithError('not_a_feed', `${what}, not an RSS, RSS 1.0 (RDF) or Atom feed: give the URL of the feed itself`);
}

/** First non-empty string of a parsed value (a string, {#text}, or an array of them). */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = textOf(v);
      if (t !== null) return t;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') return textOf((value as Record<string, unknown>)['#text']);
  return null;
}

/** The article link of an RSS 2.0 or RSS 1.0 item: <link>, else a permalink guid, else rdf:about. */
function rssLink(item: Record<string, unknown>, baseUrl: string): string | null {
  const link = absolute(textOf(item.link), baseUrl);
  if (link !== null) return link;
  const guid = item.guid;
  const guidText = textOf(guid);
  const permaLink = guid !== null && typeof guid === 'object' ? (guid as Record<string, unknown>)['@_isPermaLink'] : undefined;
  if (guidText !== null && permaLink !== 'false' && HTTP_URL.test(guidText)) return absolute(guidText, baseUrl);
  const about = item['@_rdf:about'];
  return typeof about === 'string' && HTTP_URL.test(about.trim()) ? absolute(about.trim(), baseUrl) : null;
}

/** The article link of an Atom entry: the alternate link, preferring an HTML one. */
function atomLink(entry: Record<string, unknown>, prefix: string, baseUrl: string): string | null {
  const links = entry[`${prefix}link`];
  if (!Array.isArray(links)) return null;
  let best: string | null = null;
  for (const link of links) {
    if (link === null || typeof link !== 'object') continue;
    const attrs = link as Record<string, unknown>;
    const rel = typeof attrs['@_rel'] === 'string' ? (attrs['@_rel'] as string).trim() : 'alternate';
    const href = typeof attrs['@_href'] === 'string' ? (attrs['@_href'] as string) : null;
    if (rel !== 'alternate' || href === null) continue;
    const type = typeof attrs['@_type'] === 'string' ? (attrs['@_type'] as string).toLowerCase() : '';
    if (type === '' || isHtmlMediaType(type)) return absolute(href, baseUrl);
    best ??= absolute(href, baseUrl);
  }
  return best;
}

/** Indexes of the children of element `parentIndex` in a scan result (its descendants follow it). */
function childIndexes(elements: readonly XmlElement[], parentIndex: number): number[] {
  const out: number[] = [];
  const depth = elements[parentIndex].depth;
  for (let i = parentIndex + 1; i < elements.length && elements[i].depth > depth; i++) {
    if (elements[i].parent === parentIndex) out.push(i);
  }
  return out;
}

/** A prefix for the content namespace: the declared one, else "content" (or a free variant) to be declared. */
function contentPrefix(declared: ReadonlyMap<string, string>): { prefix: string; declare: boolean } {
  for (const [prefix, uri] of declared) if (uri === CONTENT_NS && prefix !== '') return { prefix, declare: false };
  let prefix = 'content';
  for (let n = 2; declared.has(prefix); n++) prefix = `content${n}`;
  return { prefix, declare: true };
}

/** Title and description (RSS, RDF) or summary (Atom; its content when it has none) of a parsed item. */
function teaserOf(fields: Record<string, unknown>, kind: FeedKind, prefix: string): string {
  const title = textOf(fields[`${prefix}title`]);
  const description = kind === 'atom' ? (textOf(fields[`${prefix}summary`]) ?? textOf(fields[`${prefix}content`])) : textOf(fields.description);
  return [title, description].filter((t) => t !== null).join('\n');
}

/**
 * Reads a decoded feed. Throws PithError 'not_a_feed' for anything that is not RSS, RDF or Atom (HTML pages,
 * JSON, plain text, other XML) and 'invalid_feed' for XML that is not well-formed. Links are resolved
 * against `baseUrl` (the URL the feed came from); only the first `linkItems` items get their link read.
 * `teasers` reads every item's title and description too (FeedItem.teaser, for dedupe=1).
 */
export function readFeed(decoded: string, baseUrl: string, linkItems: number, teasers = false): FeedDocument {
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const head = text.trimStart();
  if (head === '') throw notAFeed('the response is empty');
  if (!head.startsWith('<')) {
    throw notAFeed(head.startsWith('{') || head.startsWith('[') ? 'the response is JSON (JSON Feed is not supported)' : 'the response is not XML');
  }
  if (looksLikeHtml(head)) throw notAFeed('the response is an HTML page');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new PithError('invalid_feed', `the feed is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`, {
      line: valid.err.line,
      column: valid.err.col,
    });
  }
  let elements: XmlElement[];
  try {
    elements = scanElements(text, 3);
  } catch (err) {
    if (err instanceof XmlScanError) throw new PithError('invalid_feed', `the feed is not well-formed XML: ${err.message}`);
    throw err;
  }
  const root = elements[0];
  const rootNs = namespacesOf(text, root);
  const rootLocal = localNameOf(root.name);
  let kind: FeedKind;
  let itemParent: number;
  let itemLocal: string;
  if (rootLocal === 'rss') {
    kind = 'rss';
    itemParent = childIndexes(elements, 0).find((i) => elements[i].name === 'channel') ?? -1;
    if (itemParent < 0) throw notAFeed('the document is an <rss> element without a <channel>');
    itemLocal = 'item';
  } else if (rootLocal === 'RDF') {
    kind = 'rdf';
    const hasChannel = childIndexes(elements, 0).some((i) => localNameOf(elements[i].name) === 'channel');
    if (!hasChannel) throw notAFeed('the document is RDF without an RSS 1.0 <channel>');
    itemParent = 0;
    itemLocal = 'item';
  } else if (rootLocal === 'feed' && (rootNs.get(prefixOf(root.name)) ?? ATOM_NS) === ATOM_NS) {
    kind = 'atom';
    itemParent = 0;
    itemLocal = 'entry';
  } else {
    throw notAFeed(`the document is XML with root element <${root.name.slice(0, 60)}>`);
  }

  // Namespaces in scope for items: the root's, then the channel's (RSS 2.0 declares them on either).
  const declared = new Map(rootNs);
  if (itemParent !== 0) for (const [p, uri] of namespacesOf(text, elements[itemParent])) declared.set(p, uri);
  const rootPrefix = prefixOf(root.name);
  const itemPrefix = kind === 'atom' ? (rootPrefix === '' ? '' : `${rootPrefix}:`) : '';
  const content = kind === 'atom' ? { prefix: '', declare: false } : contentPrefix(declared);
  const contentName = kind === 'atom' ? `${itemPrefix}content` : `${content.prefix}:encoded`;

  const items: FeedItem[] = [];
  for (const index of childIndexes(elements, itemParent)) {
    const element = elements[index];
    if (localNameOf(element.name) !== itemLocal) continue;
    // RSS 1.0 items are in the RSS 1.0 namespace (usually the default one); skip foreign "item"s.
    if (kind === 'rdf' && (declared.get(prefixOf(element.name)) ?? RSS1_NS) !== RSS1_NS) continue;
    if (kind === 'atom' && prefixOf(element.name) !== prefixOf(root.name)) continue;
    const children = childIndexes(elements, index).map((i) => elements[i]);
    const lastChild = children.length > 0 ? children[children.length - 1] : null;
    const item: FeedItem = { element, link: null, fillable: !element.selfClosing, replaces: null, lastChild, contentName, teaser: '' };
    if (kind === 'atom') {
      item.replaces = children.find((c) => c.name === contentName) ?? null;
      if (item.replaces !== null && attributesOf(text.slice(item.replaces.start, item.replaces.startTagEnd)).has('src')) item.fillable = false;
    } else {
      const itemNs = namespacesOf(text, element);
      item.replaces =
        children.find((c) => localNameOf(c.name) === 'encoded' && (itemNs.get(prefixOf(c.name)) ?? declared.get(prefixOf(c.name))) === CONTENT_NS) ?? null;
    }
    const readLink = items.length < linkItems && item.fillable;
    if (readLink || (teasers && !element.selfClosing)) {
      let parsed: Record<string, unknown>;
      try {
        parsed = itemParser.parse(text.slice(element.start, element.end)) as Record<string, unknown>;
      } catch (err) {
        // Well-formed (checked above) but past the parser's own limits, e.g. its depth of 100 nested elements.
        throw new PithError('invalid_feed', `item ${items.length + 1} of the feed cannot be read: ${err instanceof Error ? err.message : String(err)}`);
      }
      const body = parsed[element.name];
      const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
      if (readLink) item.link = kind === 'atom' ? atomLink(fields, itemPrefix, baseUrl) : rssLink(fields, baseUrl);
      if (teasers) item.teaser = teaserOf(fields, kind, itemPrefix);
    }
    items.push(item);
  }
  const needsDeclaration = kind !== 'atom' && content.declare;
  return { kind, text, items, root, rootDeclaration: needsDeclaration ? ` xmlns:${content.prefix}="${CONTENT_NS}"` : '' };
}

/** The article as CDATA text (a "]]>" inside is split across two sections; characters XML forbids are dropped). */
function cdata(html: string): string {
  return `<![CDATA[${html.replace(XML_INVALID_CHARS, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** Whitespace before `offset` on its line, when only whitespace precedes it there; else null. */
function indentBefore(text: string, offset: number): string | null {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(indent) && lineStart > 0 ? indent : null;
}

/**
 * The feed with `articles` (item index -> article HTML) put into their items and the `dropped` items (dedupe=1)
 * taken out with their line; everything else as received (see the top of this file). The XML declaration, when
 * present, is made to say UTF-8. RSS 1.0: the channel's rdf:Seq still lists a dropped item's URI (readers show
 * the items that are there).
 */
export function spliceArticles(feed: FeedDocument, articles: ReadonlyMap<number, string>, dropped: ReadonlySet<number> = new Set()): string {
  const { text } = feed;
  // Edits as [from, to, replacement], in document order, applied in one pass.
  const edits: Array<[number, number, string]> = [];
  const declaration = XML_DECLARATION.exec(text);
  if (declaration !== null && DECLARED_ENCODING.test(declaration[0])) {
    edits.push([0, declaration[0].length, declaration[0].replace(DECLARED_ENCODING, '$1$2UTF-8$2')]);
  }
  if (feed.rootDeclaration !== '' && articles.size > 0) {
    const at = feed.root.start + 1 + feed.root.name.length;
    edits.push([at, at, feed.rootDeclaration]);
  }
  for (const index of dropped) {
    const { element } = feed.items[index];
    const indent = indentBefore(text, element.start);
    // With the line break and indentation before it when the item starts its own line.
    edits.push([indent === null ? element.start : element.start - indent.length - 1, element.end, '']);
  }
  for (const [index, html] of articles) {
    if (dropped.has(index)) continue;
    const item = feed.items[index];
    const open = feed.kind === 'atom' ? `<${item.contentName} type="html">` : `<${item.contentName}>`;
    const element = `${open}${cdata(html)}</${item.contentName}>`;
    if (item.replaces !== null) {
      edits.push([item.replaces.start, item.replaces.end, element]);
    } else if (item.lastChild !== null) {
      // As a new last child, on its own line with the indentation of the other children when they have one.
      const indent = indentBefore(text, item.lastChild.start);
      edits.push([item.lastChild.end, item.lastChild.end, indent === null ? element : `\n${indent}${element}`]);
    } else {
      edits.push([item.element.endTagStart, item.element.endTagStart, element]);
    }
  }
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [from, to, replacement] of edits) {
    out += text.slice(at, from) + replacement;
    at = to;
  }
  return out + text.slice(at);
}

// The whole feed as JSON (Full-Text RSS's format=json): elements as objects, attributes as "@name", text as
// "#text" when an element also has attributes, items and entries always arrays.
const jsonParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry',
});

/** A feed pith has written (spliceArticles) as a JSON value: {"rss": {"channel": {..., "item": [...]}}} for RSS. */
export function feedAsJson(xml: string): unknown {
  return jsonParser.parse(xml) as unknown;
}
