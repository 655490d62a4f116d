import { describe, expect, it } from 'vitest';
import {
  blockMetrics,
  countBlocks,
  scorePage,
  snippetShare,
  summarise,
  tokenize,
  wordF1,
  type PageScore,
} from '../../../dev/score.js';

describe('tokenize', () => {
  it('lower-cases and keeps runs of letters, digits and underscore', () => {
    expect(tokenize("The cat's 2 mats, foo_bar!")).toEqual(['the', 'cat', 's', '2', 'mats', 'foo_bar']);
  });

  it('is Unicode-aware like Python re \\w (letters and numbers of any script)', () => {
    expect(tokenize('Straße Café naïve 東京 ١٢٣ ½')).toEqual(['straße', 'café', 'naïve', '東京', '١٢٣', '½']);
  });

  it('splits at combining marks, as Python does (Devanagari vowel signs are not \\w)', () => {
    // Python: re.findall(r'\w+', 'हिन्दी') == ['ह', 'न', 'द']
    expect(tokenize('हिन्दी')).toEqual(['ह', 'न', 'द']);
  });

  it('returns nothing for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- … !')).toEqual([]);
  });
});

describe('wordF1', () => {
  it('uses the multiset overlap of tokens', () => {
    // pred: the cat sat on the mat (6) ; ref: the cat the dog (4) ; overlap: the×2 + cat = 3
    const s = wordF1('The cat sat on the mat.', 'the cat, the dog');
    expect(s.precision).toBeCloseTo(3 / 6, 12);
    expect(s.recall).toBeCloseTo(3 / 4, 12);
    expect(s.f1).toBeCloseTo(0.6, 12);
  });

  it('counts a repeated predicted token only as often as the reference has it', () => {
    // pred: a a a a (4) ; ref: a b (2) ; overlap 1 -> P 1/4, R 1/2, F1 = 2*(1/8)/(3/4) = 1/3
    const s = wordF1('a a a a', 'a b');
    expect(s.precision).toBeCloseTo(0.25, 12);
    expect(s.recall).toBeCloseTo(0.5, 12);
    expect(s.f1).toBeCloseTo(1 / 3, 12);
  });

  it('is 1 for identical token sequences regardless of punctuation and case', () => {
    expect(wordF1('Hello, World!\n\nBye.', 'hello world bye').f1).toBe(1);
  });

  it('is 0 with no overlap', () => {
    expect(wordF1('alpha beta', 'gamma delta')).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('empty reference: 1 when the prediction is empty too, else 0', () => {
    expect(wordF1('', '')).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(wordF1('...', '  ')).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(wordF1('some words', '')).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('empty prediction with a reference scores 0', () => {
    expect(wordF1('', 'the reference')).toEqual({ precision: 0, recall: 0, f1: 0 });
  });
});

describe('snippetShare', () => {
  it('is the share of snippets found as case-insensitive substrings', () => {
    expect(snippetShare('The Quick brown fox jumps', ['quick BROWN', 'lazy dog', 'fox'])).toBeCloseTo(2 / 3, 12);
  });

  it('is null when there are no snippets', () => {
    expect(snippetShare('anything', [])).toBeNull();
  });

  it('does not normalise whitespace (substring test on the raw text)', () => {
    expect(snippetShare('quick\nbrown', ['quick brown'])).toBe(0);
  });
});

describe('blockMetrics', () => {
  it('pools counts over pages (micro average)', () => {
    const c = countBlocks([1, 1, 0, 0], [1, 0, 1, 0]); // tp 1, fp 1, fn 1, tn 1
    countBlocks([1, 1, 1], [1, 1, 0], c); // tp +2, fp +1
    expect(c).toEqual({ tp: 3, fp: 2, tn: 1, fn: 1 });
    const m = blockMetrics(c);
    expect(m.n).toBe(7);
    expect(m.accuracy).toBeCloseTo(4 / 7, 12);
    expect(m.precision).toBeCloseTo(3 / 5, 12);
    expect(m.recall).toBeCloseTo(3 / 4, 12);
    expect(m.f1).toBeCloseTo((2 * 0.6 * 0.75) / 1.35, 12);
  });

  it('returns 0 where a denominator is 0', () => {
    const m = blockMetrics(countBlocks([0, 0], [0, 0]));
    expect(m).toEqual({ n: 2, accuracy: 1, precision: 0, recall: 0, f1: 0 });
  });

  it('rejects label arrays of different lengths', () => {
    expect(() => countBlocks([1], [1, 0])).toThrow(/lengths differ/);
  });
});

describe('summarise', () => {
  const ref = (id: string, pageType: string, mainContent: string, w: string[], wo: string[]) => ({
    id,
    pageType,
    mainContent,
    with: w,
    without: wo,
  });

  it('macro-averages pages overall and per type, skipping pages without snippets in snippet shares', () => {
    const pages: PageScore[] = [
      scorePage('a b c d', ref('1', 'article', 'a b c d', ['a b'], ['menu'])), // f1 1, with 1, without 0
      scorePage('a b menu', ref('2', 'article', 'a b c d', ['c d', 'a'], ['menu', 'login'])), // P 2/3 R 1/2
      scorePage('x', ref('3', 'forum', 'y', [], [])), // f1 0, no snippets
    ];
    const s = summarise(pages);
    const f1Page2 = (2 * (2 / 3) * (1 / 2)) / (2 / 3 + 1 / 2); // 4/7
    expect(pages[1].f1).toBeCloseTo(4 / 7, 12);
    expect(s.n).toBe(3);
    expect(s.f1).toBeCloseTo((1 + f1Page2 + 0) / 3, 12);
    expect(s.withFound).toBeCloseTo((1 + 0.5) / 2, 12);
    expect(s.withoutKept).toBeCloseTo((0 + 0.5) / 2, 12);
    expect(Object.keys(s.byType)).toEqual(['article', 'forum']);
    expect(s.byType.article.n).toBe(2);
    expect(s.byType.article.f1).toBeCloseTo((1 + f1Page2) / 2, 12);
    expect(s.byType.forum.f1).toBe(0);
    expect(s.byType.forum.withFound).toBeNull();
  });
});
