// The HTTP surface of bulk jobs. Same token and rate limit as the extraction routes; URLs go through the same
// address guard before anything is queued.
//
//   POST /v1/jobs                    {"urls": [...], "format": "text", "dedupe": true, ...} -> 202 {id, status, total}
//   GET  /v1/jobs/<id>               {id, state, total, done, failed, errors, createdAt, finishedAt}
//   GET  /v1/jobs/<id>/results       NDJSON, one line per input URL, in input order (the URLs finished so far)
//   GET  /v1/jobs/<id>/duplicates    near-duplicate clusters over the extracted texts (MinHash-LSH)

import { Hono, type Context } from 'hono';
import { PithError } from '../../../errors.js';
import { clusterSignatures, decodeSignature, NEAR_DUPLICATE_PARAMS } from '../../../core/fingerprint/near-duplicates.js';
import { access } from '../access.js';
import type { Extractor } from '../extractor.js';
import { settingsOf, type Settings } from '../env.js';
import { readRequestBody } from '../../../io/fetch.js';
import { partialResults } from './result-parts.js';
import { checkTarget } from '../../../io/guard.js';
import { splitWarc } from './warc-source.js';
import { CHUNK_SIZE, deadlineOf, DEFAULT_MAX_DURATION_S, DEFAULT_MAX_URLS, MAX_MAX_DURATION_S, MAX_URL_CHARS, isJobId, jobKeys, type ChunkMessage, type JobMeta, type JobOptions, type JobStatus } from './job-types.js';
import { jobsBindings, type JobsBindings, type JobsEnv } from './bindings.js';
import { mediaTypeOf } from '../../../io/media-type.js';

type JobsContext = Context<{ Bindings: JobsEnv }>;

const JOB_FORMATS: Readonly<Record<string, JobOptions['format']>> = { text: 'text', json: 'text', markdown: 'markdown', html: 'html' };
const KNOWN_FIELDS: ReadonlySet<string> = new Set(['urls', 'warc', 'format', 'dedupe', 'nocache', 'timeoutMs', 'attempts', 'hostConcurrency', 'hostDelayMs', 'maxDurationS']);
/** Queues accept at most 100 messages and 256 KB per sendBatch. */
const SEND_BATCH_MESSAGES = 100;
const SEND_BATCH_BYTES = 240_000;
const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' } as const;


/** The job request's JSON: 413 `input_too_large` past the byte cap, 408 when it is too slow, 400 when not JSON. */
async function readJobBody(c: JobsContext, settings: Settings): Promise<unknown> {
  const maxBytes = settings.fetch.maxBytes;
  const tooLarge = (size: string): PithError => new PithError('input_too_large', `the job request is ${size} than the ${maxBytes} bytes pith takes: split the URLs into several jobs`);
  const declared = Number(c.req.header('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(`${declared} bytes, more`);
  const timeoutMs = settings.fetch.timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PithError('request_timeout', `the job request did not arrive within ${timeoutMs} ms`, { timeoutMs })), timeoutMs);
  });
  deadline.catch(() => undefined);
  let bytes: Uint8Array;
  try {
    bytes = await readRequestBody(c.req.raw.body, c.req.header('content-encoding') ?? null, maxBytes, deadline);
  } catch (err) {
    if (err instanceof PithError && err.code === 'input_too_large') throw tooLarge('more');
    if (err instanceof PithError && err.code === 'upstream_error') throw new PithError('invalid_input', err.message); // a broken client stream
    throw err;
  } finally {
    clearTimeout(timer);
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new PithError('invalid_input', 'the body is not valid JSON: send {"urls": ["https://example.com/a", ...]}');
  }
}

function maxUrlsOf(env: JobsEnv | undefined): number {
  const n = Number(env?.PITH_JOB_MAX_URLS ?? DEFAULT_MAX_URLS);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_URLS;
}

