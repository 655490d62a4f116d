// The queue consumers of bulk jobs (wrangler.toml: queue "pith-jobs" and its dead-letter queue "pith-jobs-dlq").
//
// Main queue: each message is one chunk of a job's URLs (or what is left of it). A delivery does a bounded slice:
//   1. Offsets the job's Durable Object has already recorded are skipped (Queues deliver at least once).
//   2. The rest run 6 at once, `hostConcurrency` per host. Before each fetch the host's gate (host-gate.ts) is
//      asked for a start time: granted within SHORT_WAIT_MS, it is fetched; otherwise the URL is deferred. No URL
//      starts after SLICE_MS, and none after the job's deadline (`maxDurationS`), past which it fails with
//      `deadline_exceeded`, as does one whose host would next be free only after the deadline.
//   3. What finished is written to R2 as one part (result-parts.ts) and recorded by the job; a complete chunk is
//      assembled into its results object. The deferred offsets go on as a new message, delayed until their host
//      is free, and this one is acked. A delivery that throws (R2 or a Durable Object failing, the model not
//      loading, a malformed message) is retried with backoff, and after max_retries it goes to the dead-letter queue.
// Dead-letter queue: every URL of the chunk not yet recorded fails with `dead_lettered`, so the job still finishes.

import { isJobId, jobKeys, parseChunkMessage, chunkLength, DEFAULT_MAX_DURATION_S, type ChunkMessage, type JobMeta } from './job-types.js';
import { jobsBindings, type JobsBindings, type JobsEnv } from './bindings.js';
import { resultLine, type JobResult } from '../../../io/ndjson.js';
import { encodeSignature, signatureOf } from '../../../core/fingerprint/near-duplicates.js';
import { runPerHost } from './host-scheduler.js';
import type { Extractor } from '../extractor.js';
import { settingsOf } from '../env.js';
import { hostDelayMs, processArchived, processUrl, type UrlContext, type UrlOutcome } from './process-url.js';
import { archivedPages } from './warc-source.js';
import { assembleChunk, writePart, type PartEntry } from './result-parts.js';

/** Fetches at once per consumer invocation: Workers allow 6 simultaneous open connections. */
const FETCH_CONCURRENCY = 6;
/** No URL starts later than this into a delivery; the rest go on in a new message. */
export const SLICE_MS = 20_000;
/** A host free within this is waited for inside the slice; one free later defers the URL. */
const SHORT_WAIT_MS = 1_000;
/** Longest delay of a queue message (Queues allow 12 h). */
const MAX_DELAY_S = 43_200;

