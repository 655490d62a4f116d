// Create an end-to-end fixture page from a page of the WCXB dev corpus:
//
//   npx tsx eval/new-fixture.ts <corpus id> [--slug <name>] [--allow-train]
//
// writes test/fixtures/pages/<site>-<slug>/source.html (the page's bytes, gunzipped) and expected.json with
// candidate assertions: mustKeep from the ground truth's `with` snippets, mustDrop from its `without` snippets.
// It then runs the current extract() and prints which candidates it satisfies. Edit expected.json by hand: keep
// clear main-content sentences and clear navigation/footer boilerplate, and say why in `note` when you drop a
// candidate. Fixtures come from the validation split (training/splits.json) so that they test unseen pages.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { extract } from '../src/lib.js';
import { dataDir, loadPage, readSplits } from './corpus.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'pages');

export interface FixtureExpectation {
  /** WCXB dev file id the page comes from. */
  id: string;
  url: string;
  pageType: string;
  language?: string;
  /** Sentences that extract() must keep (whitespace-normalised, case-insensitive substring of the text). */
  mustKeep: string[];
  /** Boilerplate that extract() must drop. */
  mustDrop: string[];
  /** Candidates the shipped model fails, kept out of the assertions but on record (see the fixtures README). */
  knownMisses?: { model: string; mustKeep: string[]; mustDrop: string[] };
  note?: string;
}

/** Folder name: the site's main label plus a slug of the URL path, kebab-case. */
export function fixtureName(url: string, id: string, slug?: string): string {
  let host = '';
  let path = '';
  try {
    const u = new URL(url);
    host = u.hostname.toLowerCase().replace(/^www\./, '');
    path = u.pathname;
  } catch {
    // no URL: fall back to the corpus id
  }
  const labels = host.split('.').filter(Boolean);
  // main label: drop the public suffix roughly (last label, and a second-level "co"/"com"/"org" etc.)
  let site = labels.length >= 2 ? labels[labels.length - 2] : (labels[0] ?? 'wcxb');
  if (labels.length >= 3 && /^(co|com|org|net|gov|ac|edu)$/.test(site)) site = labels[labels.length - 3];
  const kebab = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const fromPath = kebab(path.replace(/\.(html?|php|aspx?)$/i, '').split('/').filter(Boolean).pop() ?? '');
  const tail = kebab(slug ?? '') || fromPath.slice(0, 40).replace(/-+$/, '') || id;
  return `${kebab(site) || 'wcxb'}-${tail}`;
}

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
  };
  writeFileSync(join(dir, 'expected.json'), JSON.stringify(expected, null, 2) + '\n');

  const result = await extract(page.html, { url: page.url || undefined });
  const text = normaliseForMatch(result.text);
  process.stdout.write(`${dir}\n${page.pageType}, ${page.url}\n`);
  for (const s of expected.mustKeep) process.stdout.write(`  keep ${text.includes(normaliseForMatch(s)) ? 'ok  ' : 'MISS'} ${s}\n`);
  for (const s of expected.mustDrop) process.stdout.write(`  drop ${text.includes(normaliseForMatch(s)) ? 'KEPT' : 'ok  '} ${s}\n`);
}

/** Whitespace runs to one space, lower case: how e2e assertions compare text. */
export function normaliseForMatch(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`new-fixture: ${(err as Error).message}\n`);
    process.exitCode = 1;
  });
}
