// `npm run bench:memory`: peak memory and time of one extraction, against the 128 MB of a Workers isolate.
// Not a test. Each measurement runs in a fresh Node process (`--expose-gc --trace-gc`) after a warm-up extraction
// (the ONNX sessions loaded, as in a warm isolate).
//
//   npm run bench:memory                        the validation split of the WCXB dev corpus (median, p95, largest
//                                               page) and the worst inputs the limits accept
//   npm run bench:memory -- --limit 50          the first 50 validation pages only
//   npm run bench:memory -- --sweep             five worst inputs at 1/4, 1/2 and all of their budget, then at
//                                               maxInputChars (linear up to the budget, flat past it?)
//   npm run bench:memory -- --worst-only        only the worst inputs
//   npm run bench:memory -- --worst-only --old-space-mib 64
//                                               the same with V8's heap capped (old space 64 MiB, semi-spaces 4 MiB):
//                                               an extraction that needs more dies ("out of memory" in the table)
//   npm run bench:memory -- --scan-cost         CPU time of the pre-parse scan beside the whole extract() call,
//                                               first 100 validation pages (the scan is on every request's path)
//   npm run bench:memory -- --check-corpus      scan all 1,497 pages with the default limits: is any refused or cut?
//
// Peak heap: the largest V8 heap in use during the extraction, read from `--trace-gc` (the heap in use before each
// collection, garbage included) and from the heap in use at the end, the result still alive; the input string and
// the loaded models are in it. The children cap V8's young generation (`--max-semi-space-size=4`), as a small isolate
// would: left to grow, it holds tens of MB of garbage between collections in a long run. Wasm and array buffers (onnxruntime's linear memory, which never shrinks) are `external` at the end.
// Peak total = peak heap + external. Every extraction renders format 'json' (text, markdown and html), the costliest.

