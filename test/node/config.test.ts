// The limits of src/config.ts: one merge (limitsOf) that every host resolves its limits with, and limits written as
// text (the CLI's --limit, the Worker's PITH_MAX_* variables).

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_NAMES, limitsOf, parseLimit } from '../../src/config.js';
import { extract } from '../../src/hosts/node/lib.js';

describe('limitsOf', () => {
  it('is DEFAULT_LIMITS without overrides, and merges overrides over it once', () => {
    expect(limitsOf()).toBe(DEFAULT_LIMITS);
    const limits = limitsOf({ maxBlocks: 10 });
    expect(limits).toEqual({ ...DEFAULT_LIMITS, maxBlocks: 10 });
    expect(Object.isFrozen(limits)).toBe(true);
    // resolved limits pass through: a host that resolves them once merges nothing per page
    expect(limitsOf(limits)).toBe(limits);
    expect(limitsOf({ ...limits })).not.toBe(limits);
  });

  it('reaches the parser from extract()', async () => {
    const page = `<html><body><article>${'<p>One more paragraph of the long story, with words enough to keep.</p>'.repeat(30)}</article></body></html>`;
    const cut = await extract(page, { limits: limitsOf({ maxBlocks: 5 }) });
    expect(cut.truncated).toBe(true);
    expect(cut.blocks.length).toBe(5);
    await expect(extract(page, { limits: { maxInputChars: 100 } })).rejects.toMatchObject({ code: 'input_too_large' });
  });
});

describe('parseLimit', () => {
  it('takes a known name and a whole number of at least 1', () => {
    expect(LIMIT_NAMES).toEqual(Object.keys(DEFAULT_LIMITS));
    expect(parseLimit('maxBlocks', '20000')).toEqual(['maxBlocks', 20000]);
    expect(() => parseLimit('maxBlock', '1')).toThrow(/"maxBlock" is not a limit \(limits: maxInputChars, /);
    for (const bad of ['0', '-3', '1.5', '', 'lots', '1e400']) expect(() => parseLimit('maxBlocks', bad), bad).toThrow(/must be a whole number of at least 1/);
  });
});
