// End to end on real pages: every folder of test/fixtures/pages/ holds a page (source.html, from the validation
// split of the WCXB dev corpus) and expected.json with sentences that extract() must keep and boilerplate that it
// must drop. Text is compared whitespace-normalised and case-insensitively (a sentence may not depend on where a
// block break falls). Add a page with `npx tsx eval/new-fixture.ts <corpus id>`.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/lib.js';
import { decodeHtml } from '../../src/parse/charset.js';
import { FIXTURES_DIR, normaliseForMatch, type FixtureExpectation } from '../../dev/fixtures.js';

const fixtures = readdirSync(FIXTURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(FIXTURES_DIR, d.name, 'expected.json')))
  .map((d) => d.name)
  .sort();

describe('fixture pages', () => {
  it('has at least 10 pages of several page types', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    const types = new Set(
      fixtures.map((f) => (JSON.parse(readFileSync(join(FIXTURES_DIR, f, 'expected.json'), 'utf8')) as FixtureExpectation).pageType),
    );
    expect(types.size).toBeGreaterThanOrEqual(4);
  });

  for (const name of fixtures) {
    it(name, async () => {
      const dir = join(FIXTURES_DIR, name);
      const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as FixtureExpectation;
      expect(expected.mustKeep.length).toBeGreaterThan(0);
      expect(expected.mustDrop.length).toBeGreaterThan(0);
      const html = decodeHtml(readFileSync(join(dir, 'source.html')));
      const result = await extract(html, { url: expected.url });
      const text = normaliseForMatch(result.text);
      const missing = expected.mustKeep.filter((s) => !text.includes(normaliseForMatch(s)));
      const kept = expected.mustDrop.filter((s) => text.includes(normaliseForMatch(s)));
      expect({ missing, kept }).toEqual({ missing: [], kept: [] });
    });
  }
});
