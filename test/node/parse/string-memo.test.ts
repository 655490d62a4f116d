import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownString, ownedKeyMemo, settleMemos, stringMemo } from '../../../src/core/parse/string-memo.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in MB. */
function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

/**
 * Cuts 1,000 class-like attributes out of a page-sized string (~32 MB of one-byte text) and hands each to `keep`.
 * A function of its own, so that no local of the test still points at the page afterwards.
 */
function cutFromPage(keep: (slice: string) => void): void {
  const page = ['<div class="a-long-class-name-', 'x'.repeat(32e6), '">'].join('');
  for (let i = 0; i < 1_000; i++) keep(page.slice(1_000 + i * 17, 1_000 + i * 17 + 40));
}

describe('stringMemo', () => {
  it('computes once per distinct key and hands compute its own copy', () => {
    const seen: string[] = [];
    const memo = stringMemo((s: string) => {
      seen.push(s);
      return s.length;
    });
    expect(memo('alpha beta gamma delta')).toBe(22);
    expect(memo('alpha beta gamma delta')).toBe(22);
    expect(memo('x')).toBe(1);
    expect(seen).toEqual(['alpha beta gamma delta', 'x']);
  });

  it('ownedKeyMemo computes once per distinct key and hands compute the key itself', () => {
    const seen: string[] = [];
    const memo = ownedKeyMemo((s: string) => (seen.push(s), [s]));
    const key = ['entry-content', 'post', 'clearfix'].join(' ');
    const list = memo(key);
    expect(seen[0]).toBe(key);
    expect(memo(key)).toBe(list);
    expect(memo(`${key}`.slice(0))).toBe(list); // an equal string of another object: the same value
    expect(seen).toHaveLength(1);
  });

  it('forgets everything only when settled at or past its limit, never halfway through a page', () => {
    let calls = 0;
    const memo = stringMemo((s: string) => (calls++, [s]), 3);
    const a = memo('a');
    for (const k of ['b', 'c', 'd']) memo(k); // past the limit: within a page nothing is forgotten
    expect(memo('a')).toBe(a); // the same object: page features compare class lists by identity
    expect(calls).toBe(4);
    settleMemos(); // between pages: 4 keys, at least the limit of 3, so all are forgotten
    expect(memo('a')).not.toBe(a);
    expect(calls).toBe(5);
    settleMemos(); // 1 key, under the limit: kept
    memo('a');
    expect(calls).toBe(5);
  });

  it('keeps no page alive through its keys or values (V8 keeps substrings as slices of their page)', () => {
    // The control: a plain Map of the same slices holds the whole page.
    let base = heapMb();
    const control = new Map<string, string>();
    cutFromPage((s) => control.set(s, s.slice(5)));
    const retainedByMap = heapMb() - base;
    control.clear();

    base = heapMb();
    const memo = stringMemo((s: string) => s.slice(5));
    cutFromPage((s) => memo(s));
    const retainedByMemo = heapMb() - base;
    expect(retainedByMap).toBeGreaterThan(25); // the control shows the trap is real on this V8
    expect(retainedByMemo).toBeLessThan(2);
    const unicode = 'κλάση-🙂-\ud800-long-enough';
    expect(ownString(unicode)).toBe(unicode); // a copy, character for character (lone surrogates too)
  });
});
