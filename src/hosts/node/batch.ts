// `pith batch` on all cores: pages from a folder of .html/.html.gz files or from .warc/.warc.gz files, extracted by
// N worker processes (each with its own model session; --jobs 1 is one worker), written one JSON line per page in
// input order. The extraction itself is in batch-extract.ts, which only the workers load: the coordinating process
// never loads the model's code, so that it starts the workers sooner.
//
// Processes rather than worker threads: two processes did better than two threads of one process (docs/bulk.md).
// When the workers fill every core they run V8 on one thread each (workerV8Flags).
//
// Order: lines come out in input order (files sorted by name, then WARC records in file order), whatever order the
// workers finish in: a reorder buffer holds lines that are ready early. Each worker holds at most 2 pages, so a slow
// page never idles the others; at most 64 lines per worker wait in the buffer, so a large WARC file streams through
// in bounded memory.

import { createReadStream, readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { gzipMembersOf, isGzipFile, isGzipName } from './batch-gzip.js';
import { decodeHtml } from '../../io/charset.js';
import { decodeStream, type DecodeCodes } from '../../io/content-decoder.js';
import { warcHtmlPages } from '../../io/warc-pages.js';
import { PithError } from '../../errors.js';
import type { FeatureSetName, Format } from '../../types.js';
import type { Limits } from '../../config.js';

/** One page to extract: a file the worker reads itself, or HTML already read (from a WARC record). */
export type BatchItem =
  | { id: string; path: string }
  | { id: string; url: string; html: string }
  /** A page that could not be read (a WARC record whose payload does not decode): its line is this error. */
  | { id: string; url: string; error: { code: string; message: string } };

/** What each line carries besides the text: markdown or html adds that field, json the whole result (present.ts). */
export const BATCH_FORMATS: readonly Format[] = ['text', 'markdown', 'html', 'json'];

/** The line written for a page (with --format json, the id, the presenter's JSON shape, then ms). */
export interface BatchLine {
  id: string;
  /** The record's URL (WARC); in a json line null for a page file. */
  url?: string | null;
  text: string;
  fingerprint: { simhash: string } | null;
  ms: number;
  error?: string;
  /** The PithError code of `error`, when pith gave one (input_too_large, not_html, ...). */
  code?: string;
  markdown?: string;
  html?: string;
  [field: string]: unknown;
}

/** Reading back pith batch's own gzip output (--resume, pith duplicates): no size cap, lines are capped instead. */
const RESUME_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'input_too_large', corrupt: 'invalid_input', timeout: 'input_too_large' });

const PAGE_FILE = /\.html?(\.gz)?$/i;
const WARC_FILE = /\.warc(\.gz)?$/i;

export function isWarcPath(path: string): boolean {
  return WARC_FILE.test(path);
}

/** Id of a page file: its name without .html/.htm and .gz. */
export function pageIdOf(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, '').replace(PAGE_FILE, '');
}

/**
 * Id of a page file found in `dir` (pageFilesOf): its path below `dir` with / between folders, without .html/.htm
 * and .gz; directly inside `dir`, its name alone, as pageIdOf.
 */
export function pageIdIn(dir: string, path: string): string {
  return relative(dir, path).split(sep).join('/').replace(PAGE_FILE, '');
}

/**
 * The page files of a folder, sorted by name; with `recursive`, of its subfolders too, sorted by their path below
 * `dir` (a link to a folder is not followed, so that a link back up cannot loop). A name that cannot be stat'ed (a
 * broken link) stays in the list: its line then says why it could not be read, rather than the page vanishing from
 * the output.
 */
export function pageFilesOf(dir: string, recursive = false): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch (err) {
      // Its pages are unknown: the batch stops rather than leave them out unsaid.
      throw new PithError('invalid_input', `cannot read the folder ${join(dir, rel)}: ${(err as Error).message}`);
    }
    for (const entry of entries) {
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (recursive) walk(name);
      } else if (PAGE_FILE.test(entry.name) && isFileOrBroken(entry, join(dir, name))) found.push(name);
    }
  };
  walk('');
  return found.sort().map((name) => join(dir, name));
}

