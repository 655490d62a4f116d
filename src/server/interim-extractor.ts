// TEMPORARY, until src/extract.ts and src/model/worker-assets.ts land: a tag stripper standing in for the
// Web2Text pipeline so the routes can be exercised end to end. Replaced by worker-extractor.ts.

import type { Extraction } from '../types.js';
import type { Extractor } from './app.js';

const DROP = /<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi;
const TAG = /<[^>]*>/g;
const SPACE = /\s+/g;
const TITLE = /<title[^>]*>([\s\S]*?)<\/title>/i;
const WORD = /\w+/g;

export const interimExtractor: Extractor = {
  modelVersion: async () => 'interim-0',
  extract: async (html: string): Promise<Extraction> => {
    const body = html.replace(TITLE, ' ');
    const text = body.replace(DROP, ' ').replace(TAG, ' ').replace(SPACE, ' ').trim();
    return {
      text,
      title: TITLE.exec(html)?.[1].trim() ?? null,
      markdown: text,
      html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
      metadata: { title: null, author: null, publishedDate: null, modifiedDate: null, language: null, siteName: null, image: null, canonicalUrl: null, description: null },
      wordCount: text.match(WORD)?.length ?? 0,
      blocks: [],
      modelVersion: 'interim-0',
      featureSet: 'pith',
      truncated: false,
      timings: { parseMs: 0, featuresMs: 0, modelMs: 0, viterbiMs: 0, renderMs: 0, totalMs: 0 },
    };
  },
};
