// A page's features must not depend on the pages parsed before it in the same process (a `pith batch` worker, the
// eval, a Worker isolate). They did: the memo of class lists (src/core/parse/string-memo.ts) cleared itself when it
// reached its limit, even halfway through a page, and the page's sibling signatures (src/core/features/page-context.ts)
// compare class lists by identity; a class attribute then had one list before the clear and another after it. Over
// the WCXB dev pages, one page in 1,497 came out differently when the pages ran in reverse order.
//
// This file has its own process state (vitest runs each file in a fresh module graph), so the memo starts empty and
// the sizes below put the clear that a memo cleared at its limit would make inside the card group (checked: with
// such a memo this test fails).
import { describe, expect, it } from 'vitest';
import { computeFeatures } from '../../../src/core/features/features.js';
import { computePageFeatures } from '../../../src/core/features/page-context.js';
import { parsePage } from '../../../src/core/blocks/page.js';

const CARDS = 40;
const page =
  '<body><article><h1>A story</h1><p>The story has enough words in it to count as the real prose of this page.</p></article>' +
  `<ul class="cards">${Array.from({ length: CARDS }, (_, k) => `<li class="card"><span class="t">Teaser ${k} about another story</span><b class="u-${k}">more</b></li>`).join('')}</ul></body>`;
/** Distinct class attributes of `page`: cards, card, t and u-0 ... u-39. */
const PAGE_CLASSES = 3 + CARDS;
/** The limit of a string memo (src/core/parse/string-memo.ts). */
const MEMO_LIMIT = 20_000;

/**
 * A page of `n` elements, each with a class attribute of its own, nested five deep around each text (a page's blocks
 * are capped at 8,000; a chain of elements around one text is one block).
 */
function filler(prefix: string, n: number): string {
  let html = '<body>';
  for (let k = 0; k < n; k += 5) {
    const depth = Math.min(5, n - k);
    for (let d = 0; d < depth; d++) html += `<i class="${prefix}-${k + d}">`;
    html += 'x' + '</i>'.repeat(depth);
  }
  return html + '</body>';
}

function features(html: string): Float32Array {
  const parsed = parsePage(html);
  const first = computeFeatures(parsed, 'pith');
  const probs = new Float32Array(parsed.blocks.length * 2).fill(0.5); // [nBlocks, 2]
  return computePageFeatures(parsed, first, probs, { kinds: [], title: null });
}

describe('features of a page, after other pages', () => {
  it('are the same whatever the process parsed before', () => {
    const fresh = features(page); // the memo: PAGE_CLASSES entries
    parsePage(filler('f', 19_000)); // PAGE_CLASSES + 19,000 entries
    // A memo cleared at its limit would clear during this page and keep its last entries: nearly the limit, so that
    // the page's next parse passes the limit again among its cards.
    const beforeClear = MEMO_LIMIT - PAGE_CLASSES - 19_000;
    const left = MEMO_LIMIT - 41;
    parsePage(filler('g', beforeClear + 1 + left - 1));
    expect(features(page)).toEqual(fresh);
  });
});