/** Delay before a failed message is delivered again: 2, 4, 8 ... s (at most 5 min). */
export function messageRetryDelayS(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function deadlineExceeded(url: string, maxDurationS: number, why: string): UrlOutcome {
  return { result: { url, ok: false, error: { code: 'deadline_exceeded', message: `the job's maxDurationS (${maxDurationS} s) ran out ${why}` } }, text: '' };
}

function entryOf(offset: number, outcome: UrlOutcome, dedupe: boolean): PartEntry & { code: string | null } {
  const sig = dedupe && outcome.result.ok ? signatureOf(outcome.text) : null;
  return { offset, line: resultLine(outcome.result), code: outcome.result.ok ? null : outcome.result.error.code, ...(sig !== null ? { signature: encodeSignature(sig) } : {}) };
}

/** Writes finished URLs of a chunk as a part, records them with the job and assembles the chunk once complete. */
export async function storeEntries(bindings: JobsBindings, jobId: string, chunk: number, start: number, length: number, entries: readonly (PartEntry & { code: string | null })[], dedupe: boolean): Promise<number[]> {
  const stub = bindings.jobs.get(bindings.jobs.idFromName(jobId));
  await writePart(bindings.bucket, jobId, chunk, start, entries, dedupe);
  const done = entries.length === 0 ? await stub.recorded(chunk) : (await stub.record(chunk, entries.map((e) => ({ offset: e.offset, code: e.code })))).done;
  if (done.length === length) await assembleChunk(bindings.bucket, jobId, chunk, dedupe); // also when recorded earlier but not assembled
  return done;
}

/** What one URL of a slice came to. */
type Slot = { kind: 'done'; outcome: UrlOutcome } | { kind: 'deferred'; retryAt: number } | { kind: 'broken'; error: unknown };

interface Work {
  message: Message<unknown>;
  body: ChunkMessage;
  todo: number[];
  context: UrlContext;
}

/** Runs one URL of a slice: the deadline, the host's gate, then the fetch. */
async function runUrl(work: Work, offset: number, bindings: JobsBindings, sliceEnd: number, known: Map<string, number>): Promise<Slot> {
  const { body, context } = work;
  const url = body.urls[offset];
  const deadlineAt = body.deadlineAt ?? Infinity;
  const maxS = body.options.maxDurationS ?? DEFAULT_MAX_DURATION_S;
  const now = Date.now();
  if (now >= deadlineAt) return { kind: 'done', outcome: deadlineExceeded(url, maxS, 'before this URL was fetched') };
  if (now >= sliceEnd) return { kind: 'deferred', retryAt: now };
  const host = hostOf(url);
  let origin: string | null = null;
  try {
    origin = new URL(url).origin;
  } catch {
    // processUrl reports the invalid URL
  }
  const delay = origin === null || origin === 'null' ? 0 : await hostDelayMs(origin, context).catch(() => body.options.hostDelayMs);
  if (delay > 0) {
    const key = `${host} ${delay}`;
    let retryAt = known.get(key) ?? 0;
    if (retryAt - Date.now() <= SHORT_WAIT_MS) {
      const answer = await bindings.gates.get(bindings.gates.idFromName(host)).reserve(delay, SHORT_WAIT_MS);
      if (answer.granted) {
        if (answer.startAt > Date.now()) await sleep(answer.startAt - Date.now());
        retryAt = 0;
      } else {
        retryAt = answer.retryAt;
        known.set(key, retryAt); // the next URL of this host in this slice need not ask
      }
    }
    if (retryAt > 0) {
      if (retryAt > deadlineAt) return { kind: 'done', outcome: deadlineExceeded(url, maxS, `before ${host} may be fetched again (a ${delay} ms delay between fetches)`) };
      return { kind: 'deferred', retryAt };
    }
  }
  return processUrl(url, context).then(
    (outcome) => ({ kind: 'done' as const, outcome }),
    (error: unknown) => ({ kind: 'broken' as const, error }),
  );
}

async function consumeChunks(batch: MessageBatch<unknown>, env: JobsEnv, ctx: ExecutionContext, extractor: Extractor): Promise<void> {
  const settings = settingsOf(env);
  const bindings = jobsBindings(env);
  const sliceEnd = Date.now() + SLICE_MS;
  const works: Work[] = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const body = parseChunkMessage(message.body);
        if ((await bindings.bucket.head(jobKeys.chunk(body.jobId, body.chunk))) !== null) return void message.ack(); // done by an earlier delivery
        const recorded = new Set(await bindings.jobs.get(bindings.jobs.idFromName(body.jobId)).recorded(body.chunk));
        const todo = (body.todo ?? body.urls.map((_, i) => i)).filter((o) => !recorded.has(o));
        works.push({ message, body, todo, context: { extractor, settings, options: body.options, ctx } });
      } catch (err) {
        console.error(`pith: job message ${message.id} failed (attempt ${message.attempts})`, err);
        message.retry({ delaySeconds: messageRetryDelayS(message.attempts) });
      }
    }),
  );
  if (works.length === 0) return;
  await Promise.all([...new Set(works.map((w) => w.body.jobId))].map((id) => bindings.jobs.get(bindings.jobs.idFromName(id)).markRunning()));

  // Archived pages (WARC jobs) are read from R2 and extracted: nothing to fetch, nothing to gate.
  const archived = new Map<Work, Promise<Map<number, Slot>>>();
  for (const work of works) {
    if (work.body.archived !== true) continue;
    const slots = archivedPages(bindings, work.body.jobId, work.body.chunk).then(async (pages) => {
      const out = new Map<number, Slot>();
      for (const offset of work.todo) {
        const page = pages[offset];
        if (page === undefined) throw new Error(`job ${work.body.jobId} chunk ${work.body.chunk} has no archived page ${offset}`);
        out.set(offset, await processArchived(page.url, page.html, work.context, page.error).then((outcome): Slot => ({ kind: 'done', outcome }), (error: unknown): Slot => ({ kind: 'broken', error })));
      }
      return out;
    });
    slots.catch(() => undefined); // awaited below, per message
    archived.set(work, slots);
  }

  // The fetched URLs of every message under one in-invocation schedule; the gates space fetches across invocations.
  const items = works.flatMap((work) => (work.body.archived === true ? [] : work.todo.map((offset) => ({ work, offset }))));
  const known = new Map<string, number>();
  const perHost = Math.max(1, Math.min(...works.map((w) => w.body.options.hostConcurrency)));
  const settled = await runPerHost(items, (item) => hostOf(item.work.body.urls[item.offset]), { concurrency: FETCH_CONCURRENCY, perHost, delayMsOf: () => 0 }, (item) =>
    runUrl(item.work, item.offset, bindings, sliceEnd, known).catch((error: unknown): Slot => ({ kind: 'broken', error })),
  );
  const slotsOf = new Map<Work, Map<number, Slot>>();
  items.forEach((item, i) => {
    let slots = slotsOf.get(item.work);
    if (slots === undefined) slotsOf.set(item.work, (slots = new Map()));
    slots.set(item.offset, settled[i]);
  });

  await Promise.all(
    works.map(async (work) => {
      const { message, body } = work;
      try {
        const slots = body.archived === true ? await archived.get(work)! : (slotsOf.get(work) ?? new Map<number, Slot>());
        const entries = [...slots].flatMap(([offset, slot]) => (slot.kind === 'done' ? [entryOf(offset, slot.outcome, body.options.dedupe)] : []));
        const done = new Set(await storeEntries(bindings, body.jobId, body.chunk, body.start, body.urls.length, entries, body.options.dedupe));
        const broken = [...slots.values()].find((s) => s.kind === 'broken');
        if (broken !== undefined && broken.kind === 'broken') throw broken.error;
        const rest = work.todo.filter((o) => !done.has(o));
        if (rest.length > 0) {
          const retryAt = Math.min(...rest.map((o) => { const s = slots.get(o); return s?.kind === 'deferred' ? s.retryAt : 0; }));
          const delaySeconds = Math.min(MAX_DELAY_S, Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)));
          await bindings.queue.send({ ...body, todo: rest }, { delaySeconds, contentType: 'json' });
        }
        message.ack();
      } catch (err) {
        console.error(`pith: job ${body.jobId} chunk ${body.chunk} failed (attempt ${message.attempts})`, err);
        message.retry({ delaySeconds: messageRetryDelayS(message.attempts) });
      }
    }),
  );
}

