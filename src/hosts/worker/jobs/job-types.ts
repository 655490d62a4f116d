// What a job is made of: its options, the queue message of one chunk of URLs, its state and the R2 keys.
// The bindings a job needs: bindings.ts.

import type { JobFormat } from '../../../io/ndjson.js';

/** Options of a job, fixed when it is created and carried in every message. */
export interface JobOptions {
  format: JobFormat;
  /** Compute MinHash signatures for GET /v1/jobs/<id>/duplicates. */
  dedupe: boolean;
  /** Skip cache reads (results are still written to the cache). */
  nocache: boolean;
  /** Deadline per fetch attempt (all redirects and the body), ms; at most PITH_FETCH_TIMEOUT_MS. */
  timeoutMs: number;
  /** Attempts per URL for retryable failures (429, 5xx, time-outs, connection errors). */
  attempts: number;
  /** Fetches at once on one host, within one consumer invocation. */
  hostConcurrency: number;
  /** Minimum ms between two fetches on one host (robots.txt Crawl-delay raises it). */
  hostDelayMs: number;
  /** Origin of the request that created the job: the extraction cache's keys live under it. */
  origin: string;
  /** Longest the job may run, seconds from its creation; URLs not done by then fail with `deadline_exceeded`. */
  maxDurationS?: number;
}

/** One queue message: a chunk of a job's URLs, `start` being the input index of the first. */
export interface ChunkMessage {
  v: 1;
  jobId: string;
  chunk: number;
  start: number;
  urls: string[];
  options: JobOptions;
  /** The pages come from a WARC file: they are read from the chunk's archived-pages object, not fetched. */
  archived?: boolean;
  /** Offsets (into `urls`) still to do; absent: all. A slice that defers URLs sends their offsets on. */
  todo?: number[];
  /** Date.now() after which the job's remaining URLs fail with `deadline_exceeded`. */
  deadlineAt?: number;
}

export interface JobCounts {
  /** URLs extracted. */
  done: number;
  /** URLs that failed, whatever the reason. */
  failed: number;
  /** Failed URLs per error code. */
  errors: Record<string, number>;
}

export interface JobMeta {
  id: string;
  total: number;
  chunks: number;
  chunkSize: number;
  createdAt: string;
  options: JobOptions;
  /** Where the URLs came from: 'urls' (the request body) or the R2 key of a WARC file. */
  source: string;
}

export type JobStateName = 'queued' | 'running' | 'done';

export interface JobStatus extends JobCounts {
  id: string;
  state: JobStateName;
  total: number;
  createdAt: string;
  finishedAt: string | null;
}

/** URLs per queue message: 20 URLs of at most MAX_URL_CHARS stay far below the 128 KB message limit. */
export const CHUNK_SIZE = 20;
export const MAX_URL_CHARS = 2048;
export const DEFAULT_MAX_URLS = 10_000;

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isJobId(value: unknown): value is string {
  return typeof value === 'string' && JOB_ID.test(value);
}

/** R2 keys of a job. Chunk numbers are zero-padded so that a listing comes out in input order. */
export const jobKeys = {
  input: (id: string): string => `jobs/${id}/input.json`,
  chunk: (id: string, chunk: number): string => `jobs/${id}/results/${String(chunk).padStart(7, '0')}.ndjson`,
  signatures: (id: string, chunk: number): string => `jobs/${id}/signatures/${String(chunk).padStart(7, '0')}.json`,
  duplicates: (id: string): string => `jobs/${id}/duplicates.json`,
  archived: (id: string, chunk: number): string => `jobs/${id}/archived/${String(chunk).padStart(7, '0')}.json`,
  /** Results of a chunk written as its URLs finish, one object per slice; assembled into `chunk` when all are in. */
  partsOf: (id: string, chunk: number): string => `jobs/${id}/parts/${String(chunk).padStart(7, '0')}/`,
  part: (id: string, chunk: number, first: number): string => `jobs/${id}/parts/${String(chunk).padStart(7, '0')}/${String(first).padStart(3, '0')}-${crypto.randomUUID()}.ndjson`,
  signaturePart: (resultsPartKey: string): string => resultsPartKey.replace('/parts/', '/signature-parts/').replace(/\.ndjson$/, '.json'),
};

/** Default and largest `maxDurationS` of a job. */
export const DEFAULT_MAX_DURATION_S = 86_400;
export const MAX_MAX_DURATION_S = 7 * 86_400;

/** When a job must be done: `maxDurationS` after its creation. */
export function deadlineOf(meta: Pick<JobMeta, 'createdAt' | 'options'>): number {
  return Date.parse(meta.createdAt) + (meta.options.maxDurationS ?? DEFAULT_MAX_DURATION_S) * 1000;
}

/** URLs in chunk `chunk` of a job of `total` URLs. */
export function chunkLength(meta: Pick<JobMeta, 'total' | 'chunkSize'>, chunk: number): number {
  return Math.max(0, Math.min(meta.chunkSize, meta.total - chunk * meta.chunkSize));
}

/** Reads a chunk message; throws (so the message is retried, then dead-lettered) when it is not one. */
export function parseChunkMessage(body: unknown): ChunkMessage {
  const m = body as Partial<ChunkMessage> | null;
  if (
    m === null ||
    typeof m !== 'object' ||
    m.v !== 1 ||
    !isJobId(m.jobId) ||
    !Number.isInteger(m.chunk) ||
    !Number.isInteger(m.start) ||
    !Array.isArray(m.urls) ||
    m.urls.length === 0 ||
    !m.urls.every((u) => typeof u === 'string') ||
    typeof m.options !== 'object' ||
    m.options === null ||
    (m.todo !== undefined && (!Array.isArray(m.todo) || !m.todo.every((t) => Number.isInteger(t) && t >= 0 && t < m.urls!.length))) ||
    (m.deadlineAt !== undefined && typeof m.deadlineAt !== 'number')
  ) {
    throw new Error(`not a pith chunk message: ${JSON.stringify(body).slice(0, 200)}`);
  }
  return m as ChunkMessage;
}

/** Adds `more` into `into`. */
export function addCounts(into: JobCounts, more: JobCounts): void {
  into.done += more.done;
  into.failed += more.failed;
  for (const [code, n] of Object.entries(more.errors)) into.errors[code] = (into.errors[code] ?? 0) + n;
}
