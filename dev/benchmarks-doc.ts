// docs/benchmarks.md and the results table of README.md, written from eval/results/*.json and nothing else, so that
// a figure in the docs is always the one the last saved run measured. Never edit either by hand:
//
//   npm run docs:benchmarks            rewrite docs/benchmarks.md and the README block between the markers
//
// `npm run eval -- --save`, `npm run bench -- --save` and `npm run bench:bulk -- --save` call it after writing their
// results; test/node/docs.test.ts fails when either text differs from what this script makes of the results now.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = join(ROOT, 'eval', 'results');
export const BENCHMARKS_DOC = join(ROOT, 'docs', 'benchmarks.md');
export const README = join(ROOT, 'README.md');
export const README_START = '<!-- results:start: written by `npm run docs:benchmarks` from eval/results/*.json; do not edit -->';
export const README_END = '<!-- results:end -->';
export const REGENERATE_COMMAND = 'npm run docs:benchmarks';

// ---------------------------------------------------------------------------------------------------------------
// The shapes of the result files (the fields read here; the files hold more)

interface Summary {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  withFound: number | null;
  withoutKept: number | null;
  byType: Record<string, { n: number; f1: number; precision: number; recall: number }>;
}
interface EvalSystem {
  key: string;
  label: string;
  summary: Summary;
  block: { accuracy: number; precision: number; recall: number; f1: number } | null;
  msPerPage: number;
}
interface EvalResults {
  date: string;
  corpus: string;
  split: string;
  pages: number;
  modelVersions: Record<string, string>;
  meanBlockCoverage: number;
  elapsedS: number;
  command: string;
  systems: EvalSystem[];
  readabilityPages?: { title: string; pages: number; rows: { key: string; label: string; f1: number; precision: number; recall: number }[] };
  fidelity?: FidelityResults;
}
interface KindCount {
  expected: number;
  found: number;
  extra: number;
}
interface DevFidelity {
  pages: number;
  repeatPages: number;
  emptyPages: number;
  prePartly: number;
  preBlocks: number;
}
interface FidelityResults {
  readabilityPages: number;
  kinds: { pith: Record<string, KindCount>; readability: Record<string, KindCount> };
  devSplit: string;
  dev: { pith: DevFidelity; readability: DevFidelity };
}
interface Stat {
  median: number;
  p95: number;
  mean: number;
}
interface BenchResults {
  date: string;
  command: string;
  node: string;
  pages: number;
  rounds: number;
  featureSet: string;
  stages: Record<string, Stat>;
  pith: Stat;
  readability: Stat;
  linkedomParse: Stat;
  ratioMedian: number;
  ratioTotal: number;
  pithFasterShare: number;
}
interface BulkRow {
  name: string;
  seconds: number;
  runs: number[];
  cpuSeconds: number;
  pages: number;
  failed: number;
  pagesPerSecond?: number;
  pagesPerSecondPerCore?: number;
  pagesPerCpuSecond?: number;
}
interface BulkResults {
  date: string;
  command?: string;
  pages: number;
  rounds: number;
  cores: number;
  rows: BulkRow[];
  speedup: number;
  loopRows?: BulkRow[];
  ceiling?: number;
  perCoreVsReadability?: number;
  perCoreVsReadability1?: number;
  perCoreVsReadability2?: number;
  cpuVsReadability?: number;
  e2e?: { urls: number; seconds: number; pagesPerSecond: number; done: number; failed: number; lines: number; distinctUrls: number; lost: number };
}
interface PairsResults {
  date: string;
  pages: number;
  cores: number;
  runs: unknown[];
  medianRatio: number;
  ratioOfMedians: number;
  reached: number;
  medianQuietRatio: number | null;
}

export interface Results {
  eval?: EvalResults;
  bench?: BenchResults;
  bulk?: BulkResults;
  pairs?: PairsResults;
  /** Other .json files in eval/results/: listed, not rendered. */
  other: string[];
}

