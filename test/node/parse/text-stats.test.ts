import { describe, expect, it } from 'vitest';
import {
  blockTextStats, isBlankText, javaTrim, normaliseWhitespace, paperTextStats, unicodeTextStats, unicodeWords,
  PAPER_STOPWORDS,
} from '../../../src/core/parse/text-stats.js';

describe('text statistics', () => {
  it('blank text is ^[\\p{Z}\\s]*$', () => {
    for (const s of ['', ' ', '\n\t\r\f\v', '\u00a0', '\u2003\u3000', ' \u00a0 ']) expect(isBlankText(s)).toBe(true);
    for (const s of ['a', ' . ', '\u0001', '\u00a0x', '\u3000字']) expect(isBlankText(s)).toBe(false);
  });

  it('normalises like jsoup and trims like Java', () => {
    expect(normaliseWhitespace('  a\n\n b\u00a0 ')).toBe(' a b ');
    expect(javaTrim('\u0001 a b \t')).toBe('a b');
    expect(javaTrim('\u00a0a')).toBe('\u00a0a'); // NBSP is above U+0020
  });

  it('has the 124 reference stop words, case-sensitive', () => {
    expect(PAPER_STOPWORDS.size).toBe(124);
    expect(paperTextStats('The cat and the hat').nStopwords).toBe(2); // "and", "the"; not "The"
  });

  it('counts sentences after . ? ! ; followed by an upper-case letter', () => {
    expect(paperTextStats('One. Two? three! Four; Five').nSentences).toBe(4);
    expect(paperTextStats('').nSentences).toBe(1);
    expect(paperTextStats('e.g. Smith').nSentences).toBe(2);
    expect(unicodeTextStats('一つ。二つ。三つ').uSentences).toBe(3);
  });

  it('splits Unicode words, one per CJK character', () => {
    expect(unicodeWords('Grüße aus München')).toEqual(['Grüße', 'aus', 'München']);
    expect(unicodeWords('東京タワー is tall')).toEqual(['東', '京', 'タ', 'ワ', 'ー', 'is', 'tall']);
    expect(unicodeTextStats('Die Katze und der Hund').uStopwords).toBe(3); // die, und, der
  });

  it('the ASCII fast path equals the regex statistics', () => {
    const samples = [
      'The cat sat. Then, in 2019 it left!', 'mail me: a.b@c.org, or see http://x.org/y?z=1 now', 'x_y __ a1 B2',
      'End; Start. e.g. J. Doe? yes! No', 'Ask?', '© 2020', 'one .Two', 'tabs\u000bAnd', '',
    ];
    for (const t of samples) {
      const got = blockTextStats(t);
      const want = { paper: paperTextStats(t), unicode: unicodeTextStats(t) };
      if (t.includes('©')) {
        expect(got.paper.containsCopyright).toBe(true);
        continue;
      }
      expect(got).toEqual(want);
    }
  });
});
