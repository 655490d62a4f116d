// More news for the page stage's training: the train part of the Readability.js test pages
// (dev/readability-pages.ts, eval/readability-split.json), as pages of the training dump.
//
//   npm run dump -- --set pith --source readability       -> training/data/pith-readability/ (split "train")
//   npm run dump -- --set pith --source readability-val   -> training/data/pith-readability-val/ (split "val"): a
//                                                            proxy of `npm run eval`'s second table, never trained on
//
// Every page is an article; its ground truth is the text of expected.html; its site is the split's (a site = the
// slug without its number), named "readability:<site>" so that it can never share a fold with a WCXB site. The
// validation part is dumped only as split "val", which training/page.py never trains on (`extra_data` takes train
// pages only); training/ablate.py --extra-val scores it.

import type { CorpusPage } from '../dev/corpus.js';
import { READABILITY_PAGE_URL, loadReadabilityPage, readReadabilitySplit } from '../dev/readability-pages.js';

/** Id prefix of a Readability page in a dump. */
export const READABILITY_ID_PREFIX = 'rd-';

/** The ids (prefixed slugs) of one part of the split, sorted. */
export function readabilityIds(part: 'train' | 'val'): string[] {
  return readReadabilitySplit()[part].map((slug) => READABILITY_ID_PREFIX + slug).sort();
}

/** A Readability page as a corpus page (ids from readabilityIds). */
export function loadReadabilityAsCorpusPage(id: string): CorpusPage {
  if (!id.startsWith(READABILITY_ID_PREFIX)) throw new Error(`${id} is not a Readability page id`);
  const slug = id.slice(READABILITY_ID_PREFIX.length);
  const split = readReadabilitySplit();
  if (!split.train.includes(slug) && !split.val.includes(slug)) throw new Error(`${slug} is not in the Readability split`);
  const page = loadReadabilityPage(slug);
  return {
    id,
    url: READABILITY_PAGE_URL,
    domain: `readability:${page.site}`,
    pageType: 'article',
    html: page.html,
    groundTruth: { mainContent: page.expectedText, with: [], without: [], title: null, author: null, publishDate: null },
  };
}
