// The fixture-page suite (test/suites/fixture-pages.ts) inside workerd: the Worker's extractor (the one the routes
// use) on the pages fetched from the page server and decoded by the charset module, as the server decodes pages.
import { inject } from 'vitest';
import type { FixtureExpectation } from '../../dev/fixture-check.js';
import { decodeHtml } from '../../src/io/charset.js';
import { workerExtractor } from '../../src/hosts/worker/worker-extractor.js';
import { describeFixturePages } from '../suites/fixture-pages.js';
import { page } from './server/helpers';

const pages = inject('fixturePages').map(({ name, expected }) => ({
  name,
  expected: expected as FixtureExpectation,
  html: async () => {
    const res = await fetch(page(`/fixture-pages/${name}`));
    if (!res.ok) throw new Error(`the page server answered ${res.status} for fixture page ${name}`);
    return decodeHtml(new Uint8Array(await res.arrayBuffer()), res.headers.get('content-type') ?? '');
  },
}));

describeFixturePages('workerd', pages, (html, url) => workerExtractor.extract(html, { url, format: 'text' }));
