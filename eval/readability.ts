// Readability.js (Mozilla) on linkedom: the baseline extractor of the evaluation table and of the benchmark.
// Node only; @mozilla/readability is a dev dependency.

import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface ReadabilityResult {
  /** Plain text of the article ('' when Readability finds none or fails). */
  text: string;
  /** Readability's article HTML ('' when none). */
  html: string;
  title: string | null;
  /** Set when Readability threw; the text is then ''. */
  error?: string;
}

/**
 * Parse with linkedom and run Readability. The parse is included, so that timing this call compares like
 * with like against pith's extract(). "No article" (parse() returning null) is an empty text, not an error.
 * The text is Readability's `textContent` as is (the usual way it is scored).
 */
export function readabilityExtract(html: string): ReadabilityResult {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document).parse();
    return { text: article?.textContent ?? '', html: article?.content ?? '', title: article?.title ?? null };
  } catch (err) {
    return { text: '', html: '', title: null, error: err instanceof Error ? err.message : String(err) };
  }
}
