// `npm run eval`: score pith and the baselines on the validation split of the WCXB dev corpus, print one table,
// write latest.{json,md} and check the committed floor (eval/floor.json). Results go to eval/results/local/ (ignored by
// git); --save writes the tracked eval/results/ (do that for a result the README quotes).
//
//   npm run eval                          full validation split, floor checked, results in eval/results/local/latest.*
//   npm run eval -- --save                the same, written to eval/results/latest.* (tracked)
//   npm run eval -- --limit 50            first 50 pages only (quick look; no floor, results to .../partial.*)
//   npm run eval -- --split train         the training split (no floor, results to .../partial.*)
//   npm run eval -- --no-floor            skip the floor check
//
// Rows: all text (every block kept), nothing, Readability.js on linkedom, pith with the `paper` features and with
// the `pith` features (Viterbi), and both with unary-only decoding. Metrics: see dev/score.ts.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extract } from '../src/hosts/node/lib.js';
import { renderText } from '../src/core/render/text.js';
import { pageTextLayout } from '../src/core/render/spacing.js';
import { parsePage } from '../src/core/blocks/page.js';
import type { Extraction, FeatureSetName } from '../src/types.js';
import { alignBlocks } from '../dev/align.js';
import { iterateCorpus, PAGE_TYPES, type CorpusPage } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';
import { readabilityExtract } from './readability.js';
import { READABILITY_PAGE_URL, loadReadabilityPage, readReadabilitySplit, textOfHtml } from '../dev/readability-pages.js';
import { requireModels } from './require-models.js';
import { renderFidelity, runFidelity } from './fidelity-eval.js';
import { writeBenchmarkDocs } from '../dev/benchmarks-doc.js';
import {
  blockMetrics,
  countBlocks,
  emptyBlockCounts,
  scorePage,
  summarise,
  wordF1,
  type BlockCounts,
  type BlockMetrics,
  type PageReference,
  type PageScore,
  type Summary,
} from '../dev/score.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = join(REPO_ROOT, 'eval', 'results');
const FLOOR_PATH = join(REPO_ROOT, 'eval', 'floor.json');

interface SystemDef {
  key: string;
  label: string;
  /** Has block labels (block metrics are computed). */
  blocks: boolean;
  /** Feature set of a pith row. */
  set?: FeatureSetName;
  decode?: 'viterbi' | 'unary';
  /** 'block': the first stage alone (the page stage skipped). */
  stage?: 'page' | 'block';
}

const SYSTEMS: readonly SystemDef[] = [
  { key: 'all', label: 'all text (every block)', blocks: true },
  { key: 'nothing', label: 'nothing', blocks: true },
  { key: 'readability', label: 'Readability.js (linkedom)', blocks: false },
  { key: 'paper-unary', label: 'pith, paper features, unary only', blocks: true, set: 'paper', decode: 'unary' },
  { key: 'paper', label: 'pith, paper features', blocks: true, set: 'paper', decode: 'viterbi' },
  { key: 'pith-block', label: 'pith, pith features, first stage only', blocks: true, set: 'pith', decode: 'viterbi', stage: 'block' },
  { key: 'pith-unary', label: 'pith, pith features + page stage, unary only', blocks: true, set: 'pith', decode: 'unary' },
  { key: 'pith', label: 'pith, pith features + page stage', blocks: true, set: 'pith', decode: 'viterbi' },
];

interface SystemResult {
  key: string;
  label: string;
  summary: Summary;
  block: BlockMetrics | null;
  /** Mean wall time per page, ms (parse included; 0 for the trivial rows). */
  msPerPage: number;
  errors: { id: string; message: string }[];
}

export interface Floor {
  /** Split the floor applies to. */
  split: string;
  /** Minimum macro word-F1 per system key. */
  wordF1: Record<string, number>;
  /** Minimum macro word-F1 on the validation part of the Readability.js test pages, per system key. */
  readabilityWordF1?: Record<string, number>;
  note?: string;
}

function usage(message: string): never {
  process.stderr.write(`run-eval: ${message}\n`);
  process.exit(2);
}

