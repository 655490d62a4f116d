// One fixture-page suite, run by two runners: test/node/fixture-pages.test.ts (extract() in Node) and
// test/workers/fixture-pages.test.ts (the Worker's extractor inside workerd, pages fetched from the page server).
// Every folder of test/fixtures/pages/ holds a real page (source.html, from the validation split of the WCXB dev
// corpus) and expected.json: sentences the text must keep, boilerplate it must drop, the ground truth's metadata,
// and the shipped model's known misses, asserted to be still missed so that a fix is noticed. Text is compared
// whitespace-normalised and case-insensitively (a sentence may not depend on where a block break falls). Add a page
// with `npx tsx eval/new-fixture.ts <corpus id>`.

import { describe, expect, it } from 'vitest';
import { checkFixture, type FixtureExpectation } from '../../dev/fixture-check.js';
import type { Extraction } from '../../src/types.js';

export interface FixturePage {
  name: string;
  expected: FixtureExpectation;
  /** The decoded page. */
  html: () => Promise<string>;
}

export function describeFixturePages(
  runtime: string,
  pages: FixturePage[],
  extract: (html: string, url: string) => Promise<Extraction>,
): void {
  describe(`fixture pages (${runtime})`, () => {
    it('has at least 10 pages of several page types, each with assertions and metadata', () => {
      expect(pages.length).toBeGreaterThanOrEqual(10);
      expect(new Set(pages.map((p) => p.expected.pageType)).size).toBeGreaterThanOrEqual(4);
      for (const { name, expected } of pages) {
        expect(expected.mustKeep.length, name).toBeGreaterThan(0);
        expect(expected.mustDrop.length, name).toBeGreaterThan(0);
        expect(Object.keys(expected.metadata).sort(), name).toEqual(['author', 'publishedDate', 'title']);
      }
    });

    for (const page of pages) {
      it(page.name, async () => {
        const result = await extract(await page.html(), page.expected.url);
        if (page.expected.knownMisses) expect(result.modelVersion).toBe(page.expected.knownMisses.model);
        expect(checkFixture(page.expected, result)).toEqual({ missing: [], kept: [], metadataMisses: [], fixed: [] });
      });
    }
  });
}
