import { describe, expect, it } from 'vitest';
import { isRegexSpace } from '../../../src/core/blocks/repeats.js';

describe('isRegexSpace', () => {
  it('is /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isRegexSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