/** A file, a link to a file, or a link that leads nowhere (kept: its line says so); not a folder or a link to one. */
function isFileOrBroken(entry: Dirent, path: string): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

/**
 * The HTML pages of a WARC file (gzip-compressed when it ends in .gz or starts with gzip's magic bytes; multi-member
 * gzip, one member per record as Common Crawl writes them, works), read by io/warc-pages.ts with the same limits and
 * errors as a job over the same file. Each `response` record with an HTML payload is one page, its URL the id; a page
 * whose payload does not decode (or decodes past the cap) is an item that fails with that code.
 */
export async function* warcPages(path: string): AsyncGenerator<BatchItem> {
  const gz = isGzipName(path) || isGzipFile(path);
  const raw = createReadStream(path);
  try {
    for await (const page of warcHtmlPages(raw as AsyncIterable<Uint8Array>, gz, path)) {
      if (page.error !== undefined) yield { id: page.url, url: page.url, error: { code: page.error.code, message: page.error.message } };
      else yield { id: page.url, url: page.url, html: decodeHtml(page.body, page.contentType) };
    }
  } catch (err) {
    if (err instanceof PithError) throw err;
    // A file that cannot be read: say which file, not a stack trace.
    throw new PithError('invalid_input', `${path} cannot be read as a WARC file: ${(err as Error).message}`);
  } finally {
    raw.destroy();
  }
}

/**
 * What an earlier run of `pith batch` left in its output file, for --resume: the ids of its complete lines in order,
 * how many of them are failed pages, the format they were written in (read from the first page that did not fail;
 * null when none), and the byte length of the complete lines. A run that was killed can leave half a line after
 * them; it is not counted, and the resumed run writes over it. A complete line that is not a line of `pith batch`
 * is an error: the file is then not one to append to.
 */
export interface BatchOutputSoFar {
  ids: string[];
  failed: number;
  format: Format | null;
  bytes: number;
}

/**
 * The longest line it reads (256 MB): more than `pith batch` writes for a page at the largest input extract() takes
 * (limits.maxInputChars, 8 M characters) in any --format, so that a file that is not pith's (a binary file without a
 * newline) is refused in bounded memory.
 */
const MAX_LINE_BYTES = 256 * 1024 * 1024;

export async function batchOutputSoFar(path: string, maxLineBytes = MAX_LINE_BYTES): Promise<BatchOutputSoFar> {
  const done: BatchOutputSoFar = { ids: [], failed: 0, format: null, bytes: 0 };
  const add = (line: Partial<BatchLine>): void => {
    done.ids.push(line.id!);
    if (line.error !== undefined) done.failed++;
    else done.format ??= formatOfLine(line);
  };
  if (isGzipName(path)) {
    // Compressed output (batch-gzip.ts): whole members of whole lines; `bytes` is where the last complete member ends.
    if (statSync(path).size > 0 && !isGzipFile(path)) throw new PithError('invalid_input', `${path} is not gzip-compressed, though its name ends in .gz: not resuming into it`);
    try {
      for (const member of gzipMembersOf(path)) {
        const lines = member.text.split('\n');
        if (lines.pop() !== '') throw new Error(`a member ends inside a line`);
        for (const text of lines) {
          const line = lineOfBatch(text);
          if (line === null) throw new PithError('invalid_input', `line ${done.ids.length + 1} of ${path} is not a line of pith batch: not resuming into it`);
          add(line);
        }
        done.bytes = member.end;
      }
    } catch (err) {
      if (err instanceof PithError) throw err;
      throw new PithError('invalid_input', `${path} was not written by pith batch (${(err as Error).message}): not resuming into it`);
    }
    return done;
  }
  if (isGzipFile(path)) throw new PithError('invalid_input', `${path} is gzip-compressed, but its name does not end in .gz: not resuming into it (named .gz, it is read and continued compressed)`);
  for await (const { line, bytes, complete } of batchLines(path, 'not resuming into it', maxLineBytes)) {
    if (!complete) break; // half a line: the resumed run writes over it
    add(line!);
    done.bytes += bytes;
  }
  return done;
}