const KNOWN_FILES: Readonly<Record<string, keyof Omit<Results, 'other'>>> = {
  'latest.json': 'eval',
  'bench.json': 'bench',
  'bench-bulk.json': 'bulk',
  'bench-bulk-pairs.json': 'pairs',
};

export function readResults(dir = RESULTS_DIR): Results {
  const results: Results = { other: [] };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const key = KNOWN_FILES[file];
    if (key === undefined) {
      results.other.push(file);
      continue;
    }
    (results as unknown as Record<string, unknown>)[key] = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting

const f3 = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : v.toFixed(3));
const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`);
const ms = (v: number): string => v.toFixed(2);
const int = (v: number): string => Math.round(v).toLocaleString('en-US');
const one = (v: number): string => v.toFixed(1);
const ratio = (v: number): string => `${v.toFixed(2)}×`;

function table(header: string[], rows: string[][], align: ('l' | 'r')[] = header.map((_, i) => (i === 0 ? 'l' : 'r'))): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(align.map((a) => (a === 'l' ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/** "2026-11-30T19:56:20.340Z" -> "2026-11-30 19:56 UTC". */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The command that reproduces a saved run without rewriting the tracked results: the same, without --save. */
export function reproduceCommand(saved: string): string {
  return saved.replace(/\s+--save\b/g, '').replace(/\s+--$/, '');
}

const bulkCommand = (bulk: BulkResults): string => bulk.command ?? `npm run bench:bulk -- --rounds ${bulk.rounds} --save`;

/** Page types by page count, largest first (the order of the eval's tables). */
function pageTypes(system: EvalSystem): string[] {
  return Object.entries(system.summary.byType)
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(([type]) => type);
}

const systemOf = (ev: EvalResults, key: string): EvalSystem | undefined => ev.systems.find((s) => s.key === key);
const rowNamed = (bulk: BulkResults, name: string): BulkRow | undefined => bulk.rows.find((r) => r.name === name);

// ---------------------------------------------------------------------------------------------------------------
// docs/benchmarks.md

function qualitySection(ev: EvalResults): string {
  const types = pageTypes(ev.systems[0]);
  const header = ['system', 'word-F1', 'P', 'R', 'with found', 'without kept', 'block F1', ...types.map((t) => `${t} (${ev.systems[0].summary.byType[t].n})`), 'ms/page'];
  const rows = ev.systems.map((s) => [
    s.key === 'pith' ? `**${s.label}** (shipped)` : s.label,
    f3(s.summary.f1),
    f3(s.summary.precision),
    f3(s.summary.recall),
    pct(s.summary.withFound),
    pct(s.summary.withoutKept),
    f3(s.block?.f1),
    ...types.map((t) => f3(s.summary.byType[t]?.f1)),
    s.msPerPage > 0 ? one(s.msPerPage) : '–',
  ]);
  const parts = [
    '## Quality',
    '',
    `\`${reproduceCommand(ev.command)}\` on the ${ev.split === "val" ? "validation" : ev.split} split of ${ev.corpus}: ${ev.pages} pages of sites that no training page comes from (docs/training.md).` +
      ` Measured ${when(ev.date)}; models ${Object.entries(ev.modelVersions).map(([set, v]) => `\`${set}\` ${v}`).join(', ')}.`,
    '',
    'Word-F1 is the benchmark\'s: `\\w+` tokens of the lower-cased text, multiset overlap, macro-averaged over pages' +
      ' (per page type in the last columns, page counts in brackets). "with found" and "without kept" are the shares of' +
      ' the ground truth\'s must-keep and must-drop snippets found in and kept out of the text. Block F1 is pooled over' +
      ` all blocks against labels aligned from the ground truth (mean coverage ${pct(ev.meanBlockCoverage)}). ms/page is` +
      ' the time inside the evaluation loop, not a benchmark (see Speed).',
    '',
    table(header, rows),
  ];
  if (ev.readabilityPages !== undefined) {
    const rp = ev.readabilityPages;
    parts.push(
      '',
      `### ${rp.title}`,
      '',
      'The second table of the same run. Readability.js scores near 1 on its own regression pages by construction;' +
        ' the table shows how close pith comes to its "article body only" convention.',
      '',
      table(
        ['system', 'word-F1', 'P', 'R'],
        rp.rows.map((r) => [r.key === 'pith' ? `**${r.label}** (shipped)` : r.label, f3(r.f1), f3(r.precision), f3(r.recall)]),
      ),
    );
  }
  if (ev.fidelity !== undefined) parts.push('', fidelitySection(ev.fidelity));
  return parts.join('\n');
}

