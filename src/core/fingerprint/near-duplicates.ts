// Near-duplicate clusters over extracted texts: MinHash signatures (src/core/fingerprint/minhash.ts, the method the
// training split uses), LSH banding for candidate pairs, the estimated Jaccard similarity to confirm them, and
// connected components for clusters. Pure. The bulk jobs' /duplicates and `pith duplicates` both cluster here, over
// thousands to millions of pages: one band at a time, as a sorted array rather than a map of buckets, in bounded
// work per page (bucketWindow).
//
// Parameters (docs/bulk.md): 5-character shingles of the normalised text, 128 hash functions,
// 32 bands of 4 rows, a pair is a near-duplicate when its estimated Jaccard similarity is at least 0.8. Texts of
// fewer than MIN_SHINGLES shingles (about 50 characters) are not clustered: there is too little text to compare.

import { fmix32 } from './hash.js';
import { DEFAULT_MINHASH_OPTIONS, estimateJaccard, isEmptySignature, minhashOfShingles, shingleHashes } from './minhash.js';

export const NEAR_DUPLICATE_PARAMS = Object.freeze({
  shingleSize: DEFAULT_MINHASH_OPTIONS.shingleSize,
  numHashes: DEFAULT_MINHASH_OPTIONS.numHashes,
  bands: 32,
  rows: 4,
  threshold: 0.8,
  minShingles: 50,
  /**
   * Each signature is compared with at most this many signatures before it (input order) that share its band: all
   * pairs of a band's bucket while it holds up to 33 distinct signatures, fewer beyond; pairs already in one cluster
   * are not compared again. Bounds the work on thousands of alike pages (one template, a few words apart), where
   * every pair shares every band.
   */
  bucketWindow: 32,
});

/** MinHash signature of a text for clustering, or null when the text is too short to compare. */
export function signatureOf(text: string): Uint32Array | null {
  const shingles = shingleHashes(text, NEAR_DUPLICATE_PARAMS.shingleSize);
  if (shingles.length < NEAR_DUPLICATE_PARAMS.minShingles) return null;
  return minhashOfShingles(shingles, NEAR_DUPLICATE_PARAMS.numHashes);
}

const HEX = '0123456789abcdef';

/** A signature as hex (8 digits per slot), for storage. */
export function encodeSignature(sig: Uint32Array): string {
  let out = '';
  for (let i = 0; i < sig.length; i++) {
    const v = sig[i];
    for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(v >>> shift) & 15];
  }
  return out;
}

/** The inverse of encodeSignature; throws on text that is not one. */
export function decodeSignature(hex: string): Uint32Array {
  if (hex.length !== NEAR_DUPLICATE_PARAMS.numHashes * 8 || !/^[0-9a-f]+$/.test(hex)) {
    throw new Error(`not a stored MinHash signature (${hex.length} characters, expected ${NEAR_DUPLICATE_PARAMS.numHashes * 8} hex digits)`);
  }
  const sig = new Uint32Array(NEAR_DUPLICATE_PARAMS.numHashes);
  for (let i = 0; i < sig.length; i++) sig[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16) >>> 0;
  return sig;
}

export interface NearDuplicateCluster<Id> {
  /** Members in input order. */
  ids: Id[];
  /**
   * Smallest estimated Jaccard similarity among the pairs that joined the members into one cluster (1 when they all
   * have the same signature). A cluster is a chain of such pairs: two members need not be that alike themselves.
   */
  minJaccard: number;
}

const KEY_SPAN = 2 ** 29; // sort keys: band hash (24 bits) · 2^29 + position among the distinct signatures

/**
 * Clusters of near-duplicates among `items` (id + signature, in input order): the connected components of the pairs
 * that share a band of NEAR_DUPLICATE_PARAMS and whose estimated Jaccard similarity reaches its threshold. Each
 * cluster has at least two members; clusters are ordered by their first member. Memory: the signatures, plus 8 bytes
 * per distinct signature for one band at a time; identical signatures (the same text) are grouped first and compared
 * once.
 */
