// Every failure inside extraction surfaces as a PithError with a code (issue 11, defect 4): the pipeline's own
// errors keep theirs, anything unexpected becomes `extraction_failed` with the stage and the original error.
import { describe, expect, it } from 'vitest';
import { PithError } from '../../src/errors.js';
import { extract } from '../../src/lib.js';

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

  it('turns a failure inside the parser into extraction_failed, with the stage and the cause', async () => {
    // With the bound lifted, linkedom spreads 400,000 class names into one call: a RangeError (stack overflow).
    const e = await failure(extract(hugeClass, { limits: { maxClassNames: Infinity, maxParseNodes: Infinity } }));
    expect(e.code).toBe('extraction_failed');
    expect(e.details).toEqual({ stage: 'parsing' });
    expect(e.cause).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^extraction failed while parsing this page \(RangeError: Maximum call stack size exceeded\)/);
  });

  it('keeps the code of the pipeline own errors', async () => {
    const e = await failure(extract('<p>x</p>'.repeat(10), { limits: { maxInputChars: 20 } }));
    expect(e.code).toBe('input_too_large');
  });
});
