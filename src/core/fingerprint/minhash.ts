// MinHash signatures of character shingles, and LSH banding to find near-duplicate texts.
// Pure, no dependencies, deterministic (fixed seeds, 32-bit integer arithmetic only), so a signature computed in
// Node equals the one computed in workerd.
//
// Jaccard similarity J(A, B) = |A ∩ B| / |A ∪ B| of the shingle sets. With k independent hash functions h_i,
// P[min h_i(A) = min h_i(B)] = J, so the share of equal signature slots estimates J with standard deviation
// sqrt(J(1-J)/k) ≤ 1/(2·sqrt(k)). LSH cuts the signature into b bands of r rows; two texts become a candidate pair
// when any band is equal, which happens with probability 1 - (1 - J^r)^b (an S-curve with its steep part near
// (1/b)^(1/r)).

import { fmix32 } from './hash.js';
export interface MinHashOptions {
  /** Shingle length in characters (after normalisation). */
  shingleSize: number;
  /** Number of hash functions = signature length. */
  numHashes: number;
  /** Seed of the hash family; signatures are comparable only under the same seed and numHashes. */
  seed: number;
}

export const DEFAULT_MINHASH_OPTIONS: Readonly<MinHashOptions> = Object.freeze({
  shingleSize: 5,
  numHashes: 128,
  seed: 0x9e3779b9,
});

/** Lower-case, collapse whitespace runs to one space, trim: what the shingles are taken over. */
export function normaliseForShingles(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** splitmix32 stream of seeds. */
function seedStream(seed: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let state = seed >>> 0;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b9) >>> 0;
    out[i] = fmix32(state);
  }
  return out;
}

/**
 * Distinct 32-bit hashes of the character n-grams of the normalised text (FNV-1a over UTF-16 code units, then
 * mixed), in ascending order. A text shorter than n gives one shingle (itself); an empty text gives none. (Sorted in
 * a typed array rather than gathered in a Set: most of these hashes are above V8's small integers, and a Set of them
 * took 40% longer over the WCXB dev texts.)
 */
export function shingleHashes(text: string, shingleSize = DEFAULT_MINHASH_OPTIONS.shingleSize): Uint32Array {
  const s = normaliseForShingles(text);
  if (s.length === 0) return new Uint32Array(0);
  const n = Math.max(1, Math.min(shingleSize, s.length));
  const all = new Uint32Array(s.length - n + 1);
  for (let i = 0; i < all.length; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < i + n; j++) {
      h ^= s.charCodeAt(j);
      h = Math.imul(h, 0x01000193);
    }
    all[i] = fmix32(h >>> 0);
  }
  all.sort();
  let kept = 0;
  for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[kept++] = all[k];
  return all.slice(0, kept);
}

const familyCache = new Map<string, Uint32Array>();
function hashFamily(numHashes: number, seed: number): Uint32Array {
  const key = `${numHashes}:${seed >>> 0}`;
  let family = familyCache.get(key);
  if (!family) {
    family = seedStream(seed, numHashes);
    familyCache.set(key, family);
  }
  return family;
}

/**
 * MinHash signature of a set of shingle hashes: slot i = min over the set of fmix32(x ^ seed_i).
 * An empty set gives all slots 0xffffffff (the EMPTY signature; compare with isEmptySignature).
 */
export function minhashOfShingles(
  shingles: ArrayLike<number>,
  numHashes = DEFAULT_MINHASH_OPTIONS.numHashes,
  seed = DEFAULT_MINHASH_OPTIONS.seed,
): Uint32Array {
  const family = hashFamily(numHashes, seed);
  const sig = new Uint32Array(numHashes);
  // Slot by slot, so that the running minimum stays in a register (a fifth faster than shingle by shingle).
  for (let i = 0; i < numHashes; i++) {
    const f = family[i];
    let min = 0xffffffff;
    for (let s = 0; s < shingles.length; s++) {
      const h = fmix32((shingles[s] ^ f) >>> 0);
      if (h < min) min = h;
    }
    sig[i] = min;
  }
  return sig;
}

/** MinHash signature of a text ([numHashes] uint32). */
export function minhash(text: string, options: Partial<MinHashOptions> = {}): Uint32Array {
  const o = { ...DEFAULT_MINHASH_OPTIONS, ...options };
  return minhashOfShingles(shingleHashes(text, o.shingleSize), o.numHashes, o.seed);
}

/** True for the signature of an empty text. */
export function isEmptySignature(sig: Uint32Array): boolean {
  for (let i = 0; i < sig.length; i++) if (sig[i] !== 0xffffffff) return false;
  return true;
}

