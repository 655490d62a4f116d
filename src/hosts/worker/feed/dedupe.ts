// dedupe=1 of the feed proxy: which items are near-duplicates of an earlier item. Pure.
//
// An item is compared by the SimHash (src/core/fingerprint/simhash.ts) of its clean article when it got one, else of
// its title and description (summary in Atom). Two items whose articles both came through are compared by
// their articles only (two posts may share a title, "Daily notes", and differ in content); otherwise by their
// teasers. Within NEAR_DUPLICATE_DISTANCE bits (3 of 64) the later item is dropped: the first one is kept,
// whatever the order of the feed. Texts of fewer than MIN_DEDUPE_WORDS words are never treated as duplicates
// (a bare title like "Weather" says too little).

import { decodeCharacterReferences } from '../../../core/parse/entities.js';
import { NEAR_DUPLICATE_DISTANCE, hammingDistance, simhashOfWords, wordHashes } from '../../../core/fingerprint/simhash.js';

/** Fewest words a text needs before pith drops an item as a copy of another with the same fingerprint. */
export const MIN_DEDUPE_WORDS = 8;

export interface DedupeItem {
  /** Clean article HTML, or null when the item has none (not fetched, failed, timed out, beyond max). */
  article: string | null;
  /** Title and description (or summary) of the item, as text or HTML. */
  teaser: string;
}

const TAG = /<[^>]*>/g;

/** Text of an HTML fragment, for fingerprinting only: tags become spaces, character references are decoded. */
export function textOfHtml(html: string): string {
  return decodeCharacterReferences(html.replace(TAG, ' '), ' ');
}

/** 16-hex SimHash of a text, or null when it has fewer than MIN_DEDUPE_WORDS words. */
function fingerprintOrNull(html: string | null): string | null {
  if (html === null) return null;
  const words = wordHashes(textOfHtml(html));
  if (words.length < MIN_DEDUPE_WORDS) return null;
  const [hi, lo] = simhashOfWords(words);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** Indexes of the items that are near-duplicates of an earlier kept item (see the top of this file). */
export function nearDuplicateItems(items: readonly DedupeItem[]): Set<number> {
  const dropped = new Set<number>();
  const kept: Array<{ article: string | null; teaser: string | null }> = [];
  items.forEach((item, index) => {
    const mine = { article: fingerprintOrNull(item.article), teaser: fingerprintOrNull(item.teaser) };
    const near = (a: string | null, b: string | null): boolean => a !== null && b !== null && hammingDistance(a, b) <= NEAR_DUPLICATE_DISTANCE;
    const duplicate = kept.some((other) =>
      mine.article !== null && other.article !== null ? near(mine.article, other.article) : near(mine.teaser, other.teaser),
    );
    if (duplicate) dropped.add(index);
    else kept.push(mine);
  });
  return dropped;
}
