// 64-bit SimHash of a text over word shingles: the content fingerprint of pith's JSON results.
// Pure, no dependencies, no Node or Web APIs: 32-bit integer arithmetic only (two 32-bit halves), so the value
// computed in Node equals the one computed in workerd, on any platform.
//
// Why SimHash (and not the MinHash signature of ./minhash.ts) in every JSON answer:
// - compact: 64 bits, written as 16 hex digits, fits a database BIGINT or a short string column; a 128-slot
//   MinHash signature is 512 bytes (684 in base64) on every answer;
// - cheap: one pass over the words (about 0.11 ms for 1,000 words in Node, 4x less than a 128-slot MinHash over
//   character shingles: `npx tsx eval/bench-fingerprint.ts`), and /v1/extract answers JSON by default;
// - searchable at scale: near-duplicates are fingerprints within a small Hamming distance (<= 3 of 64 bits,
//   Manku, Jain & Das Sarma, WWW 2007), and by the pigeonhole principle two fingerprints that differ in at most
//   3 bits agree exactly on at least one of 4 16-bit bands, so an exact-match index on simhashBands() finds
//   every such pair without comparing all pairs.
// MinHash remains the tool for a graded Jaccard estimate (the training split uses it); it is in ./minhash.ts.
//
// Method (Charikar 2002): the text is normalised (NFC, lower case) and cut into words (runs of letters, digits
// and marks; each Han, Hiragana or Katakana character is a word of its own, since those scripts do not space
// words). Every run of SHINGLE_WORDS consecutive words (a shorter text is one shingle) gets a 64-bit hash;
// bit i of the fingerprint is 1 when more than half of the shingle hashes have bit i set (a tie takes the first
// shingle's bit). Similar texts share most shingles, so most of the 64 votes come out the same: the expected
// share of differing bits is angle/pi, the angle between the two texts' shingle-count vectors.
//
// What the distance means (synthetic 500-word texts, mean of 200; test/node/fingerprint/simhash.test.ts): the
// same text with other whitespace, case or punctuation is 0; one word in 1,000 replaced about 1 bit; one in 200
// about 3; one in 100 about 5; one in 20 about 11; unrelated texts 32 (64 fair coin flips; the closest of 500
// pairs was 19). A random pair lands within 3 bits with probability 43,745 / 2^64 = 2.4e-15, so even a corpus of a
// million pages (5e11 pairs) expects no false match at the default threshold.

import { fmix32 } from './hash.js';
import type { Fingerprint } from '../../types.js';

/** Words per shingle. 3 keeps word order (a shuffled text is not a duplicate) while one edit touches 3 shingles. */
export const SHINGLE_WORDS = 3;

/** Hamming distance at or under which two fingerprints are treated as near-duplicates (of 64 bits). */
export const NEAR_DUPLICATE_DISTANCE = 3;

/** Fingerprint of a text without words (empty or only punctuation). */
export const EMPTY_SIMHASH = '0000000000000000';

const SIMHASH_FORMAT = /^[0-9a-f]{16}$/;

// A word character is a letter, digit or mark (what /[\p{L}\p{N}\p{M}]/u matches). The scan below asks that regular
// expression once per distinct character and remembers the answer, rather than running a global match that makes a
// match array and a substring per word (a tenth of the bytes an extraction allocated, with a fingerprint).
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** Per UTF-16 code unit of the Basic Multilingual Plane: 0 not asked yet, 1 a word character, 2 not one. */
const bmpClass = new Uint8Array(0x10000);
/** Code points above the BMP (written as surrogate pairs), asked once each. */
const astralClass = new Map<number, boolean>();

function isWordCodePoint(cp: number): boolean {
  if (cp < 0x10000) {
    let c = bmpClass[cp];
    if (c === 0) bmpClass[cp] = c = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
    return c === 1;
  }
  let w = astralClass.get(cp);
  if (w === undefined) astralClass.set(cp, (w = WORD_CHAR.test(String.fromCodePoint(cp))));
  return w;
}

