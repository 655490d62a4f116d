// The fidelity table (dev/fidelity.ts): per element kind on the Readability.js test pages (validation part), and
// repeated paragraphs, empty outputs and `<pre>` kept partly over the WCXB dev pages; pith and Readability.js.
//
//   npx tsx eval/fidelity-eval.ts [--dev-pages val|all] [--list]     (val: the validation split, as `npm run eval`
//                                                                     runs it; --list: each repeated paragraph)
//
// Writes eval/results/local/fidelity.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extract } from '../src/hosts/node/lib.js';
import { countWords } from '../src/core/render/text.js';
import { iterateCorpus, listPageIds } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';
import { KINDS, type Kind, type KindCount, compareKinds, preKeptPartly, repeatedParagraphs } from '../dev/fidelity.js';
import { readabilityExtract } from './readability.js';
import { READABILITY_PAGE_URL, loadReadabilityPage, readReadabilitySplit } from '../dev/readability-pages.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface DevFidelity {
  pages: number;
  repeatPages: number;
  emptyPages: number;
  prePartly: number;
  preBlocks: number;
}

export interface FidelityResult {
  readabilityPages: number;
  kinds: Record<'pith' | 'readability', Record<Kind, KindCount>>;
  devSplit: string;
  dev: Record<'pith' | 'readability', DevFidelity>;
}

const emptyKinds = (): Record<Kind, KindCount> => Object.fromEntries(KINDS.map((k) => [k, { expected: 0, found: 0, extra: 0 }])) as Record<Kind, KindCount>;
const emptyDev = (): DevFidelity => ({ pages: 0, repeatPages: 0, emptyPages: 0, prePartly: 0, preBlocks: 0 });

function add(into: Record<Kind, KindCount>, c: Record<Kind, KindCount>): void {
  for (const k of KINDS) {
    into[k].expected += c[k].expected;
    into[k].found += c[k].found;
    into[k].extra += c[k].extra;
  }
}

/** Where `--list` writes each repeated paragraph (page id, system, times in the output and the reference, text). */
let listRepeats: ((line: string) => void) | null = null;

function tally(d: DevFidelity, html: string, text: string, sourceHtml: string, reference: string, label: string): void {
  d.pages++;
  const repeats = repeatedParagraphs(html, reference);
  if (repeats.length > 0) d.repeatPages++;
  if (listRepeats !== null) for (const [p, n, inRef] of repeats) listRepeats(`${label}\t${n}/${inRef}\t${p.slice(0, 160)}`);
  if (countWords(text) === 0 && countWords(reference) > 0) d.emptyPages++;
  const [partly, counted] = preKeptPartly(sourceHtml, text);
  d.prePartly += partly;
  d.preBlocks += counted;
}

/** Runs both parts; `devPages` 'val' (the validation split) or 'all' (every dev page). */
export async function runFidelity(devPages: 'val' | 'all' = 'val'): Promise<FidelityResult> {
  const kinds = { pith: emptyKinds(), readability: emptyKinds() };
  const split = readReadabilitySplit();
  for (const slug of split.val) {
    const page = loadReadabilityPage(slug);
    const pith = await extract(page.html, { url: READABILITY_PAGE_URL, format: 'html' });
    add(kinds.pith, compareKinds(page.expectedHtml, pith.html ?? ''));
    add(kinds.readability, compareKinds(page.expectedHtml, readabilityExtract(page.html).html));
  }
  const ids = devPages === 'all' ? listPageIds() : readSplits().val;
  const dev = { pith: emptyDev(), readability: emptyDev() };
  for (const p of iterateCorpus(ids)) {
    const reference = p.groundTruth.mainContent;
    const pith = await extract(p.html, { url: p.url || undefined, format: 'html' });
    tally(dev.pith, pith.html ?? '', pith.text, p.html, reference, `${p.id}\tpith`);
    const rd = readabilityExtract(p.html);
    tally(dev.readability, rd.html, rd.text, p.html, reference, `${p.id}\treadability`);
  }
  return { readabilityPages: split.val.length, kinds, devSplit: devPages, dev };
}

const share = (a: number, b: number): string => (b === 0 ? '–' : (a / b).toFixed(3));

/** The fidelity table, as markdown. */
export function renderFidelity(r: FidelityResult): string {
  const rows: string[] = [];
  rows.push(`Fidelity on the Readability.js test pages, validation part (${r.readabilityPages} pages): share of the expected elements the HTML output has as the same kind (extra ones per expected one)`);
  rows.push('');
  rows.push(`| kind | expected | pith | pith extra | Readability.js | Readability.js extra |`);
  rows.push('|---|---:|---:|---:|---:|---:|');
  for (const k of KINDS) {
    const p = r.kinds.pith[k];
    const d = r.kinds.readability[k];
    rows.push(`| ${k} | ${p.expected} | ${share(p.found, p.expected)} | ${share(p.extra, p.expected)} | ${share(d.found, d.expected)} | ${share(d.extra, d.expected)} |`);
  }
  rows.push('');
  const p = r.dev.pith;
  const d = r.dev.readability;
  rows.push(`WCXB dev pages (${r.devSplit === 'all' ? 'all' : 'validation split'}, ${p.pages}): pages whose output repeats a paragraph of 80+ characters more often than the ground truth, pages empty where the ground truth is not, <pre> blocks (2+ lines) kept partly`);
  rows.push('');
  rows.push('| system | repeat pages | empty pages | <pre> kept partly |');
  rows.push('|---|---:|---:|---:|');
  rows.push(`| pith | ${p.repeatPages} | ${p.emptyPages} | ${p.prePartly} of ${p.preBlocks} |`);
  rows.push(`| Readability.js (linkedom) | ${d.repeatPages} | ${d.emptyPages} | ${d.prePartly} of ${d.preBlocks} |`);
  return rows.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'dev-pages': { type: 'string', default: 'val' }, list: { type: 'boolean', default: false } } });
  if (values.list) listRepeats = (line) => process.stderr.write(line + '\n');
  const devPages = values['dev-pages'] === 'all' ? 'all' : 'val';
  const r = await runFidelity(devPages);
  process.stdout.write(renderFidelity(r) + '\n');
  const dir = join(REPO_ROOT, 'eval', 'results', 'local');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'fidelity.json'), JSON.stringify(r, null, 2) + '\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`fidelity-eval: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}