import { spawnSync } from 'node:child_process';
import { writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.js';
import { extract } from '../src/hosts/node/lib.js';
import { scanMarkup } from '../src/core/parse/markup-scan.js';
import { iterateCorpus, loadPage } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';
import { requireModels } from './require-models.js';

const SELF = fileURLToPath(import.meta.url);
const REPO_ROOT = resolve(dirname(SELF), '..');
const MiB = 1024 * 1024;
const ISOLATE_MIB = 128;

/**
 * The worst inputs the default limits accept. Each is a unit repeated: `n` times fills one budget just under its
 * limit (nothing cut), `nMax` times fills maxInputChars (the page is cut at the budget before parsing: the largest
 * input accepted, the budget's parse, plus the input string itself). A normal page is far from all of them (the
 * corpus's largest figures: `--check-corpus`).
 */
export const WORST: Record<string, { n: number; nMax: number; make: (n: number) => string; what: string }> = {
  paragraphs: { n: 39_900, nMax: 2_090_000, make: (n) => '<p>a'.repeat(n), what: '`<p>a` (maxParseElements, maxBlocks)' },
  br: { n: 39_900, nMax: 2_090_000, make: (n) => '<br>'.repeat(n), what: '`<br>` (maxParseElements)' },
  references: { n: 49_900, nMax: 1_670_000, make: (n) => '&amp;'.repeat(n), what: '`&amp;`: two text nodes each (maxParseNodes)' },
  attributes: {
    n: 99,
    nMax: 1_700,
    make: (n) => ('<div' + Array.from({ length: 1_000 }, (_, i) => ` a${i}`).join('') + '>x</div>').repeat(n),
    what: 'elements with 1,000 distinct attributes each (maxParseNodes)',
  },
  classNames: {
    n: 12,
    nMax: 170,
    make: (n) => ('<i class="' + Array.from({ length: 8_000 }, (_, i) => `c${i}`).join(' ') + '">x</i>').repeat(n),
    what: 'elements with 8,000 class names each (maxClassNames, maxParseNodes)',
  },
  links: {
    n: 24_900,
    nMax: 200_000,
    make: (n) => Array.from({ length: n }, (_, i) => `<a href="/page/${i}">link ${i}</a> `).join(''),
    what: 'links: four nodes each (maxParseNodes, maxBlocks)',
  },
  deep: {
    n: 250,
    nMax: 250,
    make: (n) => '<div>'.repeat(4_000) + '<span>deep text</span>'.repeat(n) + '</div>'.repeat(4_000),
    what: '4,000 nested divs holding spans (maxNestingDepth, maxParseSteps)',
  },
  text: {
    n: 20_800,
    nMax: 20_800,
    make: (n) => ('<p>' + 'Plain words of a very long article, one paragraph after another. '.repeat(6) + '</p>').repeat(n),
    what: 'paragraphs of 400 characters (maxInputChars, maxBlocks)',
  },
  textCjk: {
    n: 19_100,
    nMax: 19_100,
    make: (n) => ('<p>' + '长篇文章中的普通文字，一段接着一段。'.repeat(24) + '</p>').repeat(n),
    what: 'paragraphs of 432 CJK characters, a two-byte string (maxInputChars)',
  },
};

interface Measure {
  id: string;
  chars: number;
  ms: number;
  /** CPU time of the process during the extraction (user + system; includes V8's GC threads). */
  cpuMs: number;
  peakHeapMiB: number;
  externalMiB: number;
  baseHeapMiB: number;
  error?: string;
}

// ---- child: measure extractions in this process, one line per extraction on fd 1 (in order with --trace-gc) ----

async function child(job: { kind: 'corpus'; ids: string[] } | { kind: 'worst'; name: string; n: number }): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  // V8 prints its GC trace through a buffered stdout, so the order of its lines and ours is not kept: GC lines are
  // matched to extractions by time instead. This first collection ties V8's clock to performance.now().
  const calibrationMs = performance.now();
  gc();
  writeSync(1, `@@calibration ${calibrationMs}\n`);
  await extract('<p>warm up the model sessions</p>');
  const items: Array<{ id: string; html: () => string; url?: string }> =
    job.kind === 'corpus'
      ? job.ids.map((id) => ({ id, html: () => loadPage(id).html, url: undefined }))
      : [{ id: `${job.name}:${job.n}`, html: () => WORST[job.name].make(job.n) }];
  for (const item of items) {
    let html = item.html();
    const url = job.kind === 'corpus' ? loadPage(item.id).url || undefined : undefined;
    gc();
    gc();
    const base = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let error: string | undefined;
    let result: unknown;
    try {
      result = await extract(html, { url, format: 'json' });
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message.slice(0, 120)}` : String(e);
    }
    const t1 = performance.now();
    const ms = t1 - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const mem = process.memoryUsage();
    writeSync(1, `@@end ${JSON.stringify({ id: item.id, chars: html.length, t0, t1, ms, cpuMs, end: mem.heapUsed, external: mem.external, base, error })}\n`);
    result = undefined;
    html = '';
    void result;
  }
}

// ---- parent: run children, read their GC traces ----

/** V8 flags of the children: the young generation capped (semi-spaces of 4 MiB), as in a small isolate. */
let heapFlags: string[] = ['--max-semi-space-size=4'];

/** A `--trace-gc` line: V8's time (ms since the isolate started) and the heap in use before the collection (MB). */
const GC_LINE = /^\[\d+:0x[0-9a-f]+\]\s+(\d+) ms: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)[^\d]*([\d.]+) \(/;

function runChild(job: object): Measure[] {
  const r = spawnSync(process.execPath, [...heapFlags, '--expose-gc', '--trace-gc', '--import', 'tsx', SELF, '--child', JSON.stringify(job)], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * MiB,
  });
  if (r.status !== 0) {
    if (/heap out of memory/.test(r.stderr)) return [{ id: '', chars: 0, ms: NaN, cpuMs: NaN, peakHeapMiB: NaN, externalMiB: NaN, baseHeapMiB: NaN, error: 'out of memory' }];
    throw new Error(`child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  }
  const gcs: Array<{ v8Ms: number; beforeMiB: number; calibration: boolean }> = [];
  const ends: Array<{ id: string; chars: number; t0: number; t1: number; ms: number; cpuMs: number; end: number; external: number; base: number; error?: string }> = [];
  let calibrationMs = NaN;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('@@calibration ')) calibrationMs = Number(line.slice(14));
    else if (line.startsWith('@@end ')) ends.push(JSON.parse(line.slice(6)));
    else {
      const g = GC_LINE.exec(line);
      // V8 prints MB of 2^20 bytes.
      if (g) gcs.push({ v8Ms: Number(g[1]), beforeMiB: Number(g[2]), calibration: line.includes('testing') });
    }
  }
  const first = gcs.find((g) => g.calibration);
  if (first === undefined || Number.isNaN(calibrationMs)) throw new Error('no calibration collection in the GC trace');
  const offsetMs = calibrationMs - first.v8Ms; // performance.now() = V8's time + offset (to ~1 ms)
  return ends.map((m) => {
    let peak = m.end / MiB;
    for (const g of gcs) {
      const at = g.v8Ms + offsetMs;
      if (at >= m.t0 - 1 && at <= m.t1 + 1) peak = Math.max(peak, g.beforeMiB);
    }
    return { id: m.id, chars: m.chars, ms: m.ms, cpuMs: m.cpuMs, peakHeapMiB: peak, externalMiB: m.external / MiB, baseHeapMiB: m.base / MiB, error: m.error };
  });
}