function parseCli() {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'val' },
      limit: { type: 'string' },
      'no-floor': { type: 'boolean', default: false },
      'no-readability': { type: 'boolean', default: false },
      sets: { type: 'string', default: 'paper,pith' },
      'results-dir': { type: 'string' },
      save: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run eval -- [--split val|train] [--limit N] [--no-floor] [--no-readability] [--sets paper,pith] [--save | --results-dir DIR]\n' +
        'Results go to eval/results/local/ (not tracked); --save writes the tracked eval/results/ (for the README).\n' +
        'Scores all text, nothing, Readability.js and pith (paper and pith features) on a split of the WCXB dev corpus,\n' +
        'then (full val runs) on the validation part of the Readability.js test pages.\n',
    );
    process.exit(0);
  }
  const split = values.split;
  if (split !== 'val' && split !== 'train') usage(`--split must be val or train, not ${split}`);
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit <= 0) usage(`--limit must be a positive integer, not ${values.limit}`);
  }
  const sets = values.sets.split(',').map((x) => x.trim()).filter(Boolean);
  for (const set of sets) if (set !== 'paper' && set !== 'pith') usage(`--sets takes paper and/or pith, not ${set}`);
  if (sets.length === 0) usage('--sets needs at least one feature set');
  const resultsDir = values['results-dir'] ?? (values.save ? RESULTS_DIR : join(RESULTS_DIR, 'local'));
  return {
    split: split as 'val' | 'train', limit, checkFloor: !values['no-floor'], sets: sets as FeatureSetName[], resultsDir,
    noReadability: values['no-readability'],
  };
}

const reference = (p: CorpusPage): PageReference => ({
  id: p.id,
  pageType: p.pageType,
  mainContent: p.groundTruth.mainContent,
  with: p.groundTruth.with,
  without: p.groundTruth.without,
});

const fmt = (v: number | null, digits = 3): string => (v === null ? '–' : v.toFixed(digits));
const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

function renderTable(results: SystemResult[], typeCounts: Record<string, number>, markdown: boolean): string {
  const types = PAGE_TYPES.filter((t) => (typeCounts[t] ?? 0) > 0);
  const header = [
    'system',
    'word-F1',
    'P',
    'R',
    'with found',
    'without kept',
    'block acc',
    'block P',
    'block R',
    'block F1',
    ...types.map((t) => `${t} (${typeCounts[t]})`),
    'ms/page',
  ];
  const rows = results.map((r) => [
    r.label,
    fmt(r.summary.f1),
    fmt(r.summary.precision),
    fmt(r.summary.recall),
    pct(r.summary.withFound),
    pct(r.summary.withoutKept),
    fmt(r.block?.accuracy ?? null),
    fmt(r.block?.precision ?? null),
    fmt(r.block?.recall ?? null),
    fmt(r.block?.f1 ?? null),
    ...types.map((t) => fmt(r.summary.byType[t]?.f1 ?? null)),
    r.msPerPage > 0 ? r.msPerPage.toFixed(1) : '–',
  ]);
  return formatTable(header, rows, markdown);
}

