import { describe, expect, it } from 'vitest';
import { decodeLadder, FALLBACK_MIN_WORDS } from '../../../src/model/decode.js';
import { viterbi } from '../../../src/model/viterbi.js';
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

  it('keeps nothing when the best block is too short: a page of navigation has no main content', () => {
    const p = potentials([0.1, 0.3, 0.2]);
    const r = decodeLadder(p, 3, [2, FALLBACK_MIN_WORDS - 1, 3], 'viterbi', 0.1);
    expect(Array.from(r.labels)).toEqual([0, 0, 0]);
    expect(r.rung).toBe('viterbi');
  });

  it('handles empty pages', () => {
    const r = decodeLadder(potentials([]), 0, [], 'unary', 0);
    expect(r.labels.length).toBe(0);
    expect(r.rung).toBe('unary');
  });
});