const f1 = (x: number): string => x.toFixed(1);
const row = (label: string, m: Measure): string =>
  `| ${label} | ${m.chars.toLocaleString('en')} | ${Math.round(m.ms)} | ${Math.round(m.cpuMs)} | ${f1(m.peakHeapMiB)} | ${f1(m.externalMiB)} | ${f1(m.peakHeapMiB + m.externalMiB)} | ${m.error ?? (m.peakHeapMiB + m.externalMiB < ISOLATE_MIB ? 'fits' : '**over**')} |`;
const HEADER = '| input | characters | wall ms | CPU ms | peak heap MiB | external MiB | peak total MiB | |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |';

function checkCorpus(): void {
  const bounds = {
    maxDepth: DEFAULT_LIMITS.maxNestingDepth,
    maxNodes: DEFAULT_LIMITS.maxParseNodes,
    maxElements: DEFAULT_LIMITS.maxParseElements,
    maxStackSteps: DEFAULT_LIMITS.maxParseSteps,
    maxClassTokens: DEFAULT_LIMITS.maxClassNames,
  };
  const max = { maxDepth: 0, elements: 0, nodes: 0, stackSteps: 0, maxClassTokens: 0, chars: 0 };
  const refused: string[] = [];
  let n = 0;
  for (const page of iterateCorpus()) {
    n++;
    const s = scanMarkup(page.html, bounds);
    if (s.exceeded !== null || page.html.length > DEFAULT_LIMITS.maxInputChars) refused.push(`${page.id} (${s.exceeded ?? 'maxInputChars'})`);
    max.maxDepth = Math.max(max.maxDepth, s.maxDepth);
    max.nodes = Math.max(max.nodes, s.nodes);
    max.elements = Math.max(max.elements, s.elements);
    max.stackSteps = Math.max(max.stackSteps, s.stackSteps);
    max.maxClassTokens = Math.max(max.maxClassTokens, s.maxClassTokens);
    max.chars = Math.max(max.chars, page.html.length);
  }
  console.log(`${n} pages scanned with the default limits; refused or cut: ${refused.length}${refused.length ? ` (${refused.join(', ')})` : ''}`);
  console.log('| figure | largest in the corpus | limit |\n| --- | ---: | ---: |');
  console.log(`| characters | ${max.chars.toLocaleString('en')} | ${DEFAULT_LIMITS.maxInputChars.toLocaleString('en')} (maxInputChars) |`);
  console.log(`| nesting depth | ${max.maxDepth} | ${DEFAULT_LIMITS.maxNestingDepth.toLocaleString('en')} (maxNestingDepth) |`);
  console.log(`| parse elements | ${max.elements.toLocaleString('en')} | ${DEFAULT_LIMITS.maxParseElements.toLocaleString('en')} (maxParseElements) |`);
  console.log(`| parse nodes | ${max.nodes.toLocaleString('en')} | ${DEFAULT_LIMITS.maxParseNodes.toLocaleString('en')} (maxParseNodes) |`);
  console.log(`| parser stack steps | ${max.stackSteps.toLocaleString('en')} | ${DEFAULT_LIMITS.maxParseSteps.toLocaleString('en')} (maxParseSteps) |`);
  console.log(`| class names in one attribute | ${max.maxClassTokens.toLocaleString('en')} | ${DEFAULT_LIMITS.maxClassNames.toLocaleString('en')} (maxClassNames) |`);
  if (refused.length > 0) process.exitCode = 1;
}

