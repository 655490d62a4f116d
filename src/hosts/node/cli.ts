// The `pith` command line over extract(). Node only; the only file of src/ that touches the file system,
// stdin/stdout and (for `pith extract <url>`) the network.
//
// Exit codes: 0 success; 1 extraction or fetch failed (or, for batch, at least one page failed);
// 2 usage error (unknown command or option, missing argument, file or folder not found).

import { createWriteStream, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import './brotli.js';
import { gunzipIfNeeded, htmlOf, pageFileBytesOf, readFileBounded, readStreamBounded } from './html-bytes.js';
import { limitsOf, parseLimit, type Limits } from '../../config.js';
import { gzipMember, isGzipName } from './batch-gzip.js';
import { NEAR_DUPLICATE_PARAMS } from '../../core/fingerprint/near-duplicates.js';
import { BATCH_FORMATS, WASM_TIERING_V8_FLAG, batchOutputSoFar, isWarcPath, itemsAfter, pageFilesOf, pageIdIn, pageIdOf, runBatchPool, warcPages, type BatchItem, type BatchOutputSoFar } from './batch.js';
import { PithError } from '../../errors.js';
import { fetchPage, type FetchedPage } from '../../io/fetch.js';
import { ALLOW_ALL_HOSTS, checkTarget } from '../../io/guard.js';
import { type FeatureSetName, FORMATS, isFormat } from '../../types.js';
import { present, type PresentContext } from '../../core/render/present.js';


const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** Defaults for fetching a URL. */
const FETCH_TIMEOUT_MS = 15_000;
const FETCH_MAX_BYTES = 8 * 1024 * 1024;
/** Redirects followed for a URL, each hop checked like the first. */
const FETCH_MAX_REDIRECTS = 5;

const MAIN_HELP = `pith: the main content of a web page as plain text (Web2Text method)

Usage:
  pith extract <file|url|->  [--format text|markdown|html|json|debug|reader] [--feature-set pith|paper]
  pith batch <dir> --out <file.jsonl>  [--format text|markdown|html|json] [--jobs N] [--feature-set pith|paper] [--resume] [--recursive]
  pith batch <file.warc[.gz]>... --out <file.jsonl>  [--format ...] [--jobs N] [--feature-set pith|paper] [--resume]
  pith duplicates <file.jsonl>...  [--out <clusters.jsonl>] [--jobs N]
  pith <command> --help
  pith --version

Commands:
  extract   print the main text of one page (a file, .html.gz included, an http(s) URL, or - for stdin)
  batch     extract every .html, .htm and .html.gz file of a folder, or the HTML pages of WARC files, into one JSON
            line per page, on all cores
  duplicates
            near-duplicate clusters over what pith batch wrote (the method of the bulk jobs' /duplicates)

Input that is not HTML (an image, a PDF, other binary data, text without any tag) is refused with exit code 1.
Exit codes: 0 ok, 1 extraction or fetch failed, 2 usage error (bad arguments, missing file).
`;

const EXTRACT_HELP = `Usage: pith extract <file|url|->  [options]

Prints the main content of one page as plain text, with a blank line between blocks.

  <file>     an HTML file; files ending in .gz (or starting with gzip's magic bytes) are decompressed
  <url>      an http:// or https:// URL, fetched once (timeout ${FETCH_TIMEOUT_MS / 1000} s, at most ${FETCH_MAX_BYTES / (1024 * 1024)} MiB)
  -          read the HTML from stdin

Options:
  --format <f>              text (default); markdown; html (sanitised, safe to embed, in a small standalone
                            page); debug (an HTML page showing every block, kept ones highlighted with their
                            probability); json (the whole result, the Worker's shape: url, finalUrl, title,
                            metadata, text, markdown, html, wordCount, fingerprint, timings, blocks...;
                            fingerprint.simhash: 64-bit SimHash of the text, 16 hex digits); reader (the
                            article as a page to read: title, byline, date, light and dark themes, no script)
  --url <url>               the page's address, for a file or stdin: links and images become absolute
  --feature-set pith|paper  which model to use (default: pith)
  --timeout-ms <n>          fetch timeout for a URL (default ${FETCH_TIMEOUT_MS})
  --max-bytes <n>           largest response accepted for a URL (default ${FETCH_MAX_BYTES})
  --limit <name>=<n>        raise or lower a parse limit, e.g. --limit maxBlocks=20000 (repeatable; the names
                            and defaults: DEFAULT_LIMITS in the README's Limits table)
  --allow-private           fetch loopback, private and link-local addresses and local names too (refused by
                            default, like the Worker does; at most ${FETCH_MAX_REDIRECTS} redirects, each checked)
  -h, --help                this help

The charset is taken from the byte-order mark, the HTTP Content-Type or a <meta charset>, else UTF-8.
`;

const BATCH_HELP = `Usage: pith batch <dir> --out <file.jsonl>  [options]
       pith batch <file.warc[.gz]>... --out <file.jsonl>  [options]

Extracts every .html, .htm and .html.gz file directly inside <dir> (sorted by name; with --recursive in its
subfolders too, sorted by path, the id then being the path below <dir>, e.g. "site/news/index"), or every HTML page
of WARC files (each "response" record with a 2xx HTML payload; .warc.gz may hold one gzip member per record), and
writes one line per page: {"id": <file name without .html/.html.gz, or the record's URL>, "url": <the record's
URL, WARC only>, "text": <main text>, "fingerprint": {"simhash": <16 hex>}, "ms": <extraction time, 0.01 ms>};
--format markdown or html adds that field, --format json writes the id, the whole result in the shape of
pith extract --format json (url, finalUrl, title, metadata, text, markdown, html, ..., blocks), then "ms". Lines come out in input order whatever --jobs is. The fingerprint is always written (it costs about 0.1 ms a page): pages
whose simhash values differ in at most 3 of 64 bits are near-duplicates (see hammingDistance and simhashBands in
the library). A page that fails (not HTML, broken gzip) gets {"id", "text": "", "fingerprint": null, "ms", "error":
<message>} and the run goes on; the exit code is then 1. Progress goes to stderr.

An interrupted run (killed, out of memory, a reboot) is continued with the same command and --resume: the pages whose
lines are complete in --out are checked against the inputs (the same ids in the same order, else nothing is written)
and skipped, half a line left by the interruption is dropped, and the other pages are appended. Give the same inputs
and options (--format is checked; --feature-set cannot be).

Options:
  --out <file.jsonl>        where to write the lines (required; - for stdout); a name ending in .gz writes them
                            gzip-compressed (gzip members of whole lines; zcat reads them; --resume continues them)
  --resume                  continue the --out file of an interrupted run instead of starting it again
  --recursive, -r           also the pages in <dir>'s subfolders (links to folders are not followed)
  --format <f>              text (default), markdown, html or json: what each line carries besides the text
  --jobs <n>, -j <n>        worker processes extracting at once (default: the number of cores, here ${availableParallelism()});
                            --jobs 1 is one worker process
  --feature-set pith|paper  which model to use (default: pith)
  --limit <name>=<n>        a parse limit for every page, as for pith extract (repeatable)
  -h, --help                this help
`;

const DUPLICATES_HELP = `Usage: pith duplicates <file.jsonl>...  [--out <clusters.jsonl>] [--jobs N]

Groups the pages of pith batch output files into clusters of near-duplicates, by the method and parameters of the
bulk jobs' GET /v1/jobs/<id>/duplicates: MinHash signatures of the extracted text (${NEAR_DUPLICATE_PARAMS.shingleSize}-character shingles, ${NEAR_DUPLICATE_PARAMS.numHashes} hash
functions), LSH with ${NEAR_DUPLICATE_PARAMS.bands} bands of ${NEAR_DUPLICATE_PARAMS.rows} rows, a pair joined when its estimated Jaccard similarity is at least ${NEAR_DUPLICATE_PARAMS.threshold},
clusters = connected components. Texts under ${NEAR_DUPLICATE_PARAMS.minShingles} shingles and failed pages are not compared.

Writes one line per cluster, in input order of the clusters' first pages:
  {"ids": [<page ids, input order>], "at": ["<file>:<line number>", ...], "minJaccard": <smallest similarity among
  the pairs that joined the cluster>}
To keep one page of each cluster, drop the ids after the first: jq -r '.ids[1:][]' clusters.jsonl
A summary goes to stderr. Memory: about 1.4 GB per million pages (a signature, an id, where its line is); the
texts are read a line at a time.

Options:
  --out <file>          where to write the clusters (default: stdout)
  --jobs <n>, -j <n>    threads computing the signatures (default: the number of cores, here ${availableParallelism()})
  -h, --help            this help
`;

class UsageError extends Error {}

function featureSetOf(value: string | undefined): FeatureSetName | undefined {
  if (value === undefined) return undefined;
  if (value === 'pith' || value === 'paper') return value;
  throw new UsageError(`--feature-set must be pith or paper, not "${value}"`);
}

function positiveIntOf(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, not "${value}"`);
  return n;
}

/** The limits of --limit name=value flags (DEFAULT_LIMITS for the others), resolved once for every page. */
function limitsOfFlags(flags: string[] | undefined): Readonly<Limits> {
  const overrides: Partial<Limits> = {};
  for (const flag of flags ?? []) {
    const eq = flag.indexOf('=');
    if (eq < 0) throw new UsageError(`--limit takes <name>=<n>, e.g. --limit maxBlocks=20000, not "${flag.slice(0, 40)}"`);
    try {
      const [name, value] = parseLimit(flag.slice(0, eq).trim(), flag.slice(eq + 1).trim());
      overrides[name] = value;
    } catch (err) {
      throw new UsageError(`--limit: ${(err as Error).message}`);
    }
  }
  return limitsOf(overrides);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading HTML (gunzipIfNeeded: html-bytes.ts, shared with batch workers; the charset: io/charset.ts)


async function readHtmlFile(path: string, maxBytes: number): Promise<string> {
  if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
  if (statSync(path).isDirectory()) throw new UsageError(`${path} is a folder: use \`pith batch ${path} --out <file.jsonl>\``);
  return htmlOf(await gunzipIfNeeded(readFileBounded(path, maxBytes), path, maxBytes), path);
}