function intOption(record: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const value = record[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new PithError('invalid_input', `"${name}" must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function boolOption(record: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = record[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new PithError('invalid_input', `"${name}" must be true or false`);
  return value;
}

/** Reads and checks a job request: the URLs (each through the address guard) and the options. */
export function parseJobRequest(parsed: unknown, settings: Settings, maxUrls: number, origin: string): { urls: string[]; warc: string | null; options: JobOptions } {
  const example = 'send {"urls": ["https://example.com/a", ...], "format": "text"}';
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new PithError('invalid_input', `the body must be a JSON object: ${example}`);
  const record = parsed as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length > 0) throw new PithError('invalid_input', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k.slice(0, 40)}"`).join(', ')}: the fields are ${[...KNOWN_FIELDS].join(', ')}`);
  if (record.warc !== undefined) {
    if (record.urls !== undefined) throw new PithError('invalid_input', 'give "urls" or "warc", not both');
    if (typeof record.warc !== 'string') throw new PithError('invalid_input', '"warc" must be the key of a WARC file in the jobs bucket');
  } else if (!Array.isArray(record.urls) || record.urls.length === 0) throw new PithError('invalid_input', `"urls" must be a non-empty array: ${example}`);
  const inputs: unknown[] = Array.isArray(record.urls) ? record.urls : [];
  if (inputs.length > maxUrls) throw new PithError('invalid_input', `${inputs.length} URLs is more than the ${maxUrls} one job takes: split them into several jobs`);
  const format = record.format === undefined ? 'text' : typeof record.format === 'string' ? JOB_FORMATS[record.format.toLowerCase()] : undefined;
  if (format === undefined) throw new PithError('invalid_input', `"format" must be one of ${Object.keys(JOB_FORMATS).join(', ')}`);

  const refused: { index: number; url: string; code: string; message: string }[] = [];
  const urls: string[] = [];
  inputs.forEach((raw, index) => {
    const shown = typeof raw === 'string' ? raw.slice(0, 300) : JSON.stringify(raw)?.slice(0, 300) ?? String(raw);
    if (typeof raw !== 'string') return void refused.push({ index, url: shown, code: 'invalid_url', message: 'not a string' });
    if (raw.length > MAX_URL_CHARS) return void refused.push({ index, url: shown, code: 'invalid_url', message: `longer than ${MAX_URL_CHARS} characters` });
    try {
      urls.push(checkTarget(raw.trim(), settings.allowHosts).href);
    } catch (err) {
      if (!(err instanceof PithError)) throw err;
      refused.push({ index, url: shown, code: err.code, message: err.message });
    }
  });
  if (refused.length > 0) {
    throw new PithError('invalid_url', `${refused.length} of ${inputs.length} URLs cannot be fetched (listed in "refused"); nothing was queued`, { refused });
  }
  const options: JobOptions = {
    format,
    dedupe: boolOption(record, 'dedupe', false),
    nocache: boolOption(record, 'nocache', false),
    timeoutMs: intOption(record, 'timeoutMs', settings.fetch.timeoutMs, 100, settings.fetch.timeoutMs),
    attempts: intOption(record, 'attempts', 3, 1, 5),
    hostConcurrency: intOption(record, 'hostConcurrency', 2, 1, 6),
    hostDelayMs: intOption(record, 'hostDelayMs', 250, 0, 60_000),
    origin,
    maxDurationS: intOption(record, 'maxDurationS', DEFAULT_MAX_DURATION_S, 10, MAX_MAX_DURATION_S),
  };
  return { urls, warc: typeof record.warc === 'string' ? record.warc : null, options };
}

/** Stores a new job: its input in R2, its state in its Durable Object. Nothing is queued yet. */
export async function storeJob(bindings: JobsBindings, urls: readonly string[], options: JobOptions, source = 'urls', id: string = crypto.randomUUID()): Promise<JobMeta> {
  const chunks = Math.ceil(urls.length / CHUNK_SIZE);
  const meta: JobMeta = { id, total: urls.length, chunks, chunkSize: CHUNK_SIZE, createdAt: new Date().toISOString(), options, source };
  await bindings.bucket.put(jobKeys.input(id), JSON.stringify({ urls }), { httpMetadata: { contentType: 'application/json' } });
  await bindings.jobs.get(bindings.jobs.idFromName(id)).init(meta);
  return meta;
}

/** Stores the job and queues its chunks. */
export async function createJob(bindings: JobsBindings, urls: readonly string[], options: JobOptions, source = 'urls'): Promise<JobMeta> {
  const meta = await storeJob(bindings, urls, options, source);
  await enqueueChunks(bindings, meta, urls);
  return meta;
}

/** Sends one message per chunk, in sendBatch calls within the Queues limits. */
export async function enqueueChunks(bindings: JobsBindings, meta: JobMeta, urls: readonly string[], only?: (chunk: number) => boolean): Promise<void> {
  let batch: { body: ChunkMessage; contentType: 'json' }[] = [];
  let bytes = 0;
  const deadlineAt = deadlineOf(meta);
  const flush = async (): Promise<void> => {
    if (batch.length > 0) await bindings.queue.sendBatch(batch);
    batch = [];
    bytes = 0;
  };
  for (let chunk = 0; chunk < meta.chunks; chunk++) {
    if (only !== undefined && !only(chunk)) continue;
    const start = chunk * meta.chunkSize;
    const body: ChunkMessage = { v: 1, jobId: meta.id, chunk, start, urls: urls.slice(start, start + meta.chunkSize), options: meta.options, deadlineAt };
    if (meta.source !== 'urls') body.archived = true;
    const size = JSON.stringify(body).length + 100;
    if (batch.length >= SEND_BATCH_MESSAGES || bytes + size > SEND_BATCH_BYTES) await flush();
    batch.push({ body, contentType: 'json' });
    bytes += size;
  }
  await flush();
}

async function statusOf(bindings: JobsBindings, id: string): Promise<JobStatus> {
  const status = isJobId(id) ? await bindings.jobs.get(bindings.jobs.idFromName(id)).status() : null;
  if (status === null) throw new PithError('not_found', `no job ${id.slice(0, 80)}: job ids are what POST /v1/jobs answered`);
  return status;
}

/** The results so far in input order, as a stream: finished chunks' objects, the parts of unfinished ones. */
function resultsStream(bucket: R2Bucket, id: string, chunks: number): ReadableStream<Uint8Array> {
  let chunk = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (chunk < chunks) {
        const object = await bucket.get(jobKeys.chunk(id, chunk));
        const bytes = object !== null ? new Uint8Array(await object.arrayBuffer()) : new TextEncoder().encode(await partialResults(bucket, id, chunk));
        chunk++;
        if (bytes.length === 0) continue; // nothing of this chunk finished yet
        controller.enqueue(bytes);
        return;
      }
      controller.close();
    },
  });
}

interface DuplicatesAnswer {
  id: string;
  state: JobStatus['state'];
  params: typeof NEAR_DUPLICATE_PARAMS;
  /** Pages with enough text to compare. */
  compared: number;
  clusters: { urls: string[]; indexes: number[]; minJaccard: number }[];
}

async function duplicatesOf(bindings: JobsBindings, status: JobStatus, meta: JobMeta): Promise<DuplicatesAnswer> {
  const { bucket } = bindings;
  if (status.state === 'done') {
    const stored = await bucket.get(jobKeys.duplicates(meta.id));
    if (stored !== null) return (await stored.json()) as DuplicatesAnswer;
  }
  const items: { id: number; sig: Uint32Array }[] = [];
  for (let chunk = 0; chunk < meta.chunks; chunk++) {
    const object = await bucket.get(jobKeys.signatures(meta.id, chunk));
    if (object === null) continue; // not finished, or dead-lettered (no text)
    for (const [index, hex] of (await object.json()) as [number, string][]) items.push({ id: index, sig: decodeSignature(hex) });
  }
  const input = await bucket.get(jobKeys.input(meta.id));
  const urls = input === null ? [] : ((await input.json()) as { urls: string[] }).urls;
  const clusters = clusterSignatures(items).map((c) => ({ urls: c.ids.map((i) => urls[i] ?? ''), indexes: c.ids, minJaccard: c.minJaccard }));
  const answer: DuplicatesAnswer = { id: meta.id, state: status.state, params: NEAR_DUPLICATE_PARAMS, compared: items.length, clusters };
  if (status.state === 'done') await bucket.put(jobKeys.duplicates(meta.id), JSON.stringify(answer));
  return answer;
}

/** The jobs routes (mounted by app.ts). */
export function jobsRoutes(_extractor: Extractor): Hono<{ Bindings: JobsEnv }> {
  const routes = new Hono<{ Bindings: JobsEnv }>();
  routes.use('/v1/jobs/*', access()); // /v1/jobs itself too

  routes.post('/v1/jobs', async (c) => {
    const settings = settingsOf(c.env);
    const bindings = jobsBindings(c.env);
    const mediaType = mediaTypeOf(c.req.header('content-type') ?? '');
    if (mediaType !== 'application/json') throw new PithError('invalid_input', `POST a JSON body (Content-Type: application/json), not ${mediaType === '' ? 'a body without Content-Type' : mediaType}`);
    const parsed = await readJobBody(c, settings);
    const { urls, warc, options } = parseJobRequest(parsed, settings, maxUrlsOf(c.env), new URL(c.req.url).origin);
    let meta: JobMeta;
    if (warc === null) meta = await createJob(bindings, urls, options);
    else {
      const id = crypto.randomUUID();
      const pages = await splitWarc(bindings, id, warc, maxUrlsOf(c.env), settings.fetch.maxBytes);
      meta = await storeJob(bindings, pages, options, `warc:${warc}`, id);
      await enqueueChunks(bindings, meta, pages);
    }
    const status = `/v1/jobs/${meta.id}`;
    return c.json({ id: meta.id, status, total: meta.total }, 202, { location: status, 'cache-control': 'no-store' });
  });

  routes.get('/v1/jobs/:id', async (c) => {
    return c.json(await statusOf(jobsBindings(c.env), c.req.param('id')), 200, { 'cache-control': 'no-store' });
  });

  routes.get('/v1/jobs/:id/results', async (c) => {
    const bindings = jobsBindings(c.env);
    const status = await statusOf(bindings, c.req.param('id'));
    const meta = (await bindings.jobs.get(bindings.jobs.idFromName(status.id)).meta())!;
    return new Response(resultsStream(bindings.bucket, status.id, meta.chunks), {
      headers: { ...NDJSON_HEADERS, 'x-pith-job-state': status.state, 'x-pith-job-lines': String(status.done + status.failed) },
    });
  });

  routes.get('/v1/jobs/:id/duplicates', async (c) => {
    const bindings = jobsBindings(c.env);
    const status = await statusOf(bindings, c.req.param('id'));
    const meta = (await bindings.jobs.get(bindings.jobs.idFromName(status.id)).meta())!;
    if (!meta.options.dedupe) throw new PithError('invalid_input', 'this job was created without "dedupe": true, so no signatures were computed: run it again with "dedupe": true');
    return c.json(await duplicatesOf(bindings, status, meta), 200, { 'cache-control': 'no-store' });
  });

  return routes;
}
