import { describe, expect, it } from 'vitest';
import { LOG_FLOOR, unaryArgmax, viterbi } from '../../../src/core/decode/viterbi.js';
import type { Potentials } from '../../../src/types.js';
import { mulberry32 as rng } from '../../../dev/rng.js';


/** Random softmax-normalised potentials: unary [n, 2], pairwise [n - 1, 4]. */
function randomPotentials(n: number, next: () => number): Potentials {
  const softmaxRows = (rows: number, width: number): Float32Array => {
    const out = new Float32Array(rows * width);
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let j = 0; j < width; j++) sum += out[r * width + j] = Math.exp(6 * (next() - 0.5));
      for (let j = 0; j < width; j++) out[r * width + j] /= sum;
    }
    return out;
  };
  return { unary: softmaxRows(n, 2), pairwise: softmaxRows(Math.max(n - 1, 0), 4) };
}

const log = (p: number): number => Math.log(Math.max(p, LOG_FLOOR));

function score(p: Potentials, y: number[], lambda: number): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += log(p.unary[2 * i + y[i]]);
  for (let i = 0; i + 1 < y.length; i++) s += lambda * log(p.pairwise[4 * i + 2 * y[i] + y[i + 1]]);
  return s;
}

/** The best labeling by trying all 2^n of them. */
function bruteForce(p: Potentials, n: number, lambda: number): number[] {
  let best: number[] = [];
  let bestScore = -Infinity;
  for (let mask = 0; mask < 1 << n; mask++) {
    const y = Array.from({ length: n }, (_, i) => (mask >> i) & 1);
    const s = score(p, y, lambda);
    if (s > bestScore) {
      bestScore = s;
      best = y;
    }
  }
  return best;
}

describe('viterbi', () => {
  it('equals brute force over all labelings for random potentials, 1 to 12 blocks', () => {
    const next = rng(42);
    for (let n = 1; n <= 12; n++) {
      for (const lambda of [0.1, 0.5, 1, 2, 5]) {
        for (let trial = 0; trial < 4; trial++) {
          const p = randomPotentials(n, next);
          const got = Array.from(viterbi(p, n, lambda));
          const want = bruteForce(p, n, lambda);
          expect(got, `n=${n} lambda=${lambda} trial=${trial}`).toEqual(want);
        }
      }
    }
  });

  it('with lambda 0 equals the unary argmax', () => {
    const next = rng(7);
    for (let n = 1; n <= 40; n++) {
      const p = randomPotentials(n, next);
      expect(Array.from(viterbi(p, n, 0))).toEqual(Array.from(unaryArgmax(p, n)));
    }
  });

  it('lets a strong pairwise term overrule a weak unary one', () => {
    // block 1 leans to boilerplate (0.45 content) but both neighbours are content and transitions favour 11
    const p: Potentials = {
      unary: Float32Array.from([0.1, 0.9, 0.55, 0.45, 0.1, 0.9]),
      pairwise: Float32Array.from([0.05, 0.05, 0.05, 0.85, 0.05, 0.05, 0.05, 0.85]),
    };
    expect(Array.from(unaryArgmax(p, 3))).toEqual([1, 0, 1]);
    expect(Array.from(viterbi(p, 3, 1))).toEqual([1, 1, 1]);
  });

  it('sends ties to boilerplate (0)', () => {
    const n = 6;
    const p: Potentials = { unary: new Float32Array(2 * n).fill(0.5), pairwise: new Float32Array(4 * (n - 1)).fill(0.25) };
    expect(Array.from(viterbi(p, n, 1))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(viterbi(p, n, 0))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(unaryArgmax(p, n))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('handles 0 and 1 blocks and probabilities that underflowed to 0', () => {
    const empty: Potentials = { unary: new Float32Array(0), pairwise: new Float32Array(0) };
    expect(viterbi(empty, 0, 1).length).toBe(0);
    expect(Array.from(viterbi({ unary: Float32Array.from([0.2, 0.8]), pairwise: new Float32Array(0) }, 1, 1))).toEqual([1]);
    const zeros: Potentials = { unary: Float32Array.from([0, 1, 1, 0]), pairwise: Float32Array.from([0, 0, 1, 0]) };
    expect(Array.from(viterbi(zeros, 2, 0))).toEqual([1, 0]);
    expect(Array.from(viterbi(zeros, 2, 1))).toEqual([1, 0]);
  });
});
