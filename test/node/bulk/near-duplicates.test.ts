import { describe, expect, it } from 'vitest';
import { clusterSignatures, decodeSignature, encodeSignature, NEAR_DUPLICATE_PARAMS, signatureOf } from '../../../src/core/fingerprint/near-duplicates.js';
import { estimateJaccard, isEmptySignature } from '../../../src/core/fingerprint/minhash.js';
import { articleSentences } from '../../../dev/bulk-pages.js';
import { mulberry32 } from '../../../dev/rng.js';

describe('near-duplicate clusters', () => {
  it('groups texts that differ in one sentence of twenty and nothing else', () => {
    const texts: string[] = [];
    const groups: number[][] = [];
    for (let g = 0; g < 4; g++) {
      const base = articleSentences(100 + g);
      const members: number[] = [];
      for (let k = 0; k < 3; k++) {
        const s = [...base];
        if (k > 0) s[k * 5] = articleSentences(900 + g * 10 + k)[0];
        members.push(texts.length);
        texts.push(s.join(' '));
      }
      groups.push(members);
    }
    for (let u = 0; u < 20; u++) texts.push(articleSentences(5000 + u).join(' '));
    const items = texts.map((t, id) => ({ id, sig: signatureOf(t)! }));
    const clusters = clusterSignatures(items);
    expect(clusters.map((c) => c.ids)).toEqual(groups);
    for (const c of clusters) expect(c.minJaccard).toBeGreaterThanOrEqual(0.8);
  });

  it('does not sign texts too short to compare, and round-trips signatures', () => {
    expect(signatureOf('Too short.')).toBeNull();
    const sig = signatureOf(articleSentences(1).join(' '))!;
    expect(Array.from(decodeSignature(encodeSignature(sig)))).toEqual(Array.from(sig));
    expect(() => decodeSignature('abc')).toThrow(/not a stored MinHash signature/);
  });
});

const SLOTS = NEAR_DUPLICATE_PARAMS.numHashes;

/** A copy of `base` with `changed` of its slots (chosen at random) set to new random values. */
function variant(base: Uint32Array, changed: number, next: () => number): Uint32Array {
  const sig = base.slice();
  for (let k = 0; k < changed; k++) sig[Math.floor(next() * SLOTS)] = Math.floor(next() * 2 ** 32) >>> 0;
  return sig;
}

const randomSignature = (next: () => number): Uint32Array => Uint32Array.from({ length: SLOTS }, () => Math.floor(next() * 2 ** 32) >>> 0);

/** The definition, pair by pair: pairs that share a band and reach the threshold, then connected components. */
function allPairsClusters(sigs: Uint32Array[]): number[][] {
  const { bands, rows, threshold } = NEAR_DUPLICATE_PARAMS;
  const component = sigs.map((_, i) => i);
  const rootOf = (i: number): number => (component[i] === i ? i : rootOf(component[i]));
  for (let i = 0; i < sigs.length; i++) {
    for (let j = i + 1; j < sigs.length; j++) {
      if (isEmptySignature(sigs[i]) || isEmptySignature(sigs[j])) continue;
      let shareBand = false;
      for (let b = 0; b < bands && !shareBand; b++) shareBand = sigs[i].subarray(b * rows, (b + 1) * rows).every((v, k) => v === sigs[j][b * rows + k]);
      if (!shareBand || estimateJaccard(sigs[i], sigs[j]) < threshold) continue;
      const [ri, rj] = [rootOf(i), rootOf(j)];
      component[Math.max(ri, rj)] = Math.min(ri, rj);
    }
  }
  const members = new Map<number, number[]>();
  sigs.forEach((_, i) => members.set(rootOf(i), [...(members.get(rootOf(i)) ?? []), i]));
  return [...members.values()].filter((m) => m.length > 1);
}

describe('clustering at scale', () => {
  it('finds the clusters of the all-pairs definition (families from nearly equal to beyond the threshold)', () => {
    const next = mulberry32(12);
    const sigs: Uint32Array[] = [];
    for (let family = 0; family < 60; family++) {
      const base = randomSignature(next);
      const size = 1 + Math.floor(next() * 5);
      // 0 to 50 slots changed: similarities from 1 down to about 0.6 with the base, so some members stay apart
      for (let m = 0; m < size; m++) sigs.push(m === 0 ? base : variant(base, Math.floor(next() * 51), next));
    }
    sigs.push(new Uint32Array(SLOTS).fill(0xffffffff), new Uint32Array(SLOTS).fill(0xffffffff)); // empty: never clustered
    // shuffled, so that families interleave in the input
    for (let i = sigs.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [sigs[i], sigs[j]] = [sigs[j], sigs[i]];
    }
    const expected = allPairsClusters(sigs);
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.some((c) => c.length > 2)).toBe(true);
    const clusters = clusterSignatures(sigs.map((sig, id) => ({ id, sig })));
    expect(clusters.map((c) => c.ids)).toEqual(expected);
    for (const c of clusters) expect(c.minJaccard).toBeGreaterThanOrEqual(NEAR_DUPLICATE_PARAMS.threshold);
  });

  it('puts identical signatures in one cluster at similarity 1, and keeps string ids in input order', () => {
    const next = mulberry32(3);
    const a = randomSignature(next);
    const b = randomSignature(next);
    const clusters = clusterSignatures([
      { id: 'x', sig: a },
      { id: 'y', sig: b },
      { id: 'z', sig: a.slice() },
      { id: 'w', sig: b.slice() },
      { id: 'v', sig: a.slice() },
    ]);
    expect(clusters).toEqual([
      { ids: ['x', 'z', 'v'], minJaccard: 1 },
      { ids: ['y', 'w'], minJaccard: 1 },
    ]);
  });

  it('clusters 20,000 pages of one template in bounded work (each in every band bucket of the others)', () => {
    // The all-pairs way compares 200 million pairs in each of 32 bands here: minutes, and gigabytes for the pairs.
    const next = mulberry32(99);
    const base = randomSignature(next);
    const sigs = Array.from({ length: 20_000 }, () => variant(base, 6, next));
    const clusters = clusterSignatures(sigs.map((sig, id) => ({ id, sig })));
    expect(clusters).toHaveLength(1);
    expect(clusters[0].ids).toEqual(sigs.map((_, i) => i));
    expect(clusters[0].minJaccard).toBeGreaterThanOrEqual(NEAR_DUPLICATE_PARAMS.threshold);
  });

  it('refuses a signature of the wrong length', () => {
    expect(() => clusterSignatures([{ id: 0, sig: new Uint32Array(64) }])).toThrow(/64 slots, clustering needs 128/);
  });
});