/** What a reader sees: expected elements kept as the same kind, and pages that repeat, come out empty or cut code. */
function fidelitySection(fi: FidelityResults): string {
  const share = (k: KindCount): string => (k.expected === 0 ? '–' : f3(k.found / k.expected));
  const extra = (k: KindCount): string => (k.expected === 0 ? '–' : f3(k.extra / k.expected));
  const kinds = Object.keys(fi.kinds.pith);
  const dev = (label: string, d: DevFidelity): string[] => [label, String(d.repeatPages), String(d.emptyPages), `${d.prePartly} of ${d.preBlocks}`];
  return [
    '### Fidelity',
    '',
    `Same run (dev/fidelity.ts). Against the expected article HTML of the Readability.js test pages (validation part, ${fi.readabilityPages} pages):` +
      ' the share of expected elements the HTML output has as the same kind (code blocks: exact text), and extra ones per expected one.' +
      ' Readability.js scores 1 by construction (the expected HTML is its own output).',
    '',
    table(
      ['kind', 'expected', 'pith', 'pith extra', 'Readability.js', 'Readability.js extra'],
      kinds.map((k) => [k, String(fi.kinds.pith[k].expected), share(fi.kinds.pith[k]), extra(fi.kinds.pith[k]), share(fi.kinds.readability[k]), extra(fi.kinds.readability[k])]),
    ),
    '',
    `WCXB dev pages (${fi.devSplit} split, ${fi.dev.pith.pages} pages): pages whose output repeats a paragraph of 80+ characters more often than the ground truth,` +
      ' pages empty where the ground truth is not, `<pre>` blocks of 2+ lines kept partly.',
    '',
    table(['system', 'repeat pages', 'empty pages', '<pre> kept partly'], [dev('pith', fi.dev.pith), dev('Readability.js (linkedom)', fi.dev.readability)]),
  ].join('\n');
}

const STAGE_LABELS: Readonly<Record<string, string>> = {
  parseMs: 'parse (DOM + collapsed DOM + blocks)',
  domMs: '&nbsp;&nbsp;of which the DOM parse',
  metadataMs: 'metadata',
  featuresMs: 'block features',
  modelMs: 'first-stage net (ONNX)',
  pageMs: 'page stage (features + net)',
  viterbiMs: 'decoding',
  renderMs: 'output',
  totalMs: 'sum of the stages',
};

