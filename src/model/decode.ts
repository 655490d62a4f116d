// The decoding ladder: Viterbi (or the unary argmax when asked), then explicit fallbacks when it keeps nothing.
// Pure. The nets were trained on pages of more than 10 blocks, so very small pages (a posted paragraph, a
// one-article fragment) are out of their distribution and can come out all-boilerplate; "nothing found" should
// mean the page has no main content, not that the model was unsure.

import type { DecodeMode, DecodeRung, Potentials } from '../types.js';
import { unaryArgmax, viterbi } from './viterbi.js';

/** A block needs at least this many words to be kept by the last rung on its own. */
export const FALLBACK_MIN_WORDS = 15;
/** Neighbours join the best block while their content probability is at least this share of its probability. */
export const FALLBACK_NEIGHBOUR_SHARE = 0.5;

export interface DecodeResult {
  labels: Uint8Array;
  rung: DecodeRung;
}

function anyKept(labels: Uint8Array): boolean {
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) return true;
  return false;
}

/**
 * 1. Viterbi with `lambda` (or the unary argmax when `mode` is 'unary');
 * 2. if nothing is kept, the unary argmax;
 * 3. if still nothing, the block most likely to be content, when it has at least FALLBACK_MIN_WORDS words, with the
 *    contiguous neighbours whose probability is at least FALLBACK_NEIGHBOUR_SHARE of its own.
 * Otherwise nothing is kept: the page has no main content.
 */
export function decodeLadder(
  p: Potentials,
  nBlocks: number,
  words: ArrayLike<number>,
  mode: DecodeMode,
  lambda: number,
): DecodeResult {
  const first = mode === 'unary' ? unaryArgmax(p, nBlocks) : viterbi(p, nBlocks, lambda);
  if (nBlocks === 0 || anyKept(first)) return { labels: first, rung: mode };
  if (mode === 'viterbi') {
    const unary = unaryArgmax(p, nBlocks);
    if (anyKept(unary)) return { labels: unary, rung: 'unary' };
  }
  let best = 0;
  for (let i = 1; i < nBlocks; i++) if (p.unary[i * 2 + 1] > p.unary[best * 2 + 1]) best = i; // [nBlocks, 2] row-major
  const labels = new Uint8Array(nBlocks);
  if (words[best] < FALLBACK_MIN_WORDS) return { labels, rung: mode };
  const floor = p.unary[best * 2 + 1] * FALLBACK_NEIGHBOUR_SHARE;
  labels[best] = 1;
  for (let i = best - 1; i >= 0 && p.unary[i * 2 + 1] >= floor; i--) labels[i] = 1;
  for (let i = best + 1; i < nBlocks && p.unary[i * 2 + 1] >= floor; i++) labels[i] = 1;
  return { labels, rung: 'best-block' };
}
