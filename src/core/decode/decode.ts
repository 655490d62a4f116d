// The decoding ladder: Viterbi (or the unary argmax when asked), then explicit fallbacks when it keeps nothing.
// Pure. The nets were trained on pages of more than 10 blocks, so very small pages (a posted paragraph, a
// one-article fragment) are out of their distribution and can come out all-boilerplate; "nothing found" should
// mean the page has no main content, not that the model was unsure.

import type { DecodeMode, DecodeRung, Potentials } from '../../types.js';
import { unaryArgmax, viterbi } from './viterbi.js';

/** A block needs at least this many words to be kept by the last rung on its own. */
export const FALLBACK_MIN_WORDS = 15;
/** Neighbours join the best block while their content probability is at least this share of its probability. */
export const FALLBACK_NEIGHBOUR_SHARE = 0.5;
/** A page with at most this many words in all is short: a posted note, a one-paragraph page. */
export const SHORT_PAGE_MAX_WORDS = 50;
/** On a short page, a block of prose (not link text) with at least this many words is its content. */
export const SHORT_PAGE_MIN_WORDS = 5;

export interface DecodeResult {
  labels: Uint8Array;
  rung: DecodeRung;
}

function anyKept(labels: Uint8Array): boolean {
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) return true;
  return false;
}

/**
 * 1. Viterbi with `lambda` (or the unary argmax when `mode` is 'unary' or `lambda` is 0);
 * 2. if nothing is kept, the unary argmax;
 * 3. if still nothing, the block most likely to be content, when it has at least FALLBACK_MIN_WORDS words, with the
 *    contiguous neighbours whose probability is at least FALLBACK_NEIGHBOUR_SHARE of its own;
 * 4. if still nothing and the whole page has at most SHORT_PAGE_MAX_WORDS words, every block of at least
 *    SHORT_PAGE_MIN_WORDS words that is not mostly link text: what a reader sees on a one-paragraph page (the nets
 *    score such pages far outside what they were trained on), while a page of links or a bare "404" stays empty.
 * Otherwise nothing is kept and the rung is 'none': the page has no main content.
 * `inLink[i]` is 1 when most of block i's characters are link text (optional: no block counts as link text).
 */
export function decodeLadder(
  p: Potentials,
  nBlocks: number,
  words: ArrayLike<number>,
  mode: DecodeMode,
  lambda: number,
  inLink?: ArrayLike<number>,
): DecodeResult {
  if (nBlocks === 0) return { labels: new Uint8Array(0), rung: 'none' };
  // Viterbi with lambda 0 maximises the unary terms alone: the argmax, without reading p.pairwise (which the caller
  // may then leave empty).
  const first = mode === 'unary' || lambda === 0 ? unaryArgmax(p, nBlocks) : viterbi(p, nBlocks, lambda);
  if (anyKept(first)) return { labels: first, rung: mode };
  if (mode === 'viterbi' && lambda !== 0) {
    const unary = unaryArgmax(p, nBlocks);
    if (anyKept(unary)) return { labels: unary, rung: 'unary' };
  }
  let best = 0;
  for (let i = 1; i < nBlocks; i++) if (p.unary[i * 2 + 1] > p.unary[best * 2 + 1]) best = i; // [nBlocks, 2] row-major
  const labels = new Uint8Array(nBlocks);
  if (words[best] < FALLBACK_MIN_WORDS) return shortPage(nBlocks, words, inLink);
  const floor = p.unary[best * 2 + 1] * FALLBACK_NEIGHBOUR_SHARE;
  labels[best] = 1;
  for (let i = best - 1; i >= 0 && p.unary[i * 2 + 1] >= floor; i--) labels[i] = 1;
  for (let i = best + 1; i < nBlocks && p.unary[i * 2 + 1] >= floor; i++) labels[i] = 1;
  return { labels, rung: 'best-block' };
}

/** Rung 4: the prose blocks of a short page, or nothing ('none'). */
function shortPage(nBlocks: number, words: ArrayLike<number>, inLink: ArrayLike<number> | undefined): DecodeResult {
  const labels = new Uint8Array(nBlocks);
  let total = 0;
  for (let i = 0; i < nBlocks; i++) total += words[i];
  if (total > SHORT_PAGE_MAX_WORDS) return { labels, rung: 'none' };
  let kept = false;
  for (let i = 0; i < nBlocks; i++) {
    if (words[i] >= SHORT_PAGE_MIN_WORDS && !(inLink !== undefined && inLink[i] === 1)) {
      labels[i] = 1;
      kept = true;
    }
  }
  return { labels, rung: kept ? 'short-page' : 'none' };
}
