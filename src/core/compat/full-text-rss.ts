// Full-Text RSS's extract.php answer (FiveFilters), filled from a pith Extraction: its JSON field names, with null
// where pith has no value. pith reads one title, description and image per page, whatever tag said them, so the
// og_* fields carry those and the twitter_* fields are null. Contract: docs/interfaces/full-text-rss.md. Pure.

import type { Extraction } from '../../types.js';
import { applyLinkPolicy, type LinkPolicy } from './links.js';
import { isoDateOf } from './mercury.js';
import { excerptOf } from './readability.js';

export interface FullTextRssArticle {
  title: string | null;
  excerpt: string | null;
  date: string | null;
  author: string | null;
  language: string | null;
  url: string | null;
  effective_url: string | null;
  domain: string | null;
  word_count: number;
  og_url: string | null;
  og_title: string | null;
  og_description: string | null;
  og_image: string | null;
  og_type: string | null;
  twitter_card: string | null;
  twitter_site: string | null;
  twitter_creator: string | null;
  twitter_image: string | null;
  twitter_title: string | null;
  twitter_description: string | null;
  /** Absent with content=0; plain text with content=text. */
  content?: string;
}

export interface FullTextRssOptions {
  /** The URL asked for and the one the page came from (null for posted HTML without a url). */
  url: string | null;
  effectiveUrl: string | null;
  /** 'html' (default), 'text' or 'none' (content=0). */
  content: 'html' | 'text' | 'none';
  links: LinkPolicy;
}

function hostOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** extract.php's JSON for an extraction made with format 'html'. */
export function fullTextRssArticleOf(extraction: Extraction, options: FullTextRssOptions): FullTextRssArticle {
  const m = extraction.metadata;
  const article: FullTextRssArticle = {
    title: extraction.title,
    excerpt: excerptOf(extraction),
    date: isoDateOf(m.publishedDate),
    author: m.author,
    language: m.language,
    url: options.url,
    effective_url: options.effectiveUrl,
    domain: hostOf(options.effectiveUrl ?? options.url),
    word_count: extraction.wordCount,
    og_url: m.canonicalUrl,
    og_title: m.title,
    og_description: m.description,
    og_image: m.image,
    og_type: m.kinds.includes('article') ? 'article' : null,
    twitter_card: null,
    twitter_site: null,
    twitter_creator: null,
    twitter_image: null,
    twitter_title: null,
    twitter_description: null,
  };
  if (options.content === 'html') article.content = applyLinkPolicy(extraction.html ?? '', options.links);
  else if (options.content === 'text') article.content = extraction.text;
  return article;
}