function speedSection(bench: BenchResults): string {
  const rows = Object.entries(bench.stages).map(([key, s]) => [STAGE_LABELS[key] ?? key, ms(s.median), ms(s.p95), ms(s.mean)]);
  rows.push(
    ['**pith, whole `extract()` call**', `**${ms(bench.pith.median)}**`, ms(bench.pith.p95), ms(bench.pith.mean)],
    ['**Readability.js on linkedom, whole call**', `**${ms(bench.readability.median)}**`, ms(bench.readability.p95), ms(bench.readability.mean)],
    ["linkedom's parse alone, for reference", ms(bench.linkedomParse.median), ms(bench.linkedomParse.p95), ms(bench.linkedomParse.mean)],
  );
  return [
    '## Speed',
    '',
    `\`${reproduceCommand(bench.command)}\`: the first ${bench.pages} validation pages, pith and Readability.js alternating in one` +
      ` process after a warm-up, ${bench.rounds} round${bench.rounds === 1 ? '' : 's'} (${bench.pages * bench.rounds} timed calls each), feature set \`${bench.featureSet}\`, Node ${bench.node}.` +
      ` Measured ${when(bench.date)}. Milliseconds per page:`,
    '',
    table(['stage', 'median', 'p95', 'mean'], rows),
    '',
    `pith takes **${ratio(bench.ratioMedian)}** the time of Readability.js at the median (${ratio(bench.ratioTotal)} in total time) and is faster on` +
      ` ${(bench.pithFasterShare * 100).toFixed(0)}% of the pages. Timings on a shared machine vary by 30% or more from run to run:` +
      ' compare the ratio within one run, not milliseconds across runs.',
  ].join('\n');
}

function bulkSection(bulk: BulkResults): string {
  const rows = bulk.rows.map((r) => [
    r.name,
    one(r.seconds),
    r.runs.map(one).join(' / '),
    r.pagesPerSecond === undefined ? '–' : one(r.pagesPerSecond),
    r.pagesPerSecondPerCore === undefined ? '–' : one(r.pagesPerSecondPerCore),
    one(r.cpuSeconds),
    r.pagesPerCpuSecond === undefined ? '–' : one(r.pagesPerCpuSecond),
    String(r.failed),
  ]);
  const parts = [
    '## Bulk extraction',
    '',
    `\`${reproduceCommand(bulkCommand(bulk))}\`: all ${int(bulk.pages)} WCXB dev pages, each run a whole process (start-up and` +
      ` model loading included), wall clock and CPU seconds, the median of ${bulk.rounds} rounds in rotating order, on ${bulk.cores} cores.` +
      ` Measured ${when(bulk.date)}.`,
    '',
    table(['run', 'wall s', 'rounds, s', 'pages/s', 'pages/s per core', 'CPU s', 'pages per CPU-second', 'failed'], rows),
    '',
    `- \`--jobs 2\` / \`--jobs 1\`: **${ratio(bulk.speedup)}**.`,
  ];
  if (bulk.perCoreVsReadability !== undefined) {
    parts.push(
      `- Per core against Readability.js in one process: ${ratio(bulk.perCoreVsReadability)} with \`--jobs 2\`` +
        (bulk.perCoreVsReadability1 !== undefined ? `, ${ratio(bulk.perCoreVsReadability1)} with \`--jobs 1\`` : '') +
        (bulk.perCoreVsReadability2 !== undefined ? `; ${ratio(bulk.perCoreVsReadability2)} against Readability.js in two processes` : '') +
        (bulk.cpuVsReadability !== undefined ? `; per CPU-second ${ratio(bulk.cpuVsReadability)}` : '') +
        '.',
    );
  }
  if (bulk.loopRows !== undefined && bulk.loopRows.length > 0) {
    parts.push(
      '',
      'The extraction loop alone (`eval/extract-loop.ts`: one thread per process, no start-up, model loading or warm-up counted),' +
        ' over all pages in one process and over the two halves in two processes at once:',
      '',
      table(['extraction loop', 'loop s', 'rounds, s', 'CPU s'], bulk.loopRows.map((r) => [r.name, one(r.seconds), r.runs.map(one).join(' / '), one(r.cpuSeconds)])),
    );
    if (bulk.ceiling !== undefined) parts.push('', `Two processes against one in the loop alone: ${ratio(bulk.ceiling)}, the ceiling of what this machine gave two copies of the same work in that run.`);
  }
  if (bulk.e2e !== undefined) {
    const e = bulk.e2e;
    parts.push(
      '',
      `**A local job end to end** (\`eval/bulk-job.ts\`, run by the same command: \`npm start\` with its queues, R2 and Durable` +
        ` Objects, and a local page server): ${int(e.urls)} URLs in ${one(e.seconds)} s = ${int(e.pagesPerSecond)} pages/s,` +
        ` ${int(e.done)} done, ${int(e.failed)} failed, ${int(e.lines)} result lines, ${int(e.lost)} URLs lost.`,
    );
  }
  return parts.join('\n');
}

