// Every failure inside extraction surfaces as a PithError with a code (issue 11, defect 4): the pipeline's own
// errors keep theirs, anything unexpected becomes `extraction_failed` with the stage and the original error.
import { describe, expect, it } from 'vitest';
import { PithError } from '../../src/errors.js';
import { extract } from '../../src/hosts/node/lib.js';

async function failure(p: Promise<unknown>): Promise<PithError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PithError);
    return e as PithError;
  }
  throw new Error('expected the extraction to fail');
}

describe('extract() errors', () => {
  const hugeClass = '<body><div class="' + 'c '.repeat(400_000) + '">text</div></body>';

  it('refuses a class attribute with too many names before parsing: input_too_large', async () => {
    const e = await failure(extract(hugeClass));
    expect(e.code).toBe('input_too_large');
    expect(e.message).toContain('limits.maxClassNames');
  });

  it('turns an unexpected failure into extraction_failed, with the stage and the cause', async () => {
    // The parser no longer fails on any page we know of, so the failure here is the caller's: a limits object whose
    // getter throws while the pipeline reads it, before parsing.
    const limits = {
      get maxBlocks(): number {
        throw new TypeError('no limit today');
      },
    };
    const e = await failure(extract('<p>x</p>', { limits }));
    expect(e.code).toBe('extraction_failed');
    expect(e.details).toEqual({ stage: 'parsing' });
    expect(e.cause).toBeInstanceOf(TypeError);
    expect(e.message).toMatch(/^extraction failed while parsing this page \(TypeError: no limit today\)/);
  });

  it('parses a class attribute of 400,000 names when the bound is lifted (it once overflowed the stack)', async () => {
    const x = await extract(hugeClass, { limits: { maxClassNames: Infinity, maxParseNodes: Infinity } });
    expect(x.truncated).toBe(false);
  });

  it('keeps the code of the pipeline own errors', async () => {
    const e = await failure(extract('<p>x</p>'.repeat(10), { limits: { maxInputChars: 20 } }));
    expect(e.code).toBe('input_too_large');
  });
});