/** Dead letters: the chunk's URLs not yet recorded fail, so the job finishes and accounts for every URL. */
async function consumeDeadLetters(batch: MessageBatch<unknown>, env: JobsEnv): Promise<void> {
  const bindings = jobsBindings(env);
  const { bucket, jobs } = bindings;
  for (const message of batch.messages) {
    const body = (message.body ?? {}) as Partial<ChunkMessage>;
    if (!isJobId(body.jobId) || !Number.isInteger(body.chunk)) {
      console.error(`pith: dead letter ${message.id} names no job chunk, dropped: ${JSON.stringify(message.body).slice(0, 200)}`);
      message.ack();
      continue;
    }
    const jobId = body.jobId;
    const chunk = body.chunk as number;
    try {
      if ((await bucket.head(jobKeys.chunk(jobId, chunk))) !== null) {
        message.ack();
        continue;
      }
      const stub = jobs.get(jobs.idFromName(jobId));
      const meta: JobMeta | null = await stub.meta();
      if (meta === null || chunk < 0 || chunk >= meta.chunks) {
        console.error(`pith: dead letter ${message.id} names an unknown job chunk ${jobId}/${chunk}, dropped`);
        message.ack();
        continue;
      }
      // The URLs come from the stored input, not from the message, which may be what was broken.
      const input = await bucket.get(jobKeys.input(jobId));
      if (input === null) throw new Error(`job ${jobId} has no stored input`);
      const urls = ((await input.json()) as { urls: string[] }).urls;
      const start = chunk * meta.chunkSize;
      const recorded = new Set(await stub.recorded(chunk));
      const entries = Array.from({ length: chunkLength(meta, chunk) }, (_, offset) => offset)
        .filter((offset) => !recorded.has(offset))
        .map((offset) => {
          const result: JobResult = { url: urls[start + offset], ok: false, error: { code: 'dead_lettered', message: 'this URL\'s batch failed every delivery attempt and went to the dead-letter queue; the operator has the logs' } };
          return { offset, line: resultLine(result), code: 'dead_lettered' };
        });
      await storeEntries(bindings, jobId, chunk, start, chunkLength(meta, chunk), entries, meta.options.dedupe);
      message.ack();
    } catch (err) {
      console.error(`pith: dead letter ${message.id} (${jobId}/${chunk}) could not be recorded`, err);
      message.retry({ delaySeconds: messageRetryDelayS(message.attempts) });
    }
  }
}

/** The Worker's queue() handler for both job queues. */
export function createJobsConsumer(extractor: Extractor): (batch: MessageBatch<unknown>, env: JobsEnv, ctx: ExecutionContext) => Promise<void> {
  return async (batch, env, ctx) => {
    if (batch.queue.endsWith('-dlq')) await consumeDeadLetters(batch, env);
    else await consumeChunks(batch, env, ctx, extractor);
  };
}