export function clusterSignatures<Id extends string | number>(items: Iterable<{ id: Id; sig: Uint32Array }>): NearDuplicateCluster<Id>[] {
  const { bands, rows, numHashes, threshold, bucketWindow } = NEAR_DUPLICATE_PARAMS;
  const ids: Id[] = [];
  const sigs: Uint32Array[] = [];
  for (const { id, sig } of items) {
    if (sig.length !== numHashes) throw new Error(`a signature has ${sig.length} slots, clustering needs ${numHashes}`);
    ids.push(id);
    sigs.push(sig);
  }
  const n = sigs.length;
  const parent = new Int32Array(n).map((_, i) => i);
  const low = new Float64Array(n).fill(1); // per root: smallest similarity that joined its cluster
  const find = (x: number): number => {
    let root = x;
    while (parent[root] !== root) root = parent[root];
    while (parent[x] !== root) {
      const next = parent[x];
      parent[x] = root;
      x = next;
    }
    return root;
  };
  const join = (a: number, b: number, jaccard: number): void => {
    const ra = find(a);
    const rb = find(b);
    const [root, child] = ra < rb ? [ra, rb] : [rb, ra]; // the earliest member is the root
    parent[child] = root;
    low[root] = Math.min(jaccard, low[root], low[child]);
  };

  // The same signature twice is the same shingle set (as far as MinHash can tell): one cluster, compared once.
  const distinct: number[] = [];
  const firstOf = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (isEmptySignature(sigs[i])) continue;
    const h = signatureHash(sigs[i]);
    const same = firstOf.get(h);
    const twin = same?.find((j) => sameSlots(sigs[i], sigs[j], 0, numHashes));
    if (twin !== undefined) {
      join(twin, i, 1);
      continue;
    }
    if (same === undefined) firstOf.set(h, [i]);
    else same.push(i);
    distinct.push(i);
  }
  firstOf.clear();
  if (distinct.length >= KEY_SPAN) throw new Error(`at most ${KEY_SPAN - 1} distinct signatures can be clustered at once, got ${distinct.length}`);

  const keys = new Float64Array(distinct.length);
  const compare = (a: number, b: number): void => {
    if (find(a) === find(b)) return;
    const jaccard = estimateJaccard(sigs[a], sigs[b]);
    if (jaccard >= threshold) join(a, b, jaccard);
  };
  for (let band = 0; band < bands; band++) {
    const from = band * rows;
    for (let k = 0; k < distinct.length; k++) keys[k] = (bandHash(sigs[distinct[k]], from, rows) >>> 8) * KEY_SPAN + k;
    keys.sort();
    // A run of equal band hashes holds one or more buckets (signatures with equal rows), members in input order.
    for (let start = 0; start < keys.length; ) {
      const hash = Math.floor(keys[start] / KEY_SPAN);
      let end = start + 1;
      while (end < keys.length && Math.floor(keys[end] / KEY_SPAN) === hash) end++;
      if (end - start > 1) {
        const buckets: number[][] = [];
        for (let k = start; k < end; k++) {
          const i = distinct[keys[k] % KEY_SPAN];
          const bucket = buckets.find((b) => sameSlots(sigs[b[0]], sigs[i], from, from + rows));
          if (bucket === undefined) buckets.push([i]);
          else {
            for (let back = 1; back <= bucketWindow && back <= bucket.length; back++) compare(bucket[bucket.length - back], i);
            bucket.push(i);
          }
        }
      }
      start = end;
    }
  }

  // A root is its cluster's first member, so the clusters come out ordered by it.
  const size = new Int32Array(n);
  for (let i = 0; i < n; i++) size[find(i)]++;
  const clusters = new Map<number, NearDuplicateCluster<Id>>();
  for (let i = 0; i < n; i++) {
    const root = parent[i];
    if (size[root] < 2) continue;
    let cluster = clusters.get(root);
    if (cluster === undefined) clusters.set(root, (cluster = { ids: [], minJaccard: low[root] }));
    cluster.ids.push(ids[i]);
  }
  return [...clusters.values()];
}

function signatureHash(sig: Uint32Array): number {
  let h = 0x9747b28c;
  for (let k = 0; k < sig.length; k++) h = fmix32((h ^ sig[k]) >>> 0);
  return h;
}

function bandHash(sig: Uint32Array, from: number, rows: number): number {
  let h = 0x2545f491;
  for (let k = from; k < from + rows; k++) h = fmix32((h ^ sig[k]) >>> 0);
  return h;
}

function sameSlots(a: Uint32Array, b: Uint32Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (a[k] !== b[k]) return false;
  return true;
}
