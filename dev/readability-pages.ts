// The Readability.js test pages (../shared/data/readability-test-pages, README there) as a second validation set:
// each page's source HTML and the article text Readability's maintainers expect, and a fixed split by site.
//
// Shared by the eval (eval/run-eval.ts, the split CLI eval/readability-pages.ts) and training (training/news-pages.ts).
//
// The split puts half of the sites (a site = the slug without its trailing number: nytimes-1..5 are one site;
// lifehacker-* and base-url-* are one site each) into `val`, the fixed part that `npm run eval` scores; the other
// half is `train`, which training may use.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { mulberry32 } from './rng.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const READABILITY_SPLIT_PATH = join(REPO_ROOT, 'eval', 'readability-split.json');
/** The URL Readability's own tests give every page. */
export const READABILITY_PAGE_URL = 'http://fakehost/test/page.html';
const SPLIT_SEED = 10;

/** Directory of the pages: $PITH_READABILITY_DIR, else ../shared/data/readability-test-pages next to the repo. */
export function readabilityDir(): string {
  const dir = process.env.PITH_READABILITY_DIR
    ? resolve(process.env.PITH_READABILITY_DIR)
    : resolve(REPO_ROOT, '..', 'shared', 'data', 'readability-test-pages');
  if (!existsSync(join(dir, 'README.md'))) {
    throw new Error(
      `Readability test pages not found at ${dir}: copy test/test-pages/ of mozilla/readability (source.html and ` +
        'expected.html per folder, gzipped) to ../shared/data/readability-test-pages or set PITH_READABILITY_DIR',
    );
  }
  return dir;
}

export function listReadabilitySlugs(dir = readabilityDir()): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'source.html.gz')))
    .map((d) => d.name)
    .sort();
}

/** The site of a page: its slug without a trailing number, a few families merged. */
export function siteOf(slug: string): string {
  const s = slug.replace(/-\d+$/, '');
  if (s.startsWith('lifehacker')) return 'lifehacker';
  if (s.startsWith('base-url')) return 'base-url';
  return s;
}

export interface ReadabilityPage {
  slug: string;
  site: string;
  html: string;
  /** Text of expected.html: its text nodes joined by spaces (no words glued at tag boundaries). */
  expectedText: string;
  /** expected.html itself (the article HTML Readability's maintainers expect). */
  expectedHtml: string;
}

const SKIP_TEXT_OF = new Set(['script', 'style', 'noscript', 'template']);

/** Text nodes of an HTML fragment or page in document order, joined with single spaces. */
export function textOfHtml(html: string): string {
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  const parts: string[] = [];
  const stack: unknown[] = [document.body ?? document];
  while (stack.length > 0) {
    const n = stack.pop() as { nodeType: number; data?: string; localName?: string; childNodes: ArrayLike<unknown> };
    if (n.nodeType === 3) {
      parts.push(n.data ?? '');
      continue;
    }
    if (n.nodeType === 1 && SKIP_TEXT_OF.has(n.localName ?? '')) continue;
    const kids = n.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * The pages are stored as UTF-8 text whatever their `<meta charset>` says (qq's says gb2312), and Readability's
 * harness reads them as UTF-8: sniffing the label would decode UTF-8 bytes as GBK.
 */
const UTF8 = new TextDecoder('utf-8');

export function readReadabilityFile(slug: string, name: 'source.html.gz' | 'expected.html.gz', dir = readabilityDir()): string {
  return UTF8.decode(gunzipSync(readFileSync(join(dir, slug, name))));
}

export function loadReadabilityPage(slug: string, dir = readabilityDir()): ReadabilityPage {
  const html = readReadabilityFile(slug, 'source.html.gz', dir);
  const expected = readReadabilityFile(slug, 'expected.html.gz', dir);
  return { slug, site: siteOf(slug), html, expectedText: textOfHtml(expected), expectedHtml: expected };
}

export interface ReadabilitySplit {
  seed: number;
  note: string;
  val: string[];
  train: string[];
}

export function readReadabilitySplit(path = READABILITY_SPLIT_PATH): ReadabilitySplit {
  if (!existsSync(path)) throw new Error(`${path} not found: run \`npx tsx eval/readability-pages.ts split\``);
  return JSON.parse(readFileSync(path, 'utf8')) as ReadabilitySplit;
}

/** Half of the sites (seeded shuffle) to val, the rest to train. */
export function makeReadabilitySplit(slugs: string[], seed = SPLIT_SEED): ReadabilitySplit {
  const sites = [...new Set(slugs.map(siteOf))].sort();
  const rand = mulberry32(seed);
  for (let i = sites.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [sites[i], sites[j]] = [sites[j], sites[i]];
  }
  const valSites = new Set(sites.slice(0, Math.ceil(sites.length / 2)));
  return {
    seed,
    note: 'Readability.js test pages split by site (eval/readability-pages.ts); val is the fixed validation part scored by npm run eval, train may be used for training',
    val: slugs.filter((s) => valSites.has(siteOf(s))),
    train: slugs.filter((s) => !valSites.has(siteOf(s))),
  };
}