/** A line of pith batch's output (a JSON object with a string id), or null. */
function lineOfBatch(text: string): Partial<BatchLine> | null {
  try {
    const line = JSON.parse(text) as Partial<BatchLine> | null;
    return line !== null && typeof line === 'object' && typeof line.id === 'string' ? line : null;
  } catch {
    return null;
  }
}

/** One line of a `pith batch` output file, as batchLines reads it. */
export interface BatchFileLine {
  /** The line's fields; null only for a last line without its newline that is not JSON (half a line). */
  line: Partial<BatchLine> | null;
  /** Its length in bytes, with its newline. */
  bytes: number;
  /** False for a last line without its newline, as a run that was killed leaves. */
  complete: boolean;
}

/**
 * The lines of a `pith batch` output file, read in bounded memory (a line of at most `maxLineBytes`). A complete
 * line that is not a line of pith batch (not a JSON object with a string id) is an error, its message ending in
 * `refusal`; so is a file that cannot be read.
 */
export async function* batchLines(path: string, refusal: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<BatchFileLine> {
  const lineOf = (bytes: Buffer): Partial<BatchLine> | null => lineOfBatch(bytes.toString('utf8'));
  let n = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    // A .gz file (pith batch --out <file>.gz, or gzip's): read through gunzip, every member in turn.
    const raw = createReadStream(path);
    const stream: AsyncIterable<Uint8Array> = isGzipFile(path)
      ? decodeStream(raw as AsyncIterable<Uint8Array>, 'gzip', { maxBytes: Number.MAX_SAFE_INTEGER, maxInputBytes: Number.MAX_SAFE_INTEGER, what: path, codes: RESUME_CODES })
      : (raw as AsyncIterable<Uint8Array>);
    for await (const bytes of stream) {
      const chunk = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
        const bytes = pending.length === 0 ? chunk.subarray(from, nl) : Buffer.concat([...pending, chunk.subarray(from, nl)]);
        pending = [];
        pendingBytes = 0;
        from = nl + 1;
        n++;
        if (bytes.length > maxLineBytes) throw tooLong(n, path, maxLineBytes, refusal);
        const line = lineOf(bytes);
        if (line === null) throw new PithError('invalid_input', `line ${n} of ${path} is not a line of pith batch: ${refusal}`);
        yield { line, bytes: bytes.length + 1, complete: true };
      }
      if (from < chunk.length) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
        if (pendingBytes > maxLineBytes) throw tooLong(n + 1, path, maxLineBytes, refusal);
      }
    }
  } catch (err) {
    if (err instanceof PithError && err.details?.contentEncoding === 'gzip') {
      throw new PithError('invalid_input', `${path} is cut short or damaged (${err.message}), as a run of pith batch that was interrupted leaves: finish it with pith batch --resume first`);
    }
    if (err instanceof PithError) throw err;
    throw new PithError('invalid_input', `cannot read ${path}: ${(err as Error).message}; ${refusal}`);
  }
  if (pendingBytes > 0) {
    // Half a line that pith batch may have left: it starts as all its lines do. Anything else is not pith's.
    const rest = Buffer.concat(pending);
    const head = rest.subarray(0, LINE_START.length).toString('latin1');
    if (!LINE_START.startsWith(head) && !head.startsWith(LINE_START)) throw new PithError('invalid_input', `line ${n + 1} of ${path} is not a line of pith batch: ${refusal}`);
    yield { line: lineOf(rest), bytes: pendingBytes, complete: false };
  }
}

/** How every line of pith batch starts (JSON.stringify of a BatchLine, whose first field is the id). */
const LINE_START = '{"id":';

const tooLong = (n: number, path: string, maxLineBytes: number, refusal: string): PithError =>
  new PithError('invalid_input', `line ${n} of ${path} is longer than ${maxLineBytes} bytes, more than pith batch writes for a page: ${refusal}`);

