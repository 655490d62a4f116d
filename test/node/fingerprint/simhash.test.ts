import { describe, expect, it } from 'vitest';
import {
  EMPTY_SIMHASH,
  NEAR_DUPLICATE_DISTANCE,
  SHINGLE_WORDS,
  fingerprintOf,
  hammingDistance,
  isNearDuplicate,
  simhash,
  simhashBands,
  simhashOfWords,
  wordHashes,
} from '../../../src/core/fingerprint/simhash.js';
import { fmix32 } from '../../../src/core/fingerprint/hash.js';
import { mulberry32 as rng } from '../../../dev/rng.js';


// A Zipf-like vocabulary: frequent words repeat, as in prose, so shingles are not all distinct.
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
function randomWords(rand: () => number, n: number): string[] {
  return Array.from({ length: n }, () => VOCABULARY[Math.floor(rand() ** 2 * VOCABULARY.length)]);
}

/** Replaces each word with probability `share` by a new word: a near-duplicate with a controlled distance. */
function replaceWords(words: string[], share: number, rand: () => number): string[] {
  return words.map((w) => (rand() < share ? `zz${Math.floor(rand() * 1e9)}` : w));
}

/** Cosine similarity of the word-shingle count vectors of two texts (what SimHash estimates through the angle). */
function shingleCosine(a: string[], b: string[]): number {
  const counts = (words: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
      const key = words.slice(i, i + SHINGLE_WORDS).join(' ');
      m.set(key, (m.get(key) ?? 0) + 1);
    }
    return m;
  };
  const ca = counts(a);
  const cb = counts(b);
  let dot = 0;
  for (const [k, v] of ca) dot += v * (cb.get(k) ?? 0);
  const norm = (m: Map<string, number>): number => Math.sqrt([...m.values()].reduce((s, v) => s + v * v, 0));
  return dot / (norm(ca) * norm(cb));
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('simhash', () => {
  it('is 16 hex digits, deterministic, and ignores case, whitespace, punctuation and Unicode normal form', () => {
    const text = 'The river town of Averly rebuilt its stone bridge this spring after the winter floods.';
    const h = simhash(text);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(simhash(text)).toBe(h);
    expect(simhash('the  RIVER town of Averly,\nrebuilt its stone bridge -- this spring after the winter floods!')).toBe(h);
    expect(simhash('Das Ma\u0308dchen über die Brücke')).toBe(simhash('Das M\u00e4dchen über die Brücke'));
    expect(fingerprintOf(text)).toEqual({ simhash: h });
    expect(simhash('')).toBe(EMPTY_SIMHASH);
    expect(simhash(' -- !!! ')).toBe(EMPTY_SIMHASH);
    // Short texts (fewer words than a shingle) still get a fingerprint of their own.
    expect(simhash('Averly')).not.toBe(EMPTY_SIMHASH);
    expect(simhash('Averly')).not.toBe(simhash('Bridge'));
    expect(simhash('Averly bridge')).not.toBe(simhash('Averly'));
  });

  it('cuts words at letters and digits, and Han and kana one character per word', () => {
    expect(wordHashes('Hello, world! 2025-11').length).toBe(4);
    expect(wordHashes('東京の天気は晴れです').length).toBe(10);
    expect(wordHashes('pith是工具').length).toBe(4); // "pith", 是, 工, 具
    expect(wordHashes('Привет, мир').length).toBe(2);
    expect(wordHashes('मात्राएँ').length).toBe(1); // combining marks stay in the word
    // A Chinese text with one character changed is a near-duplicate, not an unrelated text.
    const zh = '近重复检测使用最小哈希和局部敏感哈希，在训练之前删除几乎相同的文档，以免验证分数虚高。'.repeat(3);
    expect(hammingDistance(simhash(zh), simhash(zh.replace('删', '去')))).toBeLessThan(16);
  });

  it('words are the runs /[\p{L}\p{N}\p{M}]+/u matches, Han and kana split off, on random text with surrogates', () => {
    // The reference: the regular expression over the whole text, and FNV-1a + fmix32 over each word's code units.
    const hash = (w: string): number => {
      let h = 0x811c9dc5;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
      return fmix32(h >>> 0);
    };
    const reference = (text: string): number[] => {
      const out: number[] = [];
      for (const [run] of text.normalize('NFC').toLowerCase().matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
        for (const w of run.split(/([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])/)) if (w !== '') out.push(hash(w));
      }
      return out;
    };
    // Pieces that reach every branch: ASCII, accents and combining marks, CJK and kana, astral letters and digits,
    // emoji (astral, not letters), lone surrogates of both halves, spaces that are not ASCII.
    const pieces = ['a', 'Z', '9', ' ', '-', 'é', 'e\u0301', '\u0301', '中', 'カ', 'ひ', '\ud83d\ude00', '\ud840\udc00', '\ud835\udfce', '\ud800', '\udc00', 'ß', 'İ', '\u0663', '\u00a0', '\u200b', '한', '\u0e31', '.', '\n'];
    const rand = rng(7);
    for (let t = 0; t < 20_000; t++) {
      let text = '';
      for (let k = 1 + Math.floor(rand() * 16); k > 0; k--) text += pieces[Math.floor(rand() * pieces.length)];
      expect([...wordHashes(text)], JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('near-duplicates: mean distance matches 64·angle/π of the shingle vectors (Charikar), within 4 sigma', () => {
    const rand = rng(11);
    for (const share of [0.002, 0.01, 0.05]) {
      const distances: number[] = [];
      let expectedSum = 0;
      let variance = 0;
      const trials = 150;
      for (let t = 0; t < trials; t++) {
        const a = randomWords(rand, 300 + Math.floor(rand() * 400));
        const b = replaceWords(a, share, rand);
        const p = Math.acos(Math.min(1, shingleCosine(a, b))) / Math.PI; // probability that one bit differs
        expectedSum += 64 * p;
        variance += 64 * p * (1 - p);
        distances.push(hammingDistance(simhash(a.join(' ')), simhash(b.join(' '))));
      }
      const observedSum = distances.reduce((s, d) => s + d, 0);
      expect(Math.abs(observedSum - expectedSum)).toBeLessThanOrEqual(4 * Math.sqrt(variance) + 0.02 * expectedSum);
    }
  });

  it('a few edited words stay within the near-duplicate threshold; more edits move further away', () => {
    const rand = rng(5);
    const trials = 200;
    const byShare = new Map<number, number[]>();
    for (const share of [0.001, 0.01, 0.05, 0.2]) {
      const ds: number[] = [];
      for (let t = 0; t < trials; t++) {
        const a = randomWords(rand, 500);
        ds.push(hammingDistance(simhash(a.join(' ')), simhash(replaceWords(a, share, rand).join(' '))));
      }
      byShare.set(share, ds);
    }
    const within = (ds: number[]): number => ds.filter((d) => d <= NEAR_DUPLICATE_DISTANCE).length / ds.length;
    // One word in 1,000 replaced: mean about 1 bit, most pairs within 3.
    expect(mean(byShare.get(0.001)!)).toBeLessThan(1.5);
    expect(within(byShare.get(0.001)!)).toBeGreaterThan(0.85);
    // One in 20: almost never within 3; one in 5: never.
    expect(within(byShare.get(0.05)!)).toBeLessThan(0.03);
    expect(within(byShare.get(0.2)!)).toBe(0);
    const means = [0.001, 0.01, 0.05, 0.2].map((s) => mean(byShare.get(s)!));
    for (let i = 1; i < means.length; i++) expect(means[i]).toBeGreaterThan(means[i - 1] + 1);
  });

  it('unrelated texts are 64 fair coin flips apart: mean 32 within 4 standard errors, none near', () => {
    const rand = rng(77);
    const ds: number[] = [];
    const pairs = 400;
    for (let t = 0; t < pairs; t++) {
      ds.push(hammingDistance(simhash(randomWords(rand, 400).join(' ')), simhash(randomWords(rand, 400).join(' '))));
    }
    // Binomial(64, 1/2): sd 4 per pair; the mean of 400 has standard error 0.2.
    expect(Math.abs(mean(ds) - 32)).toBeLessThan(4 * (4 / Math.sqrt(pairs)));
    // P(distance <= 10) is about 1e-8 per pair.
    expect(Math.min(...ds)).toBeGreaterThan(10);
    // The same words in another order are not a duplicate: shingles keep word order.
    const words = randomWords(rand, 400);
    const shuffled = [...words].sort(() => rand() - 0.5);
    expect(hammingDistance(simhash(words.join(' ')), simhash(shuffled.join(' ')))).toBeGreaterThan(10);
  });

  it('bits are balanced: over many texts each of the 64 bits is set about half the time', () => {
    const rand = rng(3);
    const n = 1000;
    const ones = new Array<number>(64).fill(0);
    for (let t = 0; t < n; t++) {
      const h = BigInt(`0x${simhash(randomWords(rand, 50).join(' '))}`);
      for (let b = 0; b < 64; b++) if ((h >> BigInt(b)) & 1n) ones[b]++;
    }
    // Binomial(1000, 1/2): sd 15.8; 5 sigma on any of 64 bits.
    for (const count of ones) expect(Math.abs(count - n / 2)).toBeLessThan(5 * Math.sqrt(n / 4));
  });

  it('simhashOfWords gives [0, 0] for no words and unsigned 32-bit halves', () => {
    expect(simhashOfWords([])).toEqual([0, 0]);
    const [hi, lo] = simhashOfWords(wordHashes('a b c d e f g'));
    for (const half of [hi, lo]) {
      expect(Number.isInteger(half)).toBe(true);
      expect(half).toBeGreaterThanOrEqual(0);
      expect(half).toBeLessThan(2 ** 32);
    }
  });
});

describe('hammingDistance and simhashBands', () => {
  const randomHash = (rand: () => number): string =>
    Array.from({ length: 16 }, () => Math.floor(rand() * 16).toString(16)).join('');
  const flipBits = (h: string, bits: number[]): string => {
    let x = BigInt(`0x${h}`);
    for (const b of bits) x ^= 1n << BigInt(b);
    return x.toString(16).padStart(16, '0');
  };

  it('counts differing bits exactly (checked against BigInt)', () => {
    const rand = rng(21);
    for (let t = 0; t < 500; t++) {
      const a = randomHash(rand);
      const b = randomHash(rand);
      let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
      let count = 0;
      for (; x > 0n; x >>= 1n) count += Number(x & 1n);
      expect(hammingDistance(a, b)).toBe(count);
    }
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(isNearDuplicate('0000000000000007', '0000000000000000')).toBe(true);
    expect(isNearDuplicate('000000000000000f', '0000000000000000')).toBe(false);
    expect(isNearDuplicate('000000000000000f', '0000000000000000', 4)).toBe(true);
  });

  it('refuses values that are not 16 hex digits, saying what is expected', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow(/16 lower-case hex digits/);
    expect(() => hammingDistance('0000000000000000', 'ZZZZZZZZZZZZZZZZ')).toThrow(/not a SimHash/);
    expect(() => simhashBands('0000000000000000', 3)).toThrow(/bands must be/);
  });

  it('pigeonhole: fingerprints within 3 bits always share one of the 4 band keys; far ones rarely do', () => {
    const rand = rng(8);
    for (let t = 0; t < 2000; t++) {
      const a = randomHash(rand);
      const k = Math.floor(rand() * 4); // 0..3 flipped bits
      const bits = new Set<number>();
      while (bits.size < k) bits.add(Math.floor(rand() * 64));
      const b = flipBits(a, [...bits]);
      expect(hammingDistance(a, b)).toBe(k);
      const keysA = new Set(simhashBands(a));
      expect(simhashBands(b).some((key) => keysA.has(key))).toBe(true);
    }
    expect(simhashBands('0123456789abcdef')).toEqual(['0:0123', '1:4567', '2:89ab', '3:cdef']);
    expect(simhashBands('0123456789abcdef', 8)).toHaveLength(8);
    // Unrelated fingerprints share a 16-bit band with probability about 4/65536.
    let shared = 0;
    for (let t = 0; t < 2000; t++) {
      const keysA = new Set(simhashBands(randomHash(rand)));
      if (simhashBands(randomHash(rand)).some((key) => keysA.has(key))) shared++;
    }
    expect(shared).toBeLessThan(5);
  });
});
