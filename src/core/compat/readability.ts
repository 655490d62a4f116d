// Readability.js's article shape (mozilla/readability `parse()`), filled from a pith Extraction, for the library's
// drop-in `Readability` class and the Worker's Readability-server endpoint. Same field names and types; a field
// pith has no value for is null, as Readability's are. Pure: no DOM, no host.

import type { Extraction } from '../../types.js';
import { escapeHtmlAttr } from '../render/html.js';

/** What `new Readability(document).parse()` resolves to (Readability.js 0.6 field set). */
export interface ReadabilityArticle {
  /** Article title ('' when the page has none, as Readability gives). */
  title: string;
  /** Article HTML, wrapped in Readability's `<div id="readability-page-1" class="page">`. */
  content: string;
  /** Plain text of the article. */
  textContent: string;
  /** Length of `textContent` in UTF-16 code units, as Readability counts it. */
  length: number;
  /** The page's description, else the first paragraph of the text; null when there is neither. */
  excerpt: string | null;
  byline: string | null;
  /** Text direction from the page's markup ("ltr", "rtl"), null when it says nothing. */
  dir: string | null;
  siteName: string | null;
  lang: string | null;
  publishedTime: string | null;
}

/** Characters of the first paragraph used as excerpt when the page has no description. */
const EXCERPT_CHARS = 300;
// `dir` on <html> or <body>: the first one in the head of the document (Readability reads it off the article's ancestors).
const DIR_ATTR = /<(?:html|body)\b[^>]*?\sdir\s*=\s*["']?(ltr|rtl|auto)\b/i;
const DIR_SCAN_CHARS = 64 * 1024;

/** Text direction declared by the page's `<html>` or `<body>`, or null. */
export function directionOf(html: string): 'ltr' | 'rtl' | 'auto' | null {
  const m = DIR_ATTR.exec(html.length > DIR_SCAN_CHARS ? html.slice(0, DIR_SCAN_CHARS) : html);
  return m === null ? null : (m[1].toLowerCase() as 'ltr' | 'rtl' | 'auto');
}

/** The description, else the first paragraph of `text` (cut at a word near EXCERPT_CHARS); null when both are empty. */
export function excerptOf(extraction: Extraction): string | null {
  const description = extraction.metadata.description?.trim();
  if (description) return description;
  const first = extraction.text.trim().split(/\n\s*\n/, 1)[0]?.trim() ?? '';
  if (first === '') return null;
  if (first.length <= EXCERPT_CHARS) return first;
  const cut = first.lastIndexOf(' ', EXCERPT_CHARS);
  return `${first.slice(0, cut > EXCERPT_CHARS / 2 ? cut : EXCERPT_CHARS)}…`;
}

/**
 * The Readability article of an extraction made with format 'html' (or 'json'); null when nothing was found (where
 * Readability's parse() returns null). `html` is the page source (for `dir`).
 */
export function readabilityArticleOf(extraction: Extraction, html: string): ReadabilityArticle | null {
  if (extraction.text.trim() === '') return null;
  const m = extraction.metadata;
  const dir = directionOf(html);
  return {
    title: extraction.title ?? '',
    content: `<div id="readability-page-1" class="page"${dir === null ? '' : ` dir="${escapeHtmlAttr(dir)}"`}>${extraction.html ?? ''}</div>`,
    textContent: extraction.text,
    length: extraction.text.length,
    excerpt: excerptOf(extraction),
    byline: m.author,
    dir,
    siteName: m.siteName,
    lang: m.language,
    publishedTime: m.publishedDate,
  };
}
