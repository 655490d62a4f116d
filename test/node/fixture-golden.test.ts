// The whole markdown and JSON outputs of every fixture page against its golden files (dev/fixture-golden.ts), so a
// change that alters any output fails here with the difference and the command that regenerates the files.

import { describe, expect, it } from 'vitest';
import { GOLDEN_JSON, GOLDEN_MARKDOWN, REGENERATE_COMMAND, describeDifference, fixturePageNames, goldenOutputsOf, storedGolden } from '../../dev/fixture-golden.js';

function compare(name: string, file: string, stored: string | null, actual: string): void {
  if (stored === null) throw new Error(`${name}/${file} is missing: run \`${REGENERATE_COMMAND} -- ${name}\``);
  if (stored !== actual) {
    throw new Error(
      `${name}/${file} differs from the output of the code now:\n${describeDifference(stored, actual)}\n` +
        `If the change is meant, regenerate the golden files with \`${REGENERATE_COMMAND}\` and review the diff.`,
    );
  }
}

describe('fixture pages, whole outputs', () => {
  const names = fixturePageNames();

  it('covers every fixture page', () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
  });

  for (const name of names) {
    it(name, async () => {
      const actual = await goldenOutputsOf(name);
      const stored = storedGolden(name);
      compare(name, GOLDEN_MARKDOWN, stored.markdown, actual.markdown);
      compare(name, GOLDEN_JSON, stored.json, actual.json);
    });
  }
});

describe('describeDifference', () => {
  it('points at the first differing line and shows both sides', () => {
    const text = describeDifference('a\nb\nc\nd\n', 'a\nb\nX\nd\n');
    expect(text).toContain('first difference at line 3');
    expect(text).toMatch(/- +3 \| c/);
    expect(text).toMatch(/\+ +3 \| X/);
  });
});