/** The --format a line of a page that did not fail was written with (its fields tell; see BatchLine). */
function formatOfLine(line: Partial<BatchLine>): Format {
  if ('wordCount' in line) return 'json';
  if ('markdown' in line) return 'markdown';
  if ('html' in line) return 'html';
  return 'text';
}

/**
 * The items after those an earlier run already wrote, for --resume: the first `done.length` items are skipped, each
 * checked against the id of its line, so that a file written from other inputs (or in another order) is refused
 * rather than continued; so is a file with more lines than there are items.
 */
export async function* itemsAfter(items: AsyncIterable<BatchItem> | Iterable<BatchItem>, done: readonly string[], path: string): AsyncGenerator<BatchItem> {
  let k = 0;
  for await (const item of items) {
    if (k < done.length) {
      if (item.id !== done[k]) {
        throw new PithError('invalid_input', `line ${k + 1} of ${path} is page ${JSON.stringify(done[k])}, but page ${k + 1} of the input is ${JSON.stringify(item.id)}: the file was not written from these inputs; not resuming into it`);
      }
      k++;
      continue;
    }
    yield item;
  }
  if (k < done.length) throw new PithError('invalid_input', `${path} has ${done.length} lines, more than the ${k} pages of the input: not resuming into it`);
}

export interface PoolOptions {
  /** Worker processes (at least 1; `pith batch --jobs 1` is one worker too, so that it runs with WORKER_V8_FLAGS). */
  jobs: number;
  /** Cores the workers share (default: os.availableParallelism()); see workerV8Flags. */
  cores?: number;
  featureSet?: FeatureSetName;
  format?: Format;
  /** Overrides of DEFAULT_LIMITS for every page (pith batch --limit). */
  limits?: Partial<Limits>;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/**
 * V8's budget before it compiles a WebAssembly function again with TurboFan: 10x Node 20's default, so that
 * onnxruntime's run-once start-up code is not recompiled (a process cannot end before that compile does); the code
 * that runs for every page still passes it within the first pages. Every batch worker gets it; `pith extract` sets it
 * before the model loads (`npm run bench:cli`).
 */
export const WASM_TIERING_V8_FLAG = '--wasm-tiering-budget=18000000';

/**
 * V8 flags of every worker process: WASM_TIERING_V8_FLAG, and a 64 MB young generation (Node 20's default is 16 MB),
 * so that a large page's DOM, dropped when its extraction ends, dies young instead of being copied to the old
 * generation (less CPU per page: docs/bulk.md).
 */
export const WORKER_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64', WASM_TIERING_V8_FLAG];

/**
 * V8 flags added when the workers fill every core (workerV8Flags): no helper threads (with no idle core they only add
 * CPU), and optimising compilers that start later (4x the TurboFan budget, half the inlined bytecode), since every
 * compile is paid on the worker's one thread. Speed only, the same results; `npm run bench:bulk` measures both
 * choices side by side (docs/bulk.md).
 */
export const FULL_CORES_V8_FLAGS: readonly string[] = [
  '--single-threaded',
  '--interrupt-budget=270336',
  '--max-inlined-bytecode-size-cumulative=460',
];

/**
 * The V8 flags of the workers of a pool of `jobs` on a machine of `cores`: WORKER_V8_FLAGS, and FULL_CORES_V8_FLAGS
 * when the workers fill every core. With fewer workers than cores, V8's helper threads run on an idle core and
 * shorten the run, and its compilers keep their defaults.
 */
export function workerV8Flags(jobs: number, cores: number): string[] {
  return jobs >= cores ? [...WORKER_V8_FLAGS, ...FULL_CORES_V8_FLAGS] : [...WORKER_V8_FLAGS];
}
/** Pages handed to one worker at a time: two, so it never waits for the main thread between pages. */
const PER_WORKER = 2;
/** Lines held back per worker while an earlier, slower page is still being extracted. */
const REORDER_WINDOW = 64;

/**
 * A worker process running batch-worker: the .js next to this module from dist/; under tsx (tests, `npx tsx
 * src/hosts/node/cli.ts`) the .ts, with tsx loaded in the child. Its stdout is not ours (lines may go to our stdout); its stderr is.
 */
function startWorker(flags: string[], extraction: Pick<PoolOptions, 'featureSet' | 'format' | 'limits'>): ChildProcess {
  const args = [JSON.stringify({ featureSet: extraction.featureSet, format: extraction.format, limits: extraction.limits })];
  // (NODE_OPTIONS reaches the workers through the environment, e.g. a user's --max-old-space-size.)
  const options = { serialization: 'advanced' as const, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[] };
  if (!FROM_SOURCE) return fork(fileURLToPath(new URL('./batch-worker.js', import.meta.url)), args, { ...options, execArgv: flags });
  return fork(fileURLToPath(new URL('./batch-worker.ts', import.meta.url)), args, { ...options, execArgv: [...flags, '--import', import.meta.resolve('tsx')] });
}

/**
 * Extracts every item with `options.jobs` threads and hands the lines to `write` in input order (awaited, so a
 * slow writer slows the reading down).
 */
export async function runBatchPool(items: AsyncIterable<BatchItem> | Iterable<BatchItem>, options: PoolOptions, write: (line: BatchLine, index: number) => Promise<void>): Promise<number> {
  if (!Number.isInteger(options.jobs) || options.jobs < 1) throw new PithError('invalid_input', `jobs must be a whole number of at least 1, got ${options.jobs}`);
  const flags = workerV8Flags(options.jobs, options.cores ?? availableParallelism());
  const workers = Array.from({ length: options.jobs }, () => startWorker(flags, options));
  const outstanding = new Map<ChildProcess, number>(workers.map((w) => [w, 0]));
  let finished = false;
  const ready = new Map<number, BatchLine>();
  let next = 0; // next index to write
  let sent = 0;
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  let writing = Promise.resolve();

  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const flush = (): void => {
    writing = writing.then(async () => {
      while (ready.has(next)) {
        const line = ready.get(next)!;
        ready.delete(next);
        await write(line, next++);
      }
      notify();
    });
    writing.catch((err: Error) => {
      failure = err;
      notify();
    });
  };
  for (const worker of workers) {
    worker.on('message', (message: { index: number; line: BatchLine }) => {
      outstanding.set(worker, outstanding.get(worker)! - 1);
      ready.set(message.index, message.line);
      notify(); // a worker has room again
      flush();
    });
    worker.on('error', (err: NodeJS.ErrnoException) => {
      // A send to a worker that has just died fails with EPIPE before its 'exit' arrives: 'exit' says why it ended.
      if (err.code === 'EPIPE' || err.code === 'ERR_IPC_CHANNEL_CLOSED') return;
      failure = err;
      notify();
    });
    worker.on('exit', (code, signal) => {
      if (finished) return;
      failure ??= new Error(`a batch worker process ended early (${signal ?? `exit code ${code}`})`);
      notify();
    });
  }
  /** A worker with fewer than PER_WORKER pages, once the reorder buffer has room; null when none yet. */
  const idleWorker = (): ChildProcess | null => {
    if (sent - next >= REORDER_WINDOW * options.jobs) return null;
    let best: ChildProcess | null = null;
    for (const w of workers) if (outstanding.get(w)! < PER_WORKER && (best === null || outstanding.get(w)! < outstanding.get(best)!)) best = w;
    return best;
  };
  const until = async (ready: () => boolean): Promise<void> => {
    while (!ready() && failure === null) await new Promise<void>((resolve) => (wake = resolve));
    if (failure !== null) throw failure;
  };
  try {
    for await (const item of items) {
      await until(() => idleWorker() !== null);
      const target = idleWorker()!;
      outstanding.set(target, outstanding.get(target)! + 1);
      target.send({ index: sent++, item });
    }
    await until(() => next === sent);
    await writing;
    return sent;
  } finally {
    finished = true;
    await Promise.all(
      workers.map((w) =>
        w.exitCode !== null || w.signalCode !== null ? undefined : new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          w.disconnect(); // the worker ends when its channel closes
        }),
      ),
    );
  }
}
