// The fixture-page suite (test/suites/fixture-pages.ts) in Node: extract() of the library on the pages read from
// test/fixtures/pages/ and decoded by the charset module.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FixtureExpectation } from '../../dev/fixture-check.js';
import { FIXTURES_DIR } from '../../dev/fixtures.js';
import { extract } from '../../src/hosts/node/lib.js';
import { decodeHtml } from '../../src/io/charset.js';
import { describeFixturePages } from '../suites/fixture-pages.js';

const pages = readdirSync(FIXTURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(FIXTURES_DIR, d.name, 'expected.json')))
  .map((d) => d.name)
  .sort()
  .map((name) => ({
    name,
    expected: JSON.parse(readFileSync(join(FIXTURES_DIR, name, 'expected.json'), 'utf8')) as FixtureExpectation,
    html: async () => decodeHtml(readFileSync(join(FIXTURES_DIR, name, 'source.html'))),
  }));

describeFixturePages('Node', pages, (html, url) => extract(html, { url }));
