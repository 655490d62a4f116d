// The fixture pages' golden markdown (expected.md, written in Node by `npm run golden:fixtures`) from the Worker's
// extractor inside workerd: the same page gives the same markdown byte for byte in both runtimes.
import { describe, expect, inject, it } from 'vitest';
import type { FixtureExpectation } from '../../dev/fixture-check.js';
import { describeDifference } from '../../dev/text-diff.js';
import { decodeHtml } from '../../src/io/charset.js';
import { workerExtractor } from '../../src/hosts/worker/worker-extractor.js';
import { page } from './server/helpers';

const pages = inject('fixturePages');

describe('fixture pages, golden markdown (workerd)', () => {
  it('has golden markdown for every fixture page', () => {
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(pages.filter((p) => p.markdown === null).map((p) => p.name), 'run `npm run golden:fixtures`').toEqual([]);
  });

  for (const { name, expected, markdown } of pages) {
    it(name, async () => {
      const res = await fetch(page(`/fixture-pages/${name}`));
      expect(res.ok, `the page server answered ${res.status} for fixture page ${name}`).toBe(true);
      const html = decodeHtml(new Uint8Array(await res.arrayBuffer()), res.headers.get('content-type') ?? '');
      const url = (expected as FixtureExpectation).url || undefined;
      const result = await workerExtractor.extract(html, { url, format: 'markdown' });
      const actual = result.markdown ?? '';
      const got = actual === '' || actual.endsWith('\n') ? actual : actual + '\n';
      if (markdown !== null && got !== markdown) {
        throw new Error(`${name}/expected.md differs from workerd's markdown:\n${describeDifference(markdown, got)}\nNode and workerd must agree; if Node changed on purpose, run \`npm run golden:fixtures\`.`);
      }
    });
  }
});