/** One murmur3 block step: folds the 32-bit value k into the running hash h. */
function mixIn(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

// Seeds of the two halves of a shingle's 64-bit hash (fixed: changing them changes every stored fingerprint).
const SEED_HI = 0x2545f491;
const SEED_LO = 0x9e3779b9;

/** FNV-1a over the UTF-16 code units s[from, to), mixed. */
function hashRange(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h >>> 0);
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff)
  );
}

/** Calls `visit` with the 32-bit hash of every word of a text, in order (see the top of this file for what a word is). */
function eachWordHash(text: string, visit: (hash: number) => void): void {
  const s = text.normalize('NFC').toLowerCase();
  const n = s.length;
  let i = 0;
  while (i < n) {
    // Skip to the start of a run of word characters (code points: a surrogate pair is one character; a lone
    // surrogate is none).
    while (i < n) {
      const width = codePointWidth(s, i);
      if (isWordAt(s, i, width)) break;
      i += width;
    }
    // The run goes on while characters are word characters; each Han, Hiragana or Katakana character in it is a
    // word of its own, and splits the run.
    let runStart = i;
    while (i < n) {
      const width = codePointWidth(s, i);
      if (!isWordAt(s, i, width)) break;
      if (width === 1 && isCjk(s.charCodeAt(i))) {
        if (i > runStart) visit(hashRange(s, runStart, i));
        visit(hashRange(s, i, i + 1));
        runStart = i + 1;
      }
      i += width;
    }
    if (i > runStart) visit(hashRange(s, runStart, i));
  }
}

/** Whether the character at s[i], `width` code units long, is a word character. */
function isWordAt(s: string, i: number, width: number): boolean {
  return isWordCodePoint(width === 2 ? s.codePointAt(i)! : s.charCodeAt(i));
}

