// The Mercury Parser API's answer (postlight/parser, `GET /parser?url=`), filled from a pith Extraction. Field
// names, types and nulls as Mercury's; one page, so next_page_url is null and total_pages/rendered_pages are 1.
// Contract: docs/interfaces/mercury.md. Pure.

import type { Extraction } from '../../types.js';
import { directionOf, excerptOf } from './readability.js';

export interface MercuryArticle {
  title: string | null;
  content: string | null;
  author: string | null;
  /** ISO 8601 (midnight UTC of the page's date: pith reads dates as days). */
  date_published: string | null;
  lead_image_url: string | null;
  dek: string | null;
  next_page_url: string | null;
  url: string;
  domain: string;
  excerpt: string | null;
  word_count: number;
  direction: 'ltr' | 'rtl';
  total_pages: number;
  rendered_pages: number;
}

/** The error body Mercury answers with: `{"error": true, "messages": "..."}` (pith adds its code). */
export interface MercuryError {
  error: true;
  messages: string;
  code: string;
}

/** YYYY-MM-DD -> ISO 8601 at midnight UTC; anything else null. */
export function isoDateOf(date: string | null): string | null {
  if (date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const t = Date.parse(`${date}T00:00:00.000Z`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Mercury's answer for an extraction made with format 'html'; `url` is the page's final URL. */
export function mercuryArticleOf(extraction: Extraction, url: string, html: string): MercuryArticle {
  const m = extraction.metadata;
  const empty = extraction.text.trim() === '';
  return {
    title: extraction.title,
    content: empty ? null : `<div>${extraction.html ?? ''}</div>`,
    author: m.author,
    date_published: isoDateOf(m.publishedDate),
    lead_image_url: m.image,
    dek: null,
    next_page_url: null,
    url,
    domain: new URL(url).hostname,
    excerpt: empty ? null : excerptOf(extraction),
    word_count: extraction.wordCount,
    direction: directionOf(html) === 'rtl' ? 'rtl' : 'ltr',
    total_pages: 1,
    rendered_pages: 1,
  };
}