function pairsSection(pairs: PairsResults): string {
  return [
    '### Adjacent pairs',
    '',
    `\`npm run bench:bulk -- --pairs ${pairs.runs.length}\`: \`--jobs 1\` and \`--jobs 2\` back to back, the order alternating,` +
      ` over all ${int(pairs.pages)} pages on ${pairs.cores} cores. Measured ${when(pairs.date)}.`,
    '',
    table(
      ['pairs', 'median ratio', 'ratio of the median times', 'pairs at 1.7x or more', 'median ratio, quiet pairs'],
      [[String(pairs.runs.length), ratio(pairs.medianRatio), ratio(pairs.ratioOfMedians), String(pairs.reached), pairs.medianQuietRatio === null ? '–' : ratio(pairs.medianQuietRatio)]],
    ),
  ].join('\n');
}

export function benchmarksDoc(results: Results): string {
  const parts = [
    '# Benchmarks',
    '',
    `<!-- Written by \`${REGENERATE_COMMAND}\` (dev/benchmarks-doc.ts) from eval/results/*.json. Do not edit: rerun the` +
      ' benchmark with --save, which rewrites this file, or run the command. test/node/docs.test.ts fails when it is stale. -->',
    '',
    'Every figure here is read from the result files in `eval/results/`, which the commands below write when run with' +
      ' `-- --save` (without it they write the untracked `eval/results/local/`). The runs happened on a 2-core virtual' +
      ' machine shared with other work, so absolute times move by 30% or more between runs; ratios measured within one' +
      ' run are the figures to compare. The corpus is the WCXB development set (`$PITH_DATA_DIR`, by default' +
      ' `../shared/data/wcxb-dev`; docs/training.md).',
  ];
  if (results.eval) parts.push('', qualitySection(results.eval));
  if (results.bench) parts.push('', speedSection(results.bench));
  if (results.bulk) parts.push('', bulkSection(results.bulk));
  if (results.pairs) parts.push('', pairsSection(results.pairs));
  if (results.other.length > 0) parts.push('', '## Other result files', '', ...results.other.map((f) => `- \`eval/results/${f}\` (not rendered here)`));
  return parts.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------------
// The README block: one table, current figures, each with the command that reproduces it, no dates.

export function readmeBlock(results: Results): string {
  const rows: string[][] = [];
  const ev = results.eval;
  if (ev) {
    const cmd = `\`${reproduceCommand(ev.command)}\``;
    const pith = systemOf(ev, 'pith');
    const base = (key: string, name: string) => {
      const s = systemOf(ev, key);
      return s === undefined ? null : `${name} ${f3(s.summary.f1)}`;
    };
    if (pith) {
      rows.push([
        `word-F1, WCXB dev validation split (${ev.pages} pages)`,
        `**${f3(pith.summary.f1)}**`,
        [base('readability', 'Readability.js'), base('paper', 'the paper\'s features'), base('all', 'all text'), base('nothing', 'nothing')].filter(Boolean).join(', '),
        cmd,
      ]);
      const article = pith.summary.byType.article;
      const readabilityArticle = systemOf(ev, 'readability')?.summary.byType.article;
      if (article) {
        rows.push([
          `word-F1 on its ${article.n} articles; precision`,
          `${f3(article.f1)}; ${f3(article.precision)}`,
          readabilityArticle ? `Readability.js ${f3(readabilityArticle.f1)}; ${f3(readabilityArticle.precision)}` : '–',
          cmd,
        ]);
      }
    }
    const rp = ev.readabilityPages;
    const rpPith = rp?.rows.find((r) => r.key === 'pith');
    const rpReadability = rp?.rows.find((r) => r.key === 'readability');
    if (rp && rpPith) {
      rows.push([
        `word-F1, Readability.js test pages (${rp.pages}, validation part)`,
        f3(rpPith.f1),
        rpReadability ? `Readability.js ${f3(rpReadability.f1)} (its own regression pages)` : '–',
        cmd,
      ]);
    }
  }
  const bench = results.bench;
  if (bench) {
    rows.push([
      `ms per page, median (p95), ${bench.pages} validation pages, one process`,
      `**${ms(bench.pith.median)}** (${ms(bench.pith.p95)})`,
      `Readability.js ${ms(bench.readability.median)} (${ms(bench.readability.p95)}): pith takes ${ratio(bench.ratioMedian)} its time`,
      `\`${reproduceCommand(bench.command)}\``,
    ]);
  }
  const bulk = results.bulk;
  if (bulk) {
    const cmd = `\`${reproduceCommand(bulkCommand(bulk))}\``;
    const j1 = rowNamed(bulk, 'pith --jobs 1');
    const j2 = rowNamed(bulk, 'pith --jobs 2');
    const r1 = bulk.rows.find((r) => r.name.startsWith('Readability') && !r.name.includes('processes'));
    const r2 = bulk.rows.find((r) => r.name.startsWith('Readability') && r.name.includes('processes'));
    if (j1 && r1?.pagesPerSecond !== undefined && j1.pagesPerSecond !== undefined) {
      rows.push([`pages/s, \`pith batch --jobs 1\` over ${int(bulk.pages)} pages, start-up included`, one(j1.pagesPerSecond), `Readability.js ${one(r1.pagesPerSecond)}`, cmd]);
    }
    if (j2 && j2.pagesPerSecond !== undefined) {
      rows.push([
        `pages/s, \`pith batch --jobs 2\` on ${bulk.cores} cores`,
        `**${one(j2.pagesPerSecond)}** (${ratio(bulk.speedup)} \`--jobs 1\`)`,
        r2?.pagesPerSecond !== undefined ? `Readability.js in two processes ${one(r2.pagesPerSecond)}` : '–',
        cmd,
      ]);
    }
    if (bulk.e2e) {
      rows.push([`a local ${int(bulk.e2e.urls)}-URL job through \`npm start\``, `${int(bulk.e2e.pagesPerSecond)} pages/s, ${int(bulk.e2e.lost)} lost`, '–', cmd]);
    }
  }
  return [README_START, table(['measure', 'pith', 'baselines', 'reproduce'], rows, ['l', 'r', 'l', 'l']), README_END].join('\n');
}

/** README.md with its results block replaced; throws when the markers are missing. */
export function readmeWithBlock(readme: string, block: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no results block: put the lines\n${README_START}\n${README_END}\nwhere the table goes`);
  return readme.slice(0, start) + block + readme.slice(end + README_END.length);
}

/** Rewrites docs/benchmarks.md and the README block from eval/results/; returns the files that changed. */
export function writeBenchmarkDocs(dir = RESULTS_DIR): string[] {
  const results = readResults(dir);
  const changed: string[] = [];
  const doc = benchmarksDoc(results);
  if (!existsSync(BENCHMARKS_DOC) || readFileSync(BENCHMARKS_DOC, 'utf8') !== doc) {
    writeFileSync(BENCHMARKS_DOC, doc);
    changed.push('docs/benchmarks.md');
  }
  const readme = readFileSync(README, 'utf8');
  const next = readmeWithBlock(readme, readmeBlock(results));
  if (next !== readme) {
    writeFileSync(README, next);
    changed.push('README.md');
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  try {
    const changed = writeBenchmarkDocs();
    process.stdout.write(changed.length === 0 ? 'docs:benchmarks: docs/benchmarks.md and README.md are current\n' : `docs:benchmarks: wrote ${changed.join(', ')}\n`);
  } catch (err) {
    process.stderr.write(`docs:benchmarks: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
