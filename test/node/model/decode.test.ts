import { describe, expect, it } from 'vitest';
import { decodeLadder, FALLBACK_MIN_WORDS, SHORT_PAGE_MAX_WORDS, SHORT_PAGE_MIN_WORDS } from '../../../src/core/decode/decode.js';
import { viterbi } from '../../../src/core/decode/viterbi.js';
import type { Potentials } from '../../../src/types.js';

/** Potentials from per-block content probabilities and a flat pairwise net. */
function potentials(content: number[]): Potentials {
  const n = content.length;
  const unary = new Float32Array(n * 2); // [n, 2] row-major
  content.forEach((p, i) => {
    unary[i * 2] = 1 - p;
    unary[i * 2 + 1] = p;
  });
  const pairwise = new Float32Array(Math.max(0, n - 1) * 4).fill(0.25); // [n-1, 4]
  return { unary, pairwise };
}

describe('decodeLadder', () => {
  it('returns Viterbi labels untouched when they keep something', () => {
    const p = potentials([0.2, 0.9, 0.8, 0.1]);
    const r = decodeLadder(p, 4, [3, 40, 30, 2], 'viterbi', 1);
    expect(r.rung).toBe('viterbi');
    expect(Array.from(r.labels)).toEqual(Array.from(viterbi(p, 4, 1)));
  });

  it('falls back to the unary argmax when Viterbi keeps nothing', () => {
    // A pairwise net that strongly prefers boilerplate -> boilerplate outvotes one confident block.
    const p = potentials([0.1, 0.7, 0.1]);
    p.pairwise.set([0.97, 0.01, 0.01, 0.01, 0.97, 0.01, 0.01, 0.01]);
    expect(Array.from(viterbi(p, 3, 5))).toEqual([0, 0, 0]);
    const r = decodeLadder(p, 3, [2, 30, 2], 'viterbi', 5);
    expect(r.rung).toBe('unary');
    expect(Array.from(r.labels)).toEqual([0, 1, 0]);
  });

  it('keeps the best block and its likely neighbours when both rungs keep nothing and the block is long enough', () => {
    const p = potentials([0.1, 0.3, 0.45, 0.25, 0.05]);
    const r = decodeLadder(p, 5, [2, 20, 40, 20, 2], 'viterbi', 0.1);
    expect(r.rung).toBe('best-block');
    expect(Array.from(r.labels)).toEqual([0, 1, 1, 1, 0]);
  });

  it('keeps nothing, and says so, when the best block is too short on a page that is not short', () => {
    const p = potentials([0.1, 0.3, 0.2, 0.1]);
    const r = decodeLadder(p, 4, [30, FALLBACK_MIN_WORDS - 1, 3, 20], 'viterbi', 0.1);
    expect(Array.from(r.labels)).toEqual([0, 0, 0, 0]);
    expect(r.rung).toBe('none'); // not 'viterbi': every rung ran and none kept anything
  });

  it('keeps the prose blocks of a short page (a one-paragraph note), not its links', () => {
    const p = potentials([0.001, 0.01, 0.002]);
    const r = decodeLadder(p, 3, [1, 9, 6], 'viterbi', 0.05, [0, 0, 1]);
    expect(r.rung).toBe('short-page');
    expect(Array.from(r.labels)).toEqual([0, 1, 0]);
  });

  it('keeps a short page of links and single words empty', () => {
    const p = potentials([0.03, 0.06, 0.17]);
    expect(decodeLadder(p, 3, [1, 1, 1], 'viterbi', 0.05, [1, 1, 1])).toMatchObject({ rung: 'none' });
    expect(Array.from(decodeLadder(p, 3, [6, 7, 8], 'viterbi', 0.05, [1, 1, 1]).labels)).toEqual([0, 0, 0]);
    expect(decodeLadder(p, 3, [1, 2, SHORT_PAGE_MIN_WORDS - 1], 'viterbi', 0.05)).toMatchObject({ rung: 'none' });
  });

  it('a page just over SHORT_PAGE_MAX_WORDS is not short', () => {
    const p = potentials([0.01, 0.01]);
    expect(decodeLadder(p, 2, [10, SHORT_PAGE_MAX_WORDS - 9], 'viterbi', 0.05).rung).toBe('none');
    expect(decodeLadder(p, 2, [10, SHORT_PAGE_MAX_WORDS - 10], 'viterbi', 0.05).rung).toBe('short-page');
  });

  it('handles empty pages', () => {
    const r = decodeLadder(potentials([]), 0, [], 'unary', 0);
    expect(r.labels.length).toBe(0);
    expect(r.rung).toBe('none');
  });
});
