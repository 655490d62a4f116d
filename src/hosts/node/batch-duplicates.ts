// `pith duplicates`: near-duplicate clusters over what `pith batch` wrote, by the method and parameters of the bulk
// jobs' /duplicates (src/core/fingerprint/near-duplicates.ts): a corpus built from WARC files or folders is grouped the same way
// a job's pages are. Node only (it reads files).
//
// Memory: a page's MinHash signature (512 bytes and its typed array), its id and where its line is (about 1.4 GB per
// million pages, npm run bench:duplicates); the texts are read one line at a time and dropped.

import { Worker } from 'node:worker_threads';
import { batchLines } from './batch.js';
import { clusterSignatures, signatureOf } from '../../core/fingerprint/near-duplicates.js';
import { PithError } from '../../errors.js';

/** A cluster of near-duplicate pages, members in input order (the first is the one to keep when de-duplicating). */
export interface DuplicateCluster {
  /** The pages' ids, as `pith batch` wrote them. */
  ids: string[];
  /** Where each page's line is: `<file>:<line number>`. */
  at: string[];
  /** Smallest estimated Jaccard similarity among the pairs that joined the cluster (see clusterSignatures). */
  minJaccard: number;
}

export interface DuplicatesReport {
  clusters: DuplicateCluster[];
  /** Lines read, over all files. */
  lines: number;
  /** Pages with enough text to compare (at least NEAR_DUPLICATE_PARAMS.minShingles shingles). */
  compared: number;
  /** Pages whose text is too short to compare. */
  short: number;
  /** Lines of pages that failed (an `error`, no text). */
  failed: number;
}

/** Texts sent to a worker thread at a time, and batches a worker holds at most. */
const TEXTS_PER_BATCH = 32;
const BATCHES_PER_WORKER = 2;

/**
 * Near-duplicate clusters over the lines of `pith batch` output files, in the order given; the signatures are
 * computed by `jobs` threads (1: this one). A line that is not one of pith batch, or a file that ends in half a line
 * (a run that was killed: finish it with --resume first), is an error; nothing is guessed.
 */
export async function duplicatesOfBatchOutput(paths: readonly string[], jobs = 1): Promise<DuplicatesReport> {
  const refusal = 'not a pith batch output to look for duplicates in';
  const report: DuplicatesReport = { clusters: [], lines: 0, compared: 0, short: 0, failed: 0 };
  // Per page with text, in input order: its id, where its line is, and its signature once computed.
  const ids: string[] = [];
  const fileOf: number[] = [];
  const lineOf: number[] = [];
  const sigs: (Uint32Array | null)[] = [];
  const signer = jobs > 1 ? new SignerPool(jobs) : null;
  let texts: string[] = [];
  let first = 0; // page of texts[0]
  const send = async (): Promise<void> => {
    const batch = texts;
    const at = first;
    texts = [];
    first = ids.length;
    const done = await signer!.sign(batch);
    done.forEach((sig, k) => (sigs[at + k] = sig));
  };
  try {
    for (let f = 0; f < paths.length; f++) {
      let n = 0;
      for await (const { line, complete } of batchLines(paths[f], refusal)) {
        n++;
        if (!complete && line === null) {
          throw new PithError('invalid_input', `${paths[f]} ends in half a line (line ${n}), as a run of pith batch that was interrupted leaves: finish it with pith batch --resume first`);
        }
        report.lines++;
        if (line!.error !== undefined) {
          report.failed++;
          continue;
        }
        if (typeof line!.text !== 'string') throw new PithError('invalid_input', `line ${n} of ${paths[f]} has no text and no error: not a line of pith batch`);
        ids.push(line!.id!);
        fileOf.push(f);
        lineOf.push(n);
        if (signer === null) sigs.push(signatureOf(line!.text));
        else {
          sigs.push(null); // until its batch comes back
          texts.push(line!.text);
          if (texts.length === TEXTS_PER_BATCH) await signer.room().then(() => void send().catch(signer.fail));
        }
      }
    }
    if (signer !== null) {
      if (texts.length > 0) void send().catch(signer.fail);
      await signer.drained();
    }
  } finally {
    await signer?.close();
  }
  const items: { id: number; sig: Uint32Array }[] = [];
  sigs.forEach((sig, k) => {
    if (sig === null) report.short++;
    else items.push({ id: k, sig });
  });
  report.compared = items.length;
  report.clusters = clusterSignatures(items).map((c) => ({
    ids: c.ids.map((k) => ids[k]),
    at: c.ids.map((k) => `${paths[fileOf[k]]}:${lineOf[k]}`),
    minJaccard: c.minJaccard,
  }));
  return report;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * A thread running batch-duplicates-worker: the .js next to this module from dist/; under tsx (tests, `npx tsx
 * src/hosts/node/cli.ts`) the .ts, after registering tsx in the thread (a worker thread does not take --import).
 */
function startSigner(): Worker {
  if (!FROM_SOURCE) return new Worker(new URL('./batch-duplicates-worker.js', import.meta.url));
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const worker = JSON.stringify(new URL('./batch-duplicates-worker.ts', import.meta.url).href);
  return new Worker(`import(${api}).then((tsx) => { tsx.register(); return import(${worker}); });`, { eval: true });
}

/** Worker threads computing signatures (batch-duplicates-worker.ts), each holding at most BATCHES_PER_WORKER batches. */
class SignerPool {
  private readonly workers: { thread: Worker; queue: ((sigs: (Uint32Array | null)[]) => void)[] }[];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(jobs: number) {
    this.workers = Array.from({ length: jobs }, () => {
      const w = { thread: startSigner(), queue: [] as ((sigs: (Uint32Array | null)[]) => void)[] };
      w.thread.on('message', (sigs: (Uint32Array | null)[]) => {
        w.queue.shift()!(sigs); // a worker answers its batches in order
        this.notify();
      });
      w.thread.on('error', (err) => this.fail(err));
      w.thread.on('exit', (code) => {
        if (w.queue.length > 0) this.fail(new Error(`a pith duplicates worker thread ended early (exit code ${code})`));
      });
      return w;
    });
  }

  readonly fail = (err: Error): void => {
    this.failure ??= err instanceof PithError ? err : new PithError('internal', `a pith duplicates worker thread failed: ${err.message}`);
    this.notify();
  };

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready() && this.failure === null) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure !== null) throw this.failure;
  }

  /** Resolves when a worker can take another batch. */
  room(): Promise<void> {
    return this.until(() => this.workers.some((w) => w.queue.length < BATCHES_PER_WORKER));
  }

  /** The signatures of `texts` (call once room() has resolved). */
  sign(texts: string[]): Promise<(Uint32Array | null)[]> {
    const w = this.workers.reduce((best, x) => (x.queue.length < best.queue.length ? x : best));
    return new Promise((resolve) => {
      w.queue.push(resolve);
      w.thread.postMessage(texts);
    });
  }

  /** Resolves when every batch sent has been answered. */
  drained(): Promise<void> {
    return this.until(() => this.workers.every((w) => w.queue.length === 0));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.thread.terminate()));
  }
}