/** 2 where s[i] starts a surrogate pair, else 1. */
function codePointWidth(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

/** 32-bit hashes of the words of a text, in order (see the top of this file for what a word is). */
export function wordHashes(text: string): Uint32Array {
  const out: number[] = [];
  eachWordHash(text, (h) => out.push(h));
  return Uint32Array.from(out);
}

/**
 * SimHash over word hashes fed one at a time: keeps the last `shingleWords` words and the 64 bit counts, never the
 * whole sequence (a page of 3.5 million CJK characters is 3.5 million words). A sequence shorter than `shingleWords`
 * is one shingle of all its words.
 */
class SimhashAccumulator {
  /** The last `shingleWords` words (empty only while no word has come). */
  private readonly recent: number[] = [];
  private shingles = 0;
  // ones[b] counts the shingle hashes with bit b set: [0, 32) of the high half, [32, 64) of the low half.
  private readonly ones = new Int32Array(64);
  // An exact tie (as many shingle hashes with the bit as without) takes the bit of the first shingle's hash:
  // a fixed 0 would bias short texts towards 0 bits (and towards each other).
  private tieHi = 0;
  private tieLo = 0;

  constructor(private readonly shingleWords: number) {}

  add(word: number): void {
    this.recent.push(word);
    if (this.recent.length > this.shingleWords) this.recent.shift();
    if (this.recent.length === this.shingleWords) this.addShingle(this.recent);
  }

  private addShingle(words: readonly number[]): void {
    const width = words.length;
    let hi = SEED_HI;
    let lo = SEED_LO;
    for (let i = 0; i < width; i++) {
      hi = mixIn(hi, words[i]);
      lo = mixIn(lo, words[i]);
    }
    hi = fmix32((hi ^ width) >>> 0);
    lo = fmix32((lo ^ width) >>> 0);
    if (this.shingles === 0) {
      this.tieHi = hi;
      this.tieLo = lo;
    }
    this.shingles++;
    for (let b = 0; b < 32; b++) {
      this.ones[b] += (hi >>> b) & 1;
      this.ones[32 + b] += (lo >>> b) & 1;
    }
  }

  /** [hi, lo] unsigned 32-bit halves; [0, 0] for no words. */
  result(): [number, number] {
    if (this.recent.length === 0) return [0, 0];
    if (this.shingles === 0) this.addShingle(this.recent); // fewer words than a shingle: one shingle of them all
    let hi = 0;
    let lo = 0;
    for (let b = 0; b < 32; b++) {
      const voteHi = 2 * this.ones[b] - this.shingles;
      const voteLo = 2 * this.ones[32 + b] - this.shingles;
      if (voteHi > 0 || (voteHi === 0 && (this.tieHi >>> b) & 1)) hi |= 1 << b;
      if (voteLo > 0 || (voteLo === 0 && (this.tieLo >>> b) & 1)) lo |= 1 << b;
    }
    return [hi >>> 0, lo >>> 0];
  }
}

/** 64-bit SimHash of a sequence of word hashes, as [hi, lo] unsigned 32-bit halves. [0, 0] for no words. */
export function simhashOfWords(words: ArrayLike<number>, shingleWords = SHINGLE_WORDS): [number, number] {
  const acc = new SimhashAccumulator(shingleWords);
  for (let i = 0; i < words.length; i++) acc.add(words[i]);
  return acc.result();
}

const hex8 = (x: number): string => x.toString(16).padStart(8, '0');

/**
 * 64-bit SimHash of a text as 16 lower-case hex digits (most significant first). Deterministic and the same
 * in every runtime. A text without words gives EMPTY_SIMHASH. Compare two with hammingDistance().
 */
export function simhash(text: string): string {
  const acc = new SimhashAccumulator(SHINGLE_WORDS);
  eachWordHash(text, (h) => acc.add(h));
  const [hi, lo] = acc.result();
  return hex8(hi) + hex8(lo);
}

function checkSimhash(value: string, name: string): void {
  if (typeof value !== 'string' || !SIMHASH_FORMAT.test(value)) {
    throw new Error(`${name} "${String(value).slice(0, 40)}" is not a SimHash: expected 16 lower-case hex digits as in fingerprint.simhash`);
  }
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of differing bits (0..64) of two SimHash values. Throws on a value that is not 16 hex digits. */
export function hammingDistance(a: string, b: string): number {
  checkSimhash(a, 'a');
  checkSimhash(b, 'b');
  const hiA = parseInt(a.slice(0, 8), 16);
  const loA = parseInt(a.slice(8), 16);
  const hiB = parseInt(b.slice(0, 8), 16);
  const loB = parseInt(b.slice(8), 16);
  return popcount32((hiA ^ hiB) >>> 0) + popcount32((loA ^ loB) >>> 0);
}

/** True when two SimHash values are within `maxDistance` bits (default NEAR_DUPLICATE_DISTANCE = 3). */
export function isNearDuplicate(a: string, b: string, maxDistance = NEAR_DUPLICATE_DISTANCE): boolean {
  return hammingDistance(a, b) <= maxDistance;
}

/**
 * Index keys for finding near-duplicates without comparing all pairs: the fingerprint cut into `bands` equal
 * bands (1, 2, 4, 8 or 16), each key "<band>:<its hex digits>". Two fingerprints within bands - 1 bits share at
 * least one key (pigeonhole), so with the default 4 bands every pair within NEAR_DUPLICATE_DISTANCE is found
 * by looking up equal keys; then confirm candidates with hammingDistance().
 */
export function simhashBands(value: string, bands = NEAR_DUPLICATE_DISTANCE + 1): string[] {
  checkSimhash(value, 'value');
  if (![1, 2, 4, 8, 16].includes(bands)) throw new Error(`bands must be 1, 2, 4, 8 or 16 (it must divide 16 hex digits), got ${bands}`);
  const width = 16 / bands;
  const keys: string[] = new Array(bands);
  for (let i = 0; i < bands; i++) keys[i] = `${i}:${value.slice(i * width, (i + 1) * width)}`;
  return keys;
}

/** The fingerprint object of pith's results (Extraction.fingerprint, the JSON "fingerprint" field). */
export function fingerprintOf(text: string): Fingerprint {
  return { simhash: simhash(text) };
}
