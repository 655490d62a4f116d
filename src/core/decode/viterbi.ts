// Decoding of the block labels from the two nets' probabilities (docs/design.md, Decoding). Pure.

import type { Potentials } from '../../types.js';

/**
 * log(p) is taken of max(p, LOG_FLOOR): a probability that underflowed to 0 stays finite, and lambda 0 then
 * really ignores the pairwise term (0 * -Infinity would be NaN). Same constant in training/common.py.
 */
export const LOG_FLOOR = 1e-30;

function logProbability(p: number): number {
  return Math.log(p > LOG_FLOOR ? p : LOG_FLOOR);
}

/**
 * Labels y ∈ {0,1}^n maximising Σ_i log unary_i(y_i) + λ Σ_i log pairwise_i(2·y_i + y_{i+1}).
 * Backward recursion as in the reference: P[n-1][a] = lu_{n-1}(a);
 * P[i][a] = lu_i(a) + max_b (λ·le_i(a,b) + P[i+1][b]); then decoded forwards. Ties go to 0 (boilerplate).
 * p.unary: [nBlocks, 2] row-major; p.pairwise: [nBlocks - 1, 4] row-major.
 */
export function viterbi(p: Potentials, nBlocks: number, lambda: number): Uint8Array {
  const labels = new Uint8Array(nBlocks);
  if (nBlocks === 0) return labels;
  // choice[2i + a] = best next label b after label a at block i
  const choice = new Uint8Array(2 * (nBlocks - 1));
  let best0 = logProbability(p.unary[2 * (nBlocks - 1)]);
  let best1 = logProbability(p.unary[2 * (nBlocks - 1) + 1]);
  for (let i = nBlocks - 2; i >= 0; i--) {
    const e = 4 * i;
    // a = 0: transitions 00, 01
    const s00 = lambda * logProbability(p.pairwise[e]) + best0;
    const s01 = lambda * logProbability(p.pairwise[e + 1]) + best1;
    // a = 1: transitions 10, 11
    const s10 = lambda * logProbability(p.pairwise[e + 2]) + best0;
    const s11 = lambda * logProbability(p.pairwise[e + 3]) + best1;
    choice[2 * i] = s01 > s00 ? 1 : 0;
    choice[2 * i + 1] = s11 > s10 ? 1 : 0;
    best0 = logProbability(p.unary[2 * i]) + (s01 > s00 ? s01 : s00);
    best1 = logProbability(p.unary[2 * i + 1]) + (s11 > s10 ? s11 : s10);
  }
  labels[0] = best1 > best0 ? 1 : 0;
  for (let i = 0; i < nBlocks - 1; i++) labels[i + 1] = choice[2 * i + labels[i]];
  return labels;
}

/** Unary-only decoding: content where P(content) > P(boilerplate); ties go to 0. p.unary: [nBlocks, 2]. */
export function unaryArgmax(p: Potentials, nBlocks: number): Uint8Array {
  const labels = new Uint8Array(nBlocks);
  for (let i = 0; i < nBlocks; i++) labels[i] = p.unary[2 * i + 1] > p.unary[2 * i] ? 1 : 0;
  return labels;
}
