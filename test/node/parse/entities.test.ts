import { describe, expect, it } from 'vitest';
import { decodeCharacterReferences } from '../../../src/core/parse/entities.js';

describe('decodeCharacterReferences', () => {
  it('decodes decimal, hex and the named references it knows, in any case', () => {
    expect(decodeCharacterReferences('Tom &amp; Jerry&#39;s &#x2019;quote&#X2019; &LT;b&gt; &quot;&apos;&nbsp;')).toBe(
      'Tom & Jerry\'s \u2019quote\u2019 <b> "\' ',
    );
    expect(decodeCharacterReferences('&#039;')).toBe("'");
  });

  it('keeps what it cannot decode as written, or puts the fallback there', () => {
    const odd = 'a &copy; b &#0; c &#xD800; d &#1114112; e';
    expect(decodeCharacterReferences(odd)).toBe(odd);
    expect(decodeCharacterReferences(odd, ' ')).toBe('a   b   c   d   e');
  });

  it('leaves text without references and bare ampersands alone', () => {
    expect(decodeCharacterReferences('R&D & more &amp')).toBe('R&D & more &amp');
  });
});