/** CPU ms per page of scanMarkup and of extract() on the first 100 validation pages, after a warm-up; 3 rounds. */
async function scanCost(): Promise<void> {
  const pages = readSplits().val.slice(0, 100).map((id) => loadPage(id).html);
  const bounds = {
    maxDepth: DEFAULT_LIMITS.maxNestingDepth,
    maxElements: DEFAULT_LIMITS.maxParseElements,
    maxNodes: DEFAULT_LIMITS.maxParseNodes,
    maxStackSteps: DEFAULT_LIMITS.maxParseSteps,
    maxClassTokens: DEFAULT_LIMITS.maxClassNames,
  };
  const cpuMs = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  for (const html of pages.slice(0, 10)) {
    scanMarkup(html, bounds);
    await extract(html);
  }
  for (let round = 1; round <= 3; round++) {
    let c0 = cpuMs();
    for (let k = 0; k < 5; k++) for (const html of pages) scanMarkup(html, bounds);
    const scan = (cpuMs() - c0) / 5 / pages.length;
    c0 = cpuMs();
    for (const html of pages) await extract(html);
    const whole = (cpuMs() - c0) / pages.length;
    console.log(`round ${round}: scan ${scan.toFixed(3)} ms/page, extract() ${whole.toFixed(2)} ms/page (CPU): the scan is ${((100 * scan) / whole).toFixed(1)}%`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      limit: { type: 'string' },
      sweep: { type: 'boolean', default: false },
      'check-corpus': { type: 'boolean', default: false },
      'worst-only': { type: 'boolean', default: false },
      'scan-cost': { type: 'boolean', default: false },
      'old-space-mib': { type: 'string' },
    },
  });
  if (values.child) return child(JSON.parse(values.child));
  if (values['check-corpus']) return checkCorpus();
  if (values['scan-cost']) return scanCost();
  requireModels(['pith'], 'bench:memory');
  if (values['old-space-mib']) heapFlags = [...heapFlags, `--max-old-space-size=${Number(values['old-space-mib'])}`];
  if (values.sweep) {
    console.log(HEADER);
    for (const name of ['paragraphs', 'references', 'links', 'text', 'textCjk']) {
      const { n, nMax } = WORST[name];
      const sizes = [n / 4, n / 2, n].map((x) => Math.max(1, Math.round(x)));
      if (nMax > n) sizes.push(nMax);
      for (const k of sizes) console.log(row(`${name} x ${k.toLocaleString('en')}`, runChild({ kind: 'worst', name, n: k })[0]));
    }
    return;
  }
  if (values['worst-only']) {
    console.log(HEADER);
    for (const [name, w] of Object.entries(WORST)) {
      console.log(row(`worst: ${w.what} x ${w.nMax.toLocaleString('en')}`, runChild({ kind: 'worst', name, n: w.nMax })[0]));
    }
    return;
  }
  const val = readSplits().val;
  const ids = values.limit ? val.slice(0, Number(values.limit)) : val;
  process.stderr.write(`bench:memory: ${ids.length} validation pages in one process, then each worst input in its own\n`);
  const pages = runChild({ kind: 'corpus', ids }).sort((a, b) => a.peakHeapMiB + a.externalMiB - (b.peakHeapMiB + b.externalMiB));
  const at = (q: number): Measure => pages[Math.min(pages.length - 1, Math.floor(q * pages.length))];
  const largest = pages.reduce((a, b) => (b.chars > a.chars ? b : a));
  console.log(`Peak memory of one extraction (format json) after a warm-up; a Workers isolate has ${ISOLATE_MIB} MB.`);
  console.log(`Heap in use before each extraction (models loaded, after gc): ${f1(pages[0].baseHeapMiB)} MiB.\n`);
  console.log(HEADER);
  console.log(row(`median of ${pages.length} validation pages (${at(0.5).id})`, at(0.5)));
  console.log(row(`p95 (${at(0.95).id})`, at(0.95)));
  console.log(row(`highest (${pages[pages.length - 1].id})`, pages[pages.length - 1]));
  console.log(row(`largest page (${largest.id})`, largest));
  for (const [name, w] of Object.entries(WORST)) {
    console.log(row(`worst: ${w.what} x ${w.nMax.toLocaleString('en')}`, runChild({ kind: 'worst', name, n: w.nMax })[0]));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) await main();