/** A table with a left-aligned first column and right-aligned others: markdown, or aligned plain text. */
function formatTable(header: string[], rows: string[][], markdown: boolean): string {
  if (markdown) {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

async function main(): Promise<void> {
  const { split, limit, checkFloor, sets, resultsDir, noReadability } = parseCli();
  requireModels(sets, 'run-eval');
  const systems = SYSTEMS.filter((s) => !s.set || sets.includes(s.set));
  const splits = readSplits();
  const allIds = split === 'val' ? splits.val : splits.train;
  const ids = limit ? allIds.slice(0, limit) : allIds;
  const full = limit === undefined || limit >= allIds.length;
  process.stderr.write(`run-eval: ${ids.length} ${split} pages${full ? '' : ` (of ${allIds.length})`}\n`);

  // Load the models before timing anything (the first call creates the ONNX sessions).
  for (const set of sets) await extract('<p>warm-up</p>', { featureSet: set });

  const started = performance.now();
  const scores = new Map<string, PageScore[]>(SYSTEMS.map((s) => [s.key, []]));
  const counts = new Map<string, BlockCounts>(SYSTEMS.map((s) => [s.key, emptyBlockCounts()]));
  const ms = new Map<string, number>(SYSTEMS.map((s) => [s.key, 0]));
  const errors = new Map<string, { id: string; message: string }[]>(SYSTEMS.map((s) => [s.key, []]));
  const typeCounts: Record<string, number> = {};
  const modelVersions: Partial<Record<FeatureSetName, string>> = {};
  let coverageSum = 0;
  let truncatedPages = 0;

  let done = 0;
  for (const page of iterateCorpus(ids)) {
    const ref = reference(page);
    typeCounts[page.pageType] = (typeCounts[page.pageType] ?? 0) + 1;
    const record = (key: string, text: string, elapsedMs: number) => {
      scores.get(key)?.push(scorePage(text, ref));
      ms.set(key, (ms.get(key) ?? 0) + elapsedMs);
    };

    // pith, both feature sets, Viterbi and unary-only.
    const extractions = new Map<string, Extraction | null>();
    for (const system of systems) {
      if (!system.set) continue;
      const { key, set, decode, stage } = system;
      {
        try {
          const [x, elapsed] = await timed(() => extract(page.html, { url: page.url || undefined, featureSet: set, decode, stage }));
          modelVersions[set] = x.modelVersion;
          extractions.set(key, x);
          record(key, x.text, elapsed);
        } catch (err) {
          extractions.set(key, null);
          errors.get(key)?.push({ id: page.id, message: (err as Error).message });
          record(key, '', 0);
        }
      }
    }

    // Gold block labels, from the blocks of the parse (the same for every feature set).
    const reference_ = extractions.get('pith') ?? extractions.get('paper') ?? null;
    if (reference_) {
      const blockTexts = reference_.blocks.map((b) => b.text);
      const { labels: gold, coverage } = alignBlocks(blockTexts, page.groundTruth.mainContent);
      coverageSum += coverage;
      if (reference_.truncated) truncatedPages++;
      for (const [key, x] of extractions) {
        if (x && x.blocks.length === gold.length) countBlocks(x.blocks.map((b) => b.label), gold, counts.get(key));
        else if (x) errors.get(key)?.push({ id: page.id, message: `block count ${x.blocks.length} differs from the parse's ${gold.length}` });
      }
      // all text / nothing rows, on the same blocks.
      const ones = new Uint8Array(blockTexts.length).fill(1);
      // Rendered like pith's text, word boundaries between blocks included (a second parse, for its DOM).
      const parsed = parsePage(page.html, { url: page.url || undefined });
      const spaced = parsed.blocks.length === ones.length ? pageTextLayout(parsed) : undefined;
      record('all', renderText(reference_.blocks, ones, spaced), 0);
      countBlocks(ones, gold, counts.get('all'));
      record('nothing', '', 0);
      countBlocks(new Uint8Array(blockTexts.length), gold, counts.get('nothing'));
    } else {
      record('all', '', 0);
      record('nothing', '', 0);
      errors.get('all')?.push({ id: page.id, message: 'no parse: every pith run failed' });
    }

    const [r, rMs] = await timed(() => readabilityExtract(page.html));
    if (r.error) errors.get('readability')?.push({ id: page.id, message: r.error });
    record('readability', r.text, rMs);

    done++;
    if (done % 25 === 0 || done === ids.length) {
      const s = (performance.now() - started) / 1000;
      process.stderr.write(`  ${done}/${ids.length} pages, ${s.toFixed(0)} s, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB\n`);
    }
  }
  const elapsedS = (performance.now() - started) / 1000;

  const results: SystemResult[] = systems.map((s) => ({
    key: s.key,
    label: s.label,
    summary: summarise(scores.get(s.key) ?? []),
    block: s.blocks ? blockMetrics(counts.get(s.key) ?? emptyBlockCounts()) : null,
    msPerPage: (ms.get(s.key) ?? 0) / Math.max(1, ids.length),
    errors: errors.get(s.key) ?? [],
  }));

  const date = new Date().toISOString();
  const table = renderTable(results, typeCounts, false);
  process.stdout.write(`\nWCXB dev, ${split} split, ${ids.length} pages, ${date.slice(0, 10)}\n\n${table}\n\n`);
  process.stdout.write(
    `models: ${Object.entries(modelVersions).map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
      `mean block-label coverage ${(coverageSum / Math.max(1, ids.length)).toFixed(3)}; ` +
      `${truncatedPages} page(s) truncated by limits; ${elapsedS.toFixed(0)} s\n`,
  );
  for (const r of results) {
    if (r.errors.length > 0) {
      process.stdout.write(`${r.label}: ${r.errors.length} page(s) failed, e.g. ${r.errors[0].id}: ${r.errors[0].message}\n`);
    }
  }

  const readabilityResults = full && split === 'val' && !noReadability ? await evalReadabilityPages(sets) : null;
  // Fidelity (dev/fidelity.ts): element kinds on the Readability pages, repeats, empty pages, <pre> kept partly.
  const fidelity = readabilityResults !== null && sets.includes('pith') ? await runFidelity('val') : null;
  if (fidelity !== null) process.stdout.write(`\n${renderFidelity(fidelity)}\n`);

  const outBase = full && split === 'val' ? 'latest' : 'partial';
  mkdirSync(resultsDir, { recursive: true });
  const json = {
    date,
    corpus: 'WCXB dev (CC-BY-4.0, Murrough Foley)',
    split,
    pages: ids.length,
    pagesInSplit: allIds.length,
    modelVersions,
    meanBlockCoverage: coverageSum / Math.max(1, ids.length),
    truncatedPages,
    elapsedS,
    command: ['npm run eval', ...process.argv.slice(2)].join(' ').replace('npm run eval ', 'npm run eval -- '),
    systems: results.map(({ errors: errs, ...rest }) => ({ ...rest, errors: errs })),
    readabilityPages: readabilityResults,
    fidelity,
    perPage: Object.fromEntries(
      systems.map((s) => [s.key, (scores.get(s.key) ?? []).map((p) => ({ id: p.id, pageType: p.pageType, f1: round4(p.f1) }))]),
    ),
  };
  writeFileSync(join(resultsDir, `${outBase}.json`), JSON.stringify(json, null, 1) + '\n');
  const md =
    `# pith evaluation, ${date.slice(0, 10)}\n\n` +
    `WCXB dev corpus (CC-BY-4.0), ${split} split, ${ids.length} pages; \`${json.command}\`, ${elapsedS.toFixed(0)} s on this machine.\n` +
    `Models: ${Object.entries(modelVersions).map(([k, v]) => `\`${k}\` ${v}`).join(', ')}.\n\n` +
    `Word-F1 is the benchmark's (macro over pages; per page type in the last columns, page counts in brackets); ` +
    `snippet shares are averaged over pages that have snippets; block metrics are pooled over all blocks against ` +
    `labels aligned from the ground truth (mean coverage ${(json.meanBlockCoverage * 100).toFixed(1)}%). See dev/score.ts.\n\n` +
    renderTable(results, typeCounts, true) +
    '\n' +
    (readabilityResults ? `\n${readabilityResults.title}\n\n${renderReadabilityTable(readabilityResults.rows, true)}\n` : '') +
    (fidelity ? `\n${renderFidelity(fidelity)}\n` : '');
  writeFileSync(join(resultsDir, `${outBase}.md`), md);
  process.stdout.write(`wrote ${join(resultsDir, outBase)}.json and .md\n`);
  if (resolve(resultsDir) === resolve(RESULTS_DIR) && outBase === 'latest') {
    process.stdout.write(`docs:benchmarks: ${writeBenchmarkDocs().join(', ') || 'docs already current'}\n`);
  }

  if (!checkFloor) return;
  if (!full || split !== 'val') {
    process.stdout.write('floor: not checked (only a full validation run is compared with eval/floor.json)\n');
    return;
  }
  if (!existsSync(FLOOR_PATH)) {
    process.stderr.write('run-eval: eval/floor.json is missing: commit one (see eval/README.md) or pass --no-floor\n');
    process.exitCode = 1;
    return;
  }
  const floor = JSON.parse(readFileSync(FLOOR_PATH, 'utf8')) as Floor;
  const failures: string[] = [];
  for (const [key, min] of Object.entries(floor.wordF1)) {
    const r = results.find((x) => x.key === key);
    if (!r) process.stdout.write(`floor: ${key} not run (--sets), not checked\n`);
    else if (r.summary.f1 < min) failures.push(`${key} word-F1 ${r.summary.f1.toFixed(4)} < floor ${min}`);
    else process.stdout.write(`floor: ${key} word-F1 ${r.summary.f1.toFixed(4)} >= ${min} ok\n`);
  }
  for (const [key, min] of Object.entries(floor.readabilityWordF1 ?? {})) {
    const r = readabilityResults?.rows.find((x) => x.key === key);
    if (!r) process.stdout.write(`floor: Readability pages ${key} not run, not checked\n`);
    else if (r.f1 < min) failures.push(`Readability pages ${key} word-F1 ${r.f1.toFixed(4)} < floor ${min}`);
    else process.stdout.write(`floor: Readability pages ${key} word-F1 ${r.f1.toFixed(4)} >= ${min} ok\n`);
  }
  if (failures.length > 0) {
    process.stderr.write(`run-eval: below the committed floor (eval/floor.json):\n  ${failures.join('\n  ')}\n`);
    process.exitCode = 1;
  }
}

const round4 = (v: number): number => Math.round(v * 10_000) / 10_000;

interface ReadabilityRow {
  key: string;
  label: string;
  f1: number;
  precision: number;
  recall: number;
  errors: number;
}

function renderReadabilityTable(rows: ReadabilityRow[], markdown: boolean): string {
  const header = ['system', 'word-F1', 'P', 'R'];
  return formatTable(header, rows.map((r) => [r.label, fmt(r.f1), fmt(r.precision), fmt(r.recall)]), markdown);
}

/**
 * The second table: the fixed validation part of the Readability.js test pages (eval/readability-pages.ts), word-F1,
 * precision and recall against the article text its maintainers expect, macro over pages.
 */
async function evalReadabilityPages(sets: FeatureSetName[]): Promise<{ title: string; pages: number; rows: ReadabilityRow[]; perPage: Record<string, { slug: string; f1: number }[]> }> {
  const split = readReadabilitySplit();
  const rows: { key: string; label: string; run: (html: string) => Promise<string> }[] = [
    {
      key: 'all',
      label: 'all text (every block)',
      run: async (html) => {
        const parsed = parsePage(html, { url: READABILITY_PAGE_URL });
        const blocks = parsed.blocks.map((b) => ({ text: b.text, blockBreakAfter: b.props.blockBreakAfter }));
        return renderText(blocks, new Uint8Array(blocks.length).fill(1), pageTextLayout(parsed));
      },
    },
    { key: 'nothing', label: 'nothing', run: async () => '' },
    // Readability's article HTML as text the way the expected HTML is read (text nodes joined by spaces): its
    // textContent glues words at tag boundaries, which would cost it recall against its own expected output.
    { key: 'readability', label: 'Readability.js (linkedom)', run: async (html) => textOfHtml(readabilityExtract(html).html) },
  ];
  if (sets.includes('paper')) {
    rows.push({ key: 'paper', label: 'pith, paper features', run: async (html) => (await extract(html, { url: READABILITY_PAGE_URL, featureSet: 'paper' })).text });
  }
  if (sets.includes('pith')) {
    rows.push(
      { key: 'pith-block', label: 'pith, pith features, first stage only', run: async (html) => (await extract(html, { url: READABILITY_PAGE_URL, stage: 'block' })).text },
      { key: 'pith', label: 'pith, pith features + page stage', run: async (html) => (await extract(html, { url: READABILITY_PAGE_URL })).text },
    );
  }
  const scores = new Map<string, { slug: string; precision: number; recall: number; f1: number }[]>(rows.map((r) => [r.key, []]));
  const errors = new Map<string, number>(rows.map((r) => [r.key, 0]));
  for (const slug of split.val) {
    const page = loadReadabilityPage(slug);
    for (const row of rows) {
      let text = '';
      try {
        text = await row.run(page.html);
      } catch {
        errors.set(row.key, (errors.get(row.key) ?? 0) + 1);
      }
      scores.get(row.key)!.push({ slug, ...wordF1(text, page.expectedText) });
    }
  }
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const result: ReadabilityRow[] = rows.map((r) => {
    const s = scores.get(r.key)!;
    return { key: r.key, label: r.label, f1: mean(s.map((x) => x.f1)), precision: mean(s.map((x) => x.precision)), recall: mean(s.map((x) => x.recall)), errors: errors.get(r.key) ?? 0 };
  });
  const title = `Readability.js test pages, validation part (eval/readability-split.json, split by site), ${split.val.length} pages`;
  process.stdout.write(`\n${title}\n\n${renderReadabilityTable(result, false)}\n`);
  for (const r of result) if (r.errors > 0) process.stdout.write(`${r.label}: ${r.errors} page(s) failed\n`);
  return {
    title,
    pages: split.val.length,
    rows: result,
    perPage: Object.fromEntries(rows.map((r) => [r.key, scores.get(r.key)!.map((x) => ({ slug: x.slug, f1: round4(x.f1) }))])),
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`run-eval: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
