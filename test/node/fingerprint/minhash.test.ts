import { describe, expect, it } from 'vitest';
import {
  LshIndex,
  estimateJaccard,
  exactJaccard,
  lshCandidateProbability,
  lshThreshold,
  minhash,
  minhashOfShingles,
  shingleHashes,
} from '../../../src/core/fingerprint/minhash.js';
import { mulberry32 as rng } from '../../../dev/rng.js';


const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(' ');

function randomText(rand: () => number, nWords: number): string[] {
  return Array.from({ length: nWords }, () => WORDS[Math.floor(rand() * WORDS.length)] + String(Math.floor(rand() * 100)));
}

/** Replace a share of the words: a near-duplicate with a controllable distance. */
function mutate(words: string[], share: number, rand: () => number): string[] {
  return words.map((w) => (rand() < share ? `zz${Math.floor(rand() * 1e6)}` : w));
}

/** Two sets of random uint32 with exact Jaccard = common / (common + onlyA + onlyB). */
function setPair(rand: () => number, common: number, onlyA: number, onlyB: number): [Uint32Array, Uint32Array] {
  const draw = (k: number): number[] => Array.from({ length: k }, () => Math.floor(rand() * 2 ** 32) >>> 0);
  const c = draw(common);
  return [Uint32Array.from([...c, ...draw(onlyA)]), Uint32Array.from([...c, ...draw(onlyB)])];
}

describe('minhash', () => {
  it('is deterministic and matches the golden signature (same in Node and workerd)', () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const a = minhash(text);
    const b = minhash(text);
    expect(a.length).toBe(128);
    expect(Array.from(a)).toEqual(Array.from(b));
    // Golden values: changing the hash family or the shingling breaks every stored fingerprint.
    expect(Array.from(a.slice(0, 8))).toEqual([10658085, 41847439, 294464181, 28741758, 184660760, 35262020, 76039782, 160579998]);
    // Normalisation: case and whitespace runs do not matter; a different seed gives a different family.
    expect(Array.from(minhash('the  QUICK brown fox\njumps over the lazy dog.'))).toEqual(Array.from(a));
    expect(Array.from(minhash(text, { seed: 1 }))).not.toEqual(Array.from(a));
  });

  it('identical texts estimate 1, disjoint texts about 0, empty texts 0', () => {
    const rand = rng(1);
    const t1 = randomText(rand, 300).join(' ');
    const t2 = randomText(rand, 300).join(' ');
    expect(estimateJaccard(minhash(t1), minhash(t1))).toBe(1);
    expect(estimateJaccard(minhash(''), minhash(''))).toBe(0);
    expect(estimateJaccard(minhash(t1), minhash(''))).toBe(0);
    const exact = exactJaccard(shingleHashes(t1), shingleHashes(t2));
    expect(Math.abs(estimateJaccard(minhash(t1), minhash(t2)) - exact)).toBeLessThan(0.1);
  });

  it('estimates the Jaccard similarity of synthetic near-duplicates within 3 sigma', () => {
    const rand = rng(42);
    const k = 128;
    let outside = 0;
    let sumError = 0;
    const trials = 60;
    for (let t = 0; t < trials; t++) {
      const base = randomText(rand, 200 + Math.floor(rand() * 300));
      const variant = mutate(base, 0.02 + 0.2 * rand(), rand);
      const exact = exactJaccard(shingleHashes(base.join(' ')), shingleHashes(variant.join(' ')));
      const estimate = estimateJaccard(minhash(base.join(' ')), minhash(variant.join(' ')));
      const sigma = Math.sqrt((exact * (1 - exact)) / k);
      if (Math.abs(estimate - exact) > 3 * sigma + 1 / k) outside++;
      sumError += estimate - exact;
    }
    // A 3-sigma band misses 0.3% of the time for a Gaussian; allow 2 of 60.
    expect(outside).toBeLessThanOrEqual(2);
    // No bias: the mean error is within 3 standard errors of 0 (sigma <= 0.5/sqrt(k)).
    expect(Math.abs(sumError / trials)).toBeLessThan((3 * 0.5) / Math.sqrt(k) / Math.sqrt(trials));
  });

  it('gives the same estimate on sets with exactly known Jaccard', () => {
    const rand = rng(7);
    for (const [common, only] of [
      [800, 100],
      [500, 250],
      [200, 400],
    ] as const) {
      const [a, b] = setPair(rand, common, only, only);
      const exact = common / (common + 2 * only);
      expect(exactJaccard(a, b)).toBeCloseTo(exact, 10);
      const est = estimateJaccard(minhashOfShingles(a), minhashOfShingles(b));
      expect(Math.abs(est - exact)).toBeLessThan(3 * Math.sqrt((exact * (1 - exact)) / 128) + 1 / 128);
    }
  });
});

describe('LSH banding', () => {
  it('has the documented S-curve', () => {
    expect(lshCandidateProbability(0.8, 16, 8)).toBeCloseTo(0.947, 3);
    expect(lshCandidateProbability(0.3, 16, 8)).toBeLessThan(0.002);
    expect(lshThreshold(16, 8)).toBeCloseTo(0.707, 3);
  });

  it('finds pairs with the expected probability (b=16, r=8)', () => {
    const rand = rng(2024);
    const bands = 16;
    const rows = 8;
    const trials = 300;
    for (const [jaccard, common, only] of [
      [0.8, 800, 100], // P = 0.947
      [0.6, 600, 200], // P = 0.45
      [0.3, 300, 350], // P = 0.001
    ] as const) {
      const index = new LshIndex<string>(bands, rows);
      for (let t = 0; t < trials; t++) {
        const [a, b] = setPair(rand, common, only, only);
        index.add(`a${t}`, minhashOfShingles(a));
        index.add(`b${t}`, minhashOfShingles(b));
      }
      const pairs = index.candidatePairs();
      const found = pairs.filter(([x, y]) => x.slice(1) === y.slice(1)).length;
      // Unrelated random sets (J about 0) never collide in a full band.
      expect(pairs.length - found).toBe(0);
      const p = lshCandidateProbability(jaccard, bands, rows);
      const sd = Math.sqrt(trials * p * (1 - p));
      expect(Math.abs(found - trials * p)).toBeLessThanOrEqual(3 * sd + 2);
    }
  });

  it('reports near-duplicate texts above the threshold and not the unrelated ones', () => {
    const rand = rng(99);
    const index = new LshIndex<string>(32, 4);
    const base = randomText(rand, 400);
    index.add('orig', minhash(base.join(' ')));
    index.add('copy', minhash(mutate(base, 0.01, rand).join(' ')));
    index.add('other', minhash(randomText(rand, 400).join(' ')));
    index.add('empty', minhash(''));
    const similar = index.similarPairs(0.8);
    expect(similar.map((p) => [p.a, p.b])).toEqual([['orig', 'copy']]);
    expect(similar[0].jaccard).toBeGreaterThan(0.8);
    expect(index.query(minhash(base.join(' ')), 'orig')).toContain('copy');
    expect(() => index.add('orig', minhash('x'))).toThrow(/already/);
    expect(() => new LshIndex(0, 4)).toThrow(/positive/);
  });
});
