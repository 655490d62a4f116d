import { describe, expect, it } from 'vitest';
import { clusterSignatures, decodeSignature, encodeSignature, signatureOf } from '../../../src/bulk/near-duplicates.js';
import { articleSentences } from '../../../dev/bulk-pages.js';

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