/** Whether a URL (or a redirect hop) may be fetched: the Worker's address guard, unless private hosts are allowed. */
function allowHostsOf(allowPrivate: boolean): ReadonlySet<string> {
  return allowPrivate ? ALLOW_ALL_HOSTS : NO_HOSTS;
}
const NO_HOSTS: ReadonlySet<string> = new Set();

/**
 * Fetches a page with the one guarded fetch of pith (io/fetch.ts, the Worker's): every hop through the address
 * guard, one deadline, the body decoded and capped, HTML or XHTML only, decoded by its charset.
 */
export async function fetchHtml(url: string, timeoutMs: number, maxBytes: number, allowPrivate = false): Promise<FetchedPage> {
  try {
    return await fetchPage(url, { timeoutMs, maxBytes, maxRedirects: FETCH_MAX_REDIRECTS, allowHosts: allowHostsOf(allowPrivate) });
  } catch (err) {
    if (err instanceof PithError && err.code === 'upstream_timeout') throw new PithError(err.code, `${err.message} (raise --timeout-ms)`, err.details);
    if (err instanceof PithError && err.code === 'upstream_too_large') throw new PithError(err.code, `${err.message} (raise --max-bytes, now ${maxBytes})`, err.details);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

async function runExtract(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      url: { type: 'string' },
      'feature-set': { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-bytes': { type: 'string' },
      limit: { type: 'string', multiple: true },
      'allow-private': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(EXTRACT_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? 'extract needs a file, a URL or - (see pith extract --help)' : `extract takes one page, got ${positionals.length}`,
    );
  }
  const format = values.format ?? 'text';
  if (!isFormat(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
  const featureSet = featureSetOf(values['feature-set']);
  const timeoutMs = positiveIntOf('--timeout-ms', values['timeout-ms'], FETCH_TIMEOUT_MS);
  const maxBytes = positiveIntOf('--max-bytes', values['max-bytes'], FETCH_MAX_BYTES);
  const limits = limitsOfFlags(values.limit);
  const maxFileBytes = pageFileBytesOf(limits);

  const source = positionals[0];
  let url: string | undefined = values.url;
  if (url !== undefined && !URL.canParse(url)) throw new UsageError(`--url must be an absolute URL, not "${url}"`);

  // The model's code is loaded here, not at start-up (`pith batch` leaves it to its workers), while stdin is read or
  // the page fetched. This process extracts one page: onnxruntime's start-up code is not worth optimising (src/hosts/node/batch.ts,
  // WASM_TIERING_V8_FLAG).
  setFlagsFromString(WASM_TIERING_V8_FLAG);
  // loadNodeClassifier keeps the classifier it loads: extract() below finds it there.
  const loadModel = () => {
    const loading = Promise.all([
      import('./lib.js'),
      import('./model-assets.js').then((assets) => assets.loadNodeClassifier(featureSet)),
    ]);
    loading.catch(() => {}); // a page that cannot be read is the error to report; the model's is awaited below
    return loading;
  };
  let html: string;
  let fetched: PresentContext = {};
  let model: ReturnType<typeof loadModel>;
  if (source === '-') {
    model = loadModel();
    html = htmlOf(await gunzipIfNeeded(await readStreamBounded(process.stdin, 'stdin', maxFileBytes), 'stdin', maxFileBytes), 'stdin');
  } else if (/^https?:\/\//i.test(source)) {
    url = source;
    // An address the guard refuses fails at once, before the model loads (fetchHtml checks every hop again).
    checkTarget(source, allowHostsOf(values['allow-private'] === true));
    model = loadModel();
    const page = await fetchHtml(source, timeoutMs, maxBytes, values['allow-private'] === true);
    html = page.html;
    fetched = { finalUrl: page.finalUrl, encoding: page.encoding, fetchMs: page.fetchMs };
  } else {
    html = await readHtmlFile(source, maxFileBytes); // at once: a file that cannot be read ends the command before the model loads
    model = loadModel();
  }

  const [{ extract }] = await model;
  const result = await extract(html, { url, featureSet, format, limits });
  const empty = result.text.length === 0;
  if (empty) process.stderr.write('pith: no main content found\n');
  // Nothing found prints nothing, except the formats that describe the page anyway.
  if (!empty || format === 'json' || format === 'debug') process.stdout.write(present(format, result, { url, ...fetched, blocks: true, indent: 2 }).body);
  return EXIT_OK;
}

/**
 * Text for a stream, written in chunks: when 65,536 characters are waiting, or 100 ms after the first of them,
 * whichever comes first. `pith batch` writes a line and a progress line per page; with --jobs 2 on two cores its
 * process shares them with the workers, and a write per line (two system calls per page, one through libuv's thread
 * pool) is time taken from the extractions. `write` resolves once the text is queued, or written when it filled a
 * chunk (so a slow disk slows the batch down); a failed timed write is left to the stream's 'error' event. With
 * `gzip`, each chunk is written as one gzip member (batch-gzip.ts): whole lines, as they were given.
 */
export class ChunkedWriter {
  static readonly MAX_CHARS = 64 * 1024;
  static readonly MAX_DELAY_MS = 100;
  private pending: string[] = [];
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `stream` may be a function that opens it, called at the first write (pith batch --resume opens its file late). */
  constructor(
    private readonly stream: NodeJS.WritableStream | (() => NodeJS.WritableStream),
    private readonly gzip = false,
  ) {}

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.chars += text.length;
    if (this.chars >= ChunkedWriter.MAX_CHARS) await this.flush();
    else this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), ChunkedWriter.MAX_DELAY_MS);
  }

  /** Writes what is waiting; resolves when the stream has taken it. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return Promise.resolve();
    const text = this.pending.join('');
    const chunk = this.gzip ? gzipMember(text) : text;
    this.pending = [];
    this.chars = 0;
    const stream = typeof this.stream === 'function' ? this.stream() : this.stream;
    return new Promise((ok, fail) => stream.write(chunk, (err) => (err ? fail(err) : ok())));
  }
}

export { pageIdOf };

async function runBatch(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      format: { type: 'string' },
      'feature-set': { type: 'string' },
      limit: { type: 'string', multiple: true },
      jobs: { type: 'string', short: 'j' },
      resume: { type: 'boolean' },
      recursive: { type: 'boolean', short: 'r' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(BATCH_HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('batch needs a folder or .warc/.warc.gz files (see pith batch --help)');
  if (!values.out) throw new UsageError('batch needs --out <file.jsonl> (or --out - for stdout)');
  const featureSet = featureSetOf(values['feature-set']);
  const format = values.format ?? 'text';
  if (!isFormat(format) || !BATCH_FORMATS.includes(format)) {
    throw new UsageError(`--format must be one of ${BATCH_FORMATS.join(', ')} for batch, not "${format}"`);
  }
  const jobs = positiveIntOf('--jobs', values.jobs, availableParallelism());
  const limits = values.limit === undefined ? undefined : limitsOfFlags(values.limit);
  let items: AsyncIterable<BatchItem> | Iterable<BatchItem>;
  let expected: number | null;
  if (positionals.every(isWarcPath)) {
    if (values.recursive) throw new UsageError('--recursive is for a folder of pages, not for WARC files');
    for (const path of positionals) if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no such file: ${path}`);
    items = (async function* () {
      for (const path of positionals) yield* warcPages(path);
    })();
    expected = null;
  } else {
    if (positionals.length !== 1) throw new UsageError('batch takes one folder, or one or more .warc/.warc.gz files');
    const dir = positionals[0];
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such folder: ${dir}`);
    const files = pageFilesOf(dir, values.recursive === true);
    if (files.length === 0) throw new UsageError(`${dir} has no .html, .htm or .html.gz files${values.recursive ? ' in it or its subfolders' : ' (--recursive looks in its subfolders too)'}`);
    items = files.map((path) => ({ id: pageIdIn(dir, path), path }));
    expected = files.length;
  }

  const toStdout = values.out === '-';
  if (!toStdout && !existsSync(dirname(resolve(values.out)))) {
    throw new UsageError(`the folder of --out ${values.out} does not exist`);
  }
  const outPath = resolve(values.out);
  const gzip = !toStdout && isGzipName(outPath); // compressed as it is written (batch-gzip.ts)
  // --resume: what the interrupted run wrote; its pages are checked against the inputs as they are skipped
  const resume = values.resume === true;
  if (resume && toStdout) throw new UsageError('--resume needs --out <file.jsonl>: it continues the file an interrupted run wrote');
  let done: BatchOutputSoFar = { ids: [], failed: 0, format: null, bytes: 0 };
  const resuming = resume && existsSync(outPath);
  if (resuming) {
    done = await batchOutputSoFar(outPath);
    if (done.format !== null && done.format !== format) throw new UsageError(`${values.out} was written with --format ${done.format}: resume with the same --format`);
  }
  let out: NodeJS.WritableStream | null = null;
  let writeError: Error | null = null;
  /** The output, opened at the first line when resuming (the file stays as it is if the inputs turn out not to match). */
  const output = (): NodeJS.WritableStream => {
    if (out !== null) return out;
    if (toStdout) out = process.stdout;
    else if (resuming) {
      truncateSync(outPath, done.bytes); // half a line (or, compressed, half a member) left by the interruption
      out = createWriteStream(outPath, { flags: 'a' });
    } else out = createWriteStream(outPath);
    out.on('error', (err: Error) => {
      writeError = err;
    });
    return out;
  };
  if (!resuming) output();
  const lines = new ChunkedWriter(output, gzip);
  const progress = new ChunkedWriter(process.stderr);

  const skipped = done.ids.length;
  let failed = 0;
  const started = performance.now();
  const pending = skipped > 0 ? itemsAfter(items, done.ids, values.out) : items;
  const added = await runBatchPool(pending, { jobs, featureSet, format, limits }, async (line, i) => {
    if (line.error !== undefined) failed++;
    if (writeError) throw new PithError('internal', `cannot write ${values.out}: ${(writeError as Error).message}`);
    await lines.write(JSON.stringify(line) + '\n');
    await progress.write(`[${skipped + i + 1}${expected === null ? '' : `/${expected}`}] ${line.id} ${line.ms} ms${line.error ? ` FAILED: ${line.error}` : ''}\n`);
  });
  await Promise.all([lines.flush(), progress.flush()]);
  if (writeError) throw new PithError('internal', `cannot write ${values.out}: ${(writeError as Error).message}`);
  if (resuming && out === null) truncateSync(outPath, done.bytes); // nothing left to extract: only the half line goes
  if (!toStdout && out !== null) await new Promise<void>((ok) => out!.end(ok));
  const seconds = (performance.now() - started) / 1000;
  const total = skipped + added;
  failed += done.failed;
  process.stderr.write(
    `pith batch: ${total - failed} of ${total} pages` +
      (skipped > 0 ? ` (${skipped} from the interrupted run, ${added} now)` : '') +
      ` in ${seconds.toFixed(1)} s with ${jobs} job${jobs === 1 ? '' : 's'}` +
      (toStdout ? '' : ` -> ${values.out}`) +
      (failed ? `, ${failed} failed` : '') +
      '\n',
  );
  return failed > 0 ? EXIT_FAILED : EXIT_OK;
}

async function runDuplicates(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string', short: 'o' }, jobs: { type: 'string', short: 'j' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(DUPLICATES_HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('duplicates needs the .jsonl files pith batch wrote (see pith duplicates --help)');
  const seen = new Set<string>();
  for (const path of positionals) {
    if (seen.has(resolve(path))) throw new UsageError(`${path} is given twice: its pages would be near-duplicates of themselves`);
    seen.add(resolve(path));
    if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
    if (!statSync(path).isFile()) throw new UsageError(`${path} is not a file: give the .jsonl files pith batch wrote`);
  }
  const toFile = values.out !== undefined && values.out !== '-';
  if (toFile && !existsSync(dirname(resolve(values.out!)))) throw new UsageError(`the folder of --out ${values.out} does not exist`);
  const started = performance.now();
  const { duplicatesOfBatchOutput } = await import('./batch-duplicates.js');
  const report = await duplicatesOfBatchOutput(positionals, positiveIntOf('--jobs', values.jobs, availableParallelism()));
  const text = report.clusters.map((c) => JSON.stringify(c) + '\n').join('');
  if (toFile) writeFileSync(values.out!, text);
  else await new Promise<void>((ok, fail) => process.stdout.write(text, (err) => (err ? fail(err) : ok())));
  const pages = report.clusters.reduce((sum, c) => sum + c.ids.length, 0);
  process.stderr.write(
    `pith duplicates: ${report.clusters.length} cluster${report.clusters.length === 1 ? '' : 's'} of ${pages} pages` +
      ` (${pages - report.clusters.length} beyond the first of each) among ${report.compared} pages compared of ${report.lines} lines` +
      ` (${report.short} too short to compare, ${report.failed} failed) in ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (toFile ? ` -> ${values.out}` : '') +
      '\n',
  );
  return EXIT_OK;
}

/** `pith --version`: the package version and the versions of the shipped models. */
async function versionText(): Promise<string> {
  const { defaultModelDir, packageRoot } = await import('./model-assets.js');
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  const models: string[] = [];
  for (const set of ['pith', 'paper']) {
    try {
      models.push((JSON.parse(readFileSync(join(defaultModelDir(), `${set}.json`), 'utf8')) as { version: string }).version);
    } catch {
      models.push(`${set}: missing`);
    }
  }
  return `pith ${manifest.version} (models ${models.join(', ')}; Node ${process.version})\n`;
}

/** Run the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(MAIN_HELP);
      return command === undefined ? EXIT_USAGE : EXIT_OK;
    }
    if (command === '--version' || command === '-V' || command === 'version') {
      process.stdout.write(await versionText());
      return EXIT_OK;
    }
    if (command === 'extract') return await runExtract(rest);
    if (command === 'batch') return await runBatch(rest);
    if (command === 'duplicates') return await runDuplicates(rest);
    throw new UsageError(`unknown command "${command}" (commands: extract, batch, duplicates; see pith --help)`);
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`pith: ${(err as Error).message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof PithError) {
      process.stderr.write(`pith: ${err.message} [${err.code}]\n`);
      return EXIT_FAILED;
    }
    process.stderr.write(`pith: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT_FAILED;
  }
}

// Run when executed directly (node dist/src/hosts/node/cli.js, tsx src/hosts/node/cli.ts); bin/pith.js imports main() instead.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
