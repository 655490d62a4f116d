// Create an end-to-end fixture page from a page of the WCXB dev corpus:
//
//   npx tsx eval/new-fixture.ts <corpus id> [--slug <name>] [--allow-train]
//
// writes test/fixtures/pages/<site>-<slug>/source.html (the page's bytes, gunzipped) and expected.json with
// candidate assertions: mustKeep from the ground truth's `with` snippets, mustDrop from its `without` snippets,
// metadata from its title, author and publish date.
// It then runs the current extract() and prints which candidates it satisfies. Edit expected.json by hand: keep
// clear main-content sentences and clear navigation/footer boilerplate, and say why in `note` when you drop a
// candidate. Fixtures come from the validation split (training/splits.json) so that they test unseen pages.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { extract } from '../src/hosts/node/lib.js';
import { dataDir, loadPage } from '../dev/corpus.js';
import { type FixtureExpectation, normaliseForMatch } from '../dev/fixture-check.js';
import { FIXTURES_DIR, fixtureName } from '../dev/fixtures.js';
import { normaliseDate } from '../src/core/metadata/dates.js';
import { readSplits } from '../dev/splits.js';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { slug: { type: 'string' }, 'allow-train': { type: 'boolean', default: false } },
  });
  const id = positionals[0];
  if (!id || !/^\d{4}$/.test(id)) {
    process.stderr.write('usage: npx tsx eval/new-fixture.ts <corpus id, e.g. 0123> [--slug <name>] [--allow-train]\n');
    process.exit(2);
  }
  const splits = readSplits();
  if (!splits.val.includes(id) && !values['allow-train']) {
    process.stderr.write(`new-fixture: ${id} is not in the validation split (training/splits.json); pick a val page or pass --allow-train\n`);
    process.exit(2);
  }
  const page = loadPage(id);
  const name = fixtureName(page.url, id, values.slug);
  const dir = join(FIXTURES_DIR, name);
  if (existsSync(dir)) {
    process.stderr.write(`new-fixture: ${dir} exists already; remove it or pass another --slug\n`);
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'source.html'), gunzipSync(readFileSync(join(dataDir(), 'html', `${id}.html.gz`))));
  const expected: FixtureExpectation = {
    id,
    url: page.url,
    pageType: page.pageType,
    mustKeep: page.groundTruth.with,
    mustDrop: page.groundTruth.without,
    metadata: {
      title: page.groundTruth.title,
      author: page.groundTruth.author,
      publishedDate: normaliseDate(page.groundTruth.publishDate),
    },
  };
  writeFileSync(join(dir, 'expected.json'), JSON.stringify(expected, null, 2) + '\n');

  const result = await extract(page.html, { url: page.url || undefined });
  const text = normaliseForMatch(result.text);
  process.stdout.write(`${dir}\n${page.pageType}, ${page.url}\n`);
  for (const s of expected.mustKeep) process.stdout.write(`  keep ${text.includes(normaliseForMatch(s)) ? 'ok  ' : 'MISS'} ${s}\n`);
  for (const s of expected.mustDrop) process.stdout.write(`  drop ${text.includes(normaliseForMatch(s)) ? 'KEPT' : 'ok  '} ${s}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`new-fixture: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