/** Estimated Jaccard similarity: share of equal slots. Two empty signatures give 0 (nothing to compare). */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) {
    throw new Error(`MinHash signatures differ in length (${a.length} vs ${b.length}): compute both with the same numHashes`);
  }
  if (a.length === 0 || (isEmptySignature(a) && isEmptySignature(b))) return 0;
  let equal = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) equal++;
  return equal / a.length;
}

/** Exact Jaccard similarity of two shingle sets (for tests and small inputs). */
export function exactJaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const sa = new Set(Array.from(a));
  const sb = new Set(Array.from(b));
  if (sa.size === 0 && sb.size === 0) return 0;
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/** Probability that LSH with `bands` bands of `rows` rows makes a pair of similarity `jaccard` a candidate. */
export function lshCandidateProbability(jaccard: number, bands: number, rows: number): number {
  return 1 - Math.pow(1 - Math.pow(jaccard, rows), bands);
}

/** Similarity where the LSH S-curve is steepest, about (1/bands)^(1/rows). */
export function lshThreshold(bands: number, rows: number): number {
  return Math.pow(1 / bands, 1 / rows);
}

/** Key of band `band` (rows [band·rows, (band+1)·rows)) of a signature. */
export function bandKey(sig: Uint32Array, band: number, rows: number): string {
  let key = `${band}:`;
  for (let i = band * rows; i < (band + 1) * rows; i++) key += sig[i].toString(36) + ',';
  return key;
}

/** LSH index: add signatures under ids, then list the candidate pairs (ids that share at least one band). */
export class LshIndex<Id extends string | number = string> {
  private readonly buckets = new Map<string, Id[]>();
  private readonly signatures = new Map<Id, Uint32Array>();

  constructor(
    readonly bands: number,
    readonly rows: number,
  ) {
    if (!Number.isInteger(bands) || !Number.isInteger(rows) || bands < 1 || rows < 1) {
      throw new Error(`LSH needs positive integer bands and rows, got bands=${bands} rows=${rows}`);
    }
  }

  /** Add a signature (length must be at least bands·rows; empty signatures are not indexed). */
  add(id: Id, sig: Uint32Array): void {
    if (sig.length < this.bands * this.rows) {
      throw new Error(`signature has ${sig.length} slots but LSH needs bands·rows = ${this.bands * this.rows}`);
    }
    if (this.signatures.has(id)) throw new Error(`LSH index already holds id ${String(id)}`);
    this.signatures.set(id, sig);
    if (isEmptySignature(sig)) return;
    for (let b = 0; b < this.bands; b++) {
      const key = bandKey(sig, b, this.rows);
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(id);
      else this.buckets.set(key, [id]);
    }
  }

  /** Ids sharing a band with `sig` (excluding `exclude`). */
  query(sig: Uint32Array, exclude?: Id): Id[] {
    const out = new Set<Id>();
    if (isEmptySignature(sig)) return [];
    for (let b = 0; b < this.bands; b++) {
      for (const id of this.buckets.get(bandKey(sig, b, this.rows)) ?? []) if (id !== exclude) out.add(id);
    }
    return [...out];
  }

  /** All candidate pairs [a, b] (each once, in insertion order of a then b). */
  candidatePairs(): [Id, Id][] {
    const order = new Map<Id, number>();
    for (const id of this.signatures.keys()) order.set(id, order.size);
    const seen = new Set<string>();
    const pairs: [Id, Id][] = [];
    for (const bucket of this.buckets.values()) {
      for (let i = 0; i < bucket.length; i++) {
        for (let j = i + 1; j < bucket.length; j++) {
          let a = bucket[i];
          let b = bucket[j];
          if (order.get(a)! > order.get(b)!) [a, b] = [b, a];
          const key = `${order.get(a)}|${order.get(b)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          pairs.push([a, b]);
        }
      }
    }
    return pairs.sort((p, q) => order.get(p[0])! - order.get(q[0])! || order.get(p[1])! - order.get(q[1])!);
  }

  /** Candidate pairs whose estimated Jaccard is at least `threshold`, with the estimate. */
  similarPairs(threshold: number): { a: Id; b: Id; jaccard: number }[] {
    const out: { a: Id; b: Id; jaccard: number }[] = [];
    for (const [a, b] of this.candidatePairs()) {
      const j = estimateJaccard(this.signatures.get(a)!, this.signatures.get(b)!);
      if (j >= threshold) out.push({ a, b, jaccard: j });
    }
    return out;
  }
}
