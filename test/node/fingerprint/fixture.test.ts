// The committed fingerprints (test/fixtures/fingerprints.json, written by eval/make-fingerprint-fixture.ts) as
// computed in Node. test/workers/fingerprint.test.ts checks the same file inside workerd: together they prove
// that both runtimes give the same signatures.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_FIXTURE, makeFixture, type FingerprintFixture } from '../../../dev/fingerprint-fixture.js';
import { minhash } from '../../../src/core/fingerprint/minhash.js';
import { simhash } from '../../../src/core/fingerprint/simhash.js';

const committed = JSON.parse(readFileSync(FINGERPRINT_FIXTURE, 'utf8')) as FingerprintFixture;

describe('committed fingerprints (Node)', () => {
  it('covers the scripts and edge cases it was made for', () => {
    expect(committed.cases.map((c) => c.name)).toContain('chinese-japanese');
    expect(committed.cases.map((c) => c.name)).toContain('empty');
    expect(committed.cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(committed.cases.map((c) => [c.name, c] as const))('%s: SimHash and MinHash equal the committed values', (_name, c) => {
    expect(simhash(c.text)).toBe(c.simhash);
    expect(Array.from(minhash(c.text))).toEqual(c.minhash);
  });

  it('the generator reproduces the committed file', () => {
    expect(makeFixture()).toEqual(committed);
  });
});
