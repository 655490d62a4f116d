// Metadata accuracy on the validation split: title, author and publish date against the WCXB ground truth.
//
//   npx tsx eval/metadata-eval.ts [--split val|train|all] [--show-misses N] [--no-readability]
//
// Match rules (a page counts only where the ground truth has a value):
//   title  — equal after normalisation (lower-case, \w tokens), or token F1 >= 0.9;
//   author — one contains the other, case-insensitive, after normalisation;
//   date   — the same day (YYYY-MM-DD).
// Beside pith's ladder it prints a simple baseline (raw <title>, <meta name=author>, article:published_time) and
// how often a value was given where the ground truth has none, and Readability.js's title (linkedom) beside pith's;
// then title accuracy on the Readability.js test pages (all of them; expected-metadata.json, Readability's own
// titles) for both, and which of pith's misses there are the page's headline: pith gives the page's h1 where the
// expected title is not it (a meta or <title> that differs from what the page shows, which pith is asked not to
// prefer). --no-readability skips Readability.js (about 0.4 s a page).

import { parseArgs } from 'node:util';
import { parseHtmlDocument } from '../src/core/parse/dom.js';
import { extractMetadata } from '../src/core/metadata/metadata.js';
import { collectCandidates } from '../src/core/metadata/walk.js';
import { normaliseDate } from '../src/core/metadata/dates.js';
import { iterateCorpus, listPageIds, type CorpusPage } from '../dev/corpus.js';
import { authorMatches, dateMatches, titleMatches, titleMatchesWithoutSite } from '../dev/metadata-match.js';
import { readSplits } from '../dev/splits.js';
import { readabilityExtract } from './readability.js';
import { READABILITY_PAGE_URL, listReadabilitySlugs, loadReadabilityPage, readabilityDir } from '../dev/readability-pages.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TITLE_RE = /<title[^>]*>([\s\S]*?)<\/title>/i;
const META_AUTHOR_RE = /<meta[^>]+name=["']author["'][^>]*content=["']([^"']*)["']/i;
const META_PUBLISHED_RE = /<meta[^>]+property=["']article:published_time["'][^>]*content=["']([^"']*)["']/i;

interface Field {
  name: 'title' | 'author' | 'date';
  truth: (p: CorpusPage) => string | null;
  match: (predicted: string | null, truth: string) => boolean;
}

const FIELDS: Field[] = [
  { name: 'title', truth: (p) => p.groundTruth.title, match: titleMatches },
  { name: 'author', truth: (p) => p.groundTruth.author, match: authorMatches },
  { name: 'date', truth: (p) => p.groundTruth.publishDate, match: dateMatches },
];

interface Tally {
  withTruth: number;
  pith: number;
  baseline: number;
  /** Pages without ground truth where pith still gave a value. */
  noTruth: number;
  noTruthGiven: number;
}

function main(): void {
  const { values } = parseArgs({
    options: { split: { type: 'string', default: 'val' }, 'show-misses': { type: 'string', default: '0' }, 'no-readability': { type: 'boolean', default: false } },
  });
  const withReadability = !values['no-readability'];
  let rdTitle = 0;
  let rdTitleArticles = 0;
  const split = values.split;
  const showMisses = Number(values['show-misses']);
  const ids = split === 'all' ? listPageIds() : split === 'train' ? readSplits().train : readSplits().val;

  const tallies = new Map<string, Tally>();
  const articleTallies = new Map<string, Tally>();
  for (const f of FIELDS) {
    tallies.set(f.name, { withTruth: 0, pith: 0, baseline: 0, noTruth: 0, noTruthGiven: 0 });
    articleTallies.set(f.name, { withTruth: 0, pith: 0, baseline: 0, noTruth: 0, noTruthGiven: 0 });
  }
  const misses: string[] = [];
  let n = 0;
  const t0 = performance.now();
  let metaMs = 0;
  for (const page of iterateCorpus(ids)) {
    n++;
    const document = parseHtmlDocument(page.html);
    const tm = performance.now();
    const meta = extractMetadata(document, { url: page.url });
    metaMs += performance.now() - tm;
    const predicted = { title: meta.title, author: meta.author, date: meta.publishedDate };
    const baseline = {
      title: TITLE_RE.exec(page.html)?.[1].trim() ?? null,
      author: META_AUTHOR_RE.exec(page.html)?.[1] ?? null,
      date: normaliseDate(META_PUBLISHED_RE.exec(page.html)?.[1]),
    };
    if (withReadability && page.groundTruth.title) {
      const ok = titleMatches(readabilityExtract(page.html).title, page.groundTruth.title);
      if (ok) rdTitle++;
      if (ok && page.pageType === 'article') rdTitleArticles++;
    }
    for (const f of FIELDS) {
      const truth = f.truth(page);
      for (const t of page.pageType === 'article' ? [tallies.get(f.name)!, articleTallies.get(f.name)!] : [tallies.get(f.name)!]) {
        if (truth === null || truth.trim() === '') {
          t.noTruth++;
          if (predicted[f.name] !== null) t.noTruthGiven++;
          continue;
        }
        t.withTruth++;
        if (f.match(predicted[f.name], truth)) t.pith++;
        if (f.match(baseline[f.name], truth)) t.baseline++;
      }
      if (truth && !f.match(predicted[f.name], truth) && misses.length < showMisses * FIELDS.length) {
        misses.push(`${page.id} ${f.name}: got ${JSON.stringify(predicted[f.name])} want ${JSON.stringify(truth)}`);
      }
    }
  }
  const pct = (a: number, b: number) => (b === 0 ? '   -  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);
  const rows: string[] = [];
  rows.push(`Metadata accuracy, split=${split}, ${n} pages (${(performance.now() - t0).toFixed(0)} ms total, metadata ${(metaMs / n).toFixed(2)} ms/page)`);
  rows.push('');
  rows.push('| field | pages with truth | pith | baseline | Readability.js | given where truth is null | articles: pith (n) | articles: Readability.js |');
  rows.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of FIELDS) {
    const t = tallies.get(f.name)!;
    const a = articleTallies.get(f.name)!;
    rows.push(
      `| ${f.name} | ${t.withTruth} | ${pct(t.pith, t.withTruth)} | ${pct(t.baseline, t.withTruth)} | ${f.name === 'title' && withReadability ? pct(rdTitle, t.withTruth) : '   -  '} | ${pct(t.noTruthGiven, t.noTruth)} of ${t.noTruth} | ${pct(a.pith, a.withTruth)} (${a.withTruth}) | ${f.name === 'title' && withReadability ? pct(rdTitleArticles, a.withTruth) : '   -  '} |`,
    );
  }
  rows.push('');
  rows.push('baseline: raw <title>, <meta name="author">, article:published_time.');
  const rd = readabilityPageTitles(withReadability);
  if (rd !== null) {
    rows.push('');
    rows.push(`Readability.js test pages (all ${rd.n} with an expected title; expected-metadata.json holds Readability's own titles):`);
    rows.push(`title: pith ${pct(rd.pith, rd.n)}${withReadability ? `, Readability.js ${pct(rd.readability, rd.n)}` : ''}`);
    rows.push(
      `title, site, section and author parts of the expected title not required (dev/metadata-match.ts): pith ${pct(rd.pithTolerant, rd.n)}` +
        `${withReadability ? `, Readability.js ${pct(rd.readabilityTolerant, rd.n)}` : ''}`,
    );
    rows.push(
      `pith's misses (strict) where pith gives the page's h1 and the expected title is not the h1: ${rd.headlineMisses.length} of ` +
        `${rd.n - rd.pith} (tolerant: ${rd.headlineMissesTolerant.length} of ${rd.n - rd.pithTolerant}, so at most ` +
        `${pct(rd.n - rd.headlineMissesTolerant.length, rd.n)} tolerant while the visible headline wins): ${rd.headlineMissesTolerant.join(', ')}`,
    );
  }
  console.log(rows.join('\n'));
  if (misses.length > 0) console.log('\n' + misses.join('\n'));
}

/** Title accuracy on the Readability.js test pages (null when they are not there). */
interface ReadabilityTitleTally {
  n: number;
  pith: number;
  readability: number;
  pithTolerant: number;
  readabilityTolerant: number;
  /** Slugs where pith misses (strict) by giving the page's h1, while the expected title is not that h1. */
  headlineMisses: string[];
  /** Of those, the ones that the tolerant match misses too. */
  headlineMissesTolerant: string[];
}

function readabilityPageTitles(withReadability: boolean): ReadabilityTitleTally | null {
  let slugs: string[];
  try {
    slugs = listReadabilitySlugs();
  } catch {
    return null;
  }
  const r: ReadabilityTitleTally = { n: 0, pith: 0, readability: 0, pithTolerant: 0, readabilityTolerant: 0, headlineMisses: [], headlineMissesTolerant: [] };
  for (const slug of slugs) {
    const f = join(readabilityDir(), slug, 'expected-metadata.json');
    if (!existsSync(f)) continue;
    const meta = JSON.parse(readFileSync(f, 'utf8')) as { title?: string | null; siteName?: string | null };
    const expected = meta.title;
    if (!expected) continue;
    const { html } = loadReadabilityPage(slug);
    r.n++;
    const document = parseHtmlDocument(html);
    const pith = extractMetadata(document, { url: READABILITY_PAGE_URL }).title;
    const strict = titleMatches(pith, expected);
    const tolerant = titleMatchesWithoutSite(pith, expected, meta.siteName ?? null);
    if (strict) r.pith++;
    if (tolerant) r.pithTolerant++;
    const h1 = collectCandidates(document).h1;
    if (!strict && h1 !== null && titleMatches(pith, h1) && !titleMatches(expected, h1)) {
      r.headlineMisses.push(slug);
      if (!tolerant) r.headlineMissesTolerant.push(slug);
    }
    if (withReadability) {
      const rd = readabilityExtract(html).title;
      if (titleMatches(rd, expected)) r.readability++;
      if (titleMatchesWithoutSite(rd, expected, meta.siteName ?? null)) r.readabilityTolerant++;
    }
  }
  return r;
}

main();
