// The Readability.js drop-in: `new Readability(documentOrHtml, { url }).parse()` resolves to Readability's article
// fields (src/core/compat/readability.ts), extracted by pith. A Promise, because the model runs asynchronously.
// Contract: docs/interfaces/readability.md.

import { extractWith } from '../../core/extract.js';
import { loadNodeClassifier } from './model-assets.js';
import { htmlOfInput, type DocumentLike } from '../../core/compat/document-input.js';
import { readabilityArticleOf, type ReadabilityArticle } from '../../core/compat/readability.js';
import { isProbablyReaderableHtml, type ReaderableOptions } from '../../core/compat/readerable.js';
import type { FeatureSetName } from '../../types.js';

export interface ReadabilityOptions {
  /** The page's URL: resolves relative links and images. Default: the document's own URL, when it has one. */
  url?: string;
  /** Which shipped model: 'pith' (default) or 'paper'. */
  featureSet?: FeatureSetName;
  /** Readability.js's own options (debug, charThreshold, keepClasses, ...) are accepted and ignored. */
  [readabilityOption: string]: unknown;
}

export class Readability {
  readonly #html: string;
  readonly #url: string | undefined;
  readonly #featureSet: FeatureSetName | undefined;

  constructor(document: string | DocumentLike, options: ReadabilityOptions = {}) {
    const input = htmlOfInput(document);
    this.#html = input.html;
    this.#url = typeof options.url === 'string' ? options.url : input.url;
    this.#featureSet = options.featureSet;
  }

  /** The article, or null when the page has no main content (as Readability's parse() gives). */
  async parse(): Promise<ReadabilityArticle | null> {
    const classifier = await loadNodeClassifier(this.#featureSet ?? 'pith');
    const extraction = await extractWith(classifier, this.#html, { url: this.#url, format: 'html' });
    return readabilityArticleOf(extraction, this.#html);
  }
}

/** Readability.js's quick pre-check: true when the page probably has an article. Synchronous, no model. */
export function isProbablyReaderable(document: string | DocumentLike, options: ReaderableOptions = {}): boolean {
  return isProbablyReaderableHtml(htmlOfInput(document).html, options);
}

export type { ReadabilityArticle, ReaderableOptions, DocumentLike };
