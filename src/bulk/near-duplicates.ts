// Near-duplicate clusters over extracted texts: MinHash signatures (src/fingerprint/minhash.ts, the method the
// training split uses), LSH banding for candidate pairs, the estimated Jaccard similarity to confirm them, and
// connected components for clusters. Pure.
//
// Parameters (README, "Near-duplicate clusters"): 5-character shingles of the normalised text, 128 hash functions,
// 32 bands of 4 rows, a pair is a near-duplicate when its estimated Jaccard similarity is at least 0.8. Texts of
// fewer than MIN_SHINGLES shingles (about 50 characters) are not clustered: there is too little text to compare.

import { LshIndex, minhashOfShingles, shingleHashes, DEFAULT_MINHASH_OPTIONS } from '../fingerprint/minhash.js';

export const NEAR_DUPLICATE_PARAMS = Object.freeze({
  shingleSize: DEFAULT_MINHASH_OPTIONS.shingleSize,
  numHashes: DEFAULT_MINHASH_OPTIONS.numHashes,
  bands: 32,
  rows: 4,
  threshold: 0.8,
  minShingles: 50,
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
  /** Members in the order they were added. */
  ids: Id[];
  /** Smallest estimated Jaccard similarity among the confirmed pairs that join the cluster. */
  minJaccard: number;
}

/**
 * Clusters of near-duplicates among `items` (id + signature, in a stable order). Each cluster has at least two
 * members; clusters are ordered by their first member.
 */
export function clusterSignatures<Id extends string | number>(items: Iterable<{ id: Id; sig: Uint32Array }>): NearDuplicateCluster<Id>[] {
  const index = new LshIndex<Id>(NEAR_DUPLICATE_PARAMS.bands, NEAR_DUPLICATE_PARAMS.rows);
  const order = new Map<Id, number>();
  for (const { id, sig } of items) {
    index.add(id, sig);
    order.set(id, order.size);
  }
  // Union-find over confirmed pairs.
  const parent = new Map<Id, Id>();
  const find = (x: Id): Id => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    let cur = x;
    while (cur !== root) {
      const next = parent.get(cur)!;
      parent.set(cur, root);
      cur = next;
    }
    return root;
  };
  const minOfRoot = new Map<Id, number>();
  for (const { a, b, jaccard } of index.similarPairs(NEAR_DUPLICATE_PARAMS.threshold)) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    const low = Math.min(jaccard, minOfRoot.get(ra) ?? 1, minOfRoot.get(rb) ?? 1);
    // The earlier id stays the root, so clusters come out in input order.
    const [root, child]: [Id, Id] = order.get(ra)! <= order.get(rb)! ? [ra, rb] : [rb, ra];
    parent.set(child, root);
    minOfRoot.set(root, low);
  }
  const clusters = new Map<Id, NearDuplicateCluster<Id>>();
  for (const id of order.keys()) {
    if (!parent.has(id)) continue;
    const root = find(id);
    let cluster = clusters.get(root);
    if (cluster === undefined) {
      cluster = { ids: [], minJaccard: minOfRoot.get(root) ?? 1 };
      clusters.set(root, cluster);
    }
    cluster.ids.push(id);
  }
  return [...clusters.values()].sort((p, q) => order.get(p.ids[0])! - order.get(q.ids[0])!);
}
