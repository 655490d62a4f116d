// The queue consumers of bulk jobs (wrangler.toml: queue "pith-jobs" and its dead-letter queue "pith-jobs-dlq").
//
// Main queue, per batch of messages (each message is one chunk of a job's URLs):
//   1. A chunk whose results object already exists in R2 was done by an earlier delivery: it is only reported to
//      the job again (a no-op there) and acked. A redelivered message never writes a second result.
//   2. The URLs of all remaining messages run together under one per-host schedule (src/hosts/worker/jobs/host-scheduler.ts):
//      6 fetches at once, `hostConcurrency` per host, `hostDelayMs` (or robots.txt's Crawl-delay) between starts.
//   3. Each chunk's result lines are written to R2 as one object (with its counts in the object's metadata), then
//      the job's Durable Object counts the chunk (once), then the message is acked. A message whose processing
//      throws (R2 or the Durable Object failing, the model not loading, a malformed message) is retried with
//      backoff, and after max_retries it goes to the dead-letter queue.
// Dead-letter queue: every URL of the chunk is recorded as failed (`dead_lettered`), so the job still finishes.

import { isJobId, jobKeys, parseChunkMessage, type ChunkMessage, type JobCounts, type JobMeta } from './job-types.js';
import { jobsBindings, type JobsEnv } from './bindings.js';
import { resultLine, type JobResult } from '../../../io/ndjson.js';
import { encodeSignature, signatureOf } from '../../../core/fingerprint/near-duplicates.js';
import { runPerHost } from './host-scheduler.js';
import type { Extractor } from '../extractor.js';
import { settingsOf } from '../env.js';
import { hostDelayMs, processArchived, processUrl, type UrlContext, type UrlOutcome } from './process-url.js';
import { archivedPages } from './warc-source.js';

/** Fetches at once per consumer invocation: Workers allow 6 simultaneous open connections. */
const FETCH_CONCURRENCY = 6;
/** Delay before a failed message is delivered again: 2, 4, 8 ... s (at most 5 min). */
export function messageRetryDelayS(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts));
}

/** Counts of a list of results. */
export function countResults(results: readonly JobResult[]): JobCounts {
  const counts: JobCounts = { done: 0, failed: 0, errors: {} };
  for (const r of results) {
    if (r.ok) counts.done++;
    else {
      counts.failed++;
      counts.errors[r.error.code] = (counts.errors[r.error.code] ?? 0) + 1;
    }
  }
  return counts;
}

/** Writes a chunk's results (and signatures) to R2 and reports it to the job. Safe to repeat. */
export async function storeChunk(env: JobsEnv, jobId: string, chunk: number, start: number, outcomes: readonly UrlOutcome[], dedupe: boolean): Promise<void> {
  const { bucket, jobs } = jobsBindings(env);
  const results = outcomes.map((o) => o.result);
  const counts = countResults(results);
  if (dedupe) {
    const signatures: [number, string][] = [];
    outcomes.forEach((o, i) => {
      const sig = o.result.ok ? signatureOf(o.text) : null;
      if (sig !== null) signatures.push([start + i, encodeSignature(sig)]);
    });
    await bucket.put(jobKeys.signatures(jobId, chunk), JSON.stringify(signatures)); // before the results: a results object implies its signatures
  }
  await bucket.put(jobKeys.chunk(jobId, chunk), results.map(resultLine).join(''), {
    httpMetadata: { contentType: 'application/x-ndjson' },
    customMetadata: { counts: JSON.stringify(counts), start: String(start) },
  });
  await jobs.get(jobs.idFromName(jobId)).completeChunk(chunk, counts);
}

/** Counts stored with a chunk's results object. */
function countsOf(object: R2Object): JobCounts {
  const raw = object.customMetadata?.counts;
  const counts = raw === undefined ? null : (JSON.parse(raw) as JobCounts);
  if (counts === null) throw new Error(`results object ${object.key} has no counts`);
  return counts;
}

/** Reports a chunk already stored by an earlier delivery; false when it is not stored. */
async function reportIfStored(env: JobsEnv, jobId: string, chunk: number): Promise<boolean> {
  const { bucket, jobs } = jobsBindings(env);
  const head = await bucket.head(jobKeys.chunk(jobId, chunk));
  if (head === null) return false;
  await jobs.get(jobs.idFromName(jobId)).completeChunk(chunk, countsOf(head));
  return true;
}

async function consumeChunks(batch: MessageBatch<unknown>, env: JobsEnv, ctx: ExecutionContext, extractor: Extractor): Promise<void> {
  const settings = settingsOf(env);
  const bindings = jobsBindings(env);
  const pending: { message: Message<unknown>; body: ChunkMessage }[] = [];
  for (const message of batch.messages) {
    try {
      const body = parseChunkMessage(message.body);
      if (await reportIfStored(env, body.jobId, body.chunk)) message.ack();
      else pending.push({ message, body });
    } catch (err) {
      console.error(`pith: job message ${message.id} failed (attempt ${message.attempts})`, err);
      message.retry({ delaySeconds: messageRetryDelayS(message.attempts) });
    }
  }
  if (pending.length === 0) return;
  await Promise.all([...new Set(pending.map((p) => p.body.jobId))].map((id) => bindings.jobs.get(bindings.jobs.idFromName(id)).markRunning()));

  // Archived pages (WARC jobs) are read from R2 and extracted: nothing to schedule.
  const archived = new Map<number, Promise<UrlOutcome[]>>();
  pending.forEach((p, m) => {
    if (p.body.archived !== true) return;
    const context: UrlContext = { extractor, settings, options: p.body.options, ctx };
    const outcomes = archivedPages(bindings, p.body.jobId, p.body.chunk).then(async (pages) => {
      const out: UrlOutcome[] = [];
      for (const page of pages) out.push(await processArchived(page.url, page.html, context, page.error));
      return out;
    });
    outcomes.catch(() => undefined); // awaited below, per message
    archived.set(m, outcomes);
  });

  // All fetched URLs of the batch under one schedule; options may differ per job, so the context is per item.
  const items = pending.flatMap((p, m) => (p.body.archived === true ? [] : p.body.urls.map((url) => ({ m, url, context: { extractor, settings, options: p.body.options, ctx } as UrlContext }))));
  const hostOf = (item: (typeof items)[number]): string => {
    try {
      return new URL(item.url).host;
    } catch {
      return '';
    }
  };
  const delays = new Map<string, number>();
  const originOf = (item: (typeof items)[number]): string | null => {
    try {
      return new URL(item.url).origin;
    } catch {
      return null;
    }
  };
  // Crawl-delay needs robots.txt, fetched once per origin before the schedule starts.
  await Promise.all(
    [...new Map(items.map((item) => [hostOf(item), item])).values()].map(async (item) => {
      const origin = originOf(item);
      delays.set(hostOf(item), origin === null || origin === 'null' ? item.context.options.hostDelayMs : await hostDelayMs(origin, item.context).catch(() => item.context.options.hostDelayMs));
    }),
  );
  const perHost = Math.max(1, Math.min(...pending.map((p) => p.body.options.hostConcurrency)));
  const settled = await runPerHost(items, hostOf, { concurrency: FETCH_CONCURRENCY, perHost, delayMsOf: (host) => delays.get(host) ?? 0 }, (item) =>
    processUrl(item.url, item.context).then(
      (outcome) => ({ ok: true as const, outcome }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  );

  let offset = 0;
  for (let m = 0; m < pending.length; m++) {
    const { message, body } = pending[m];
    const fetched = body.archived === true ? [] : settled.slice(offset, offset + body.urls.length);
    offset += fetched.length;
    try {
      const broken = fetched.find((s) => !s.ok);
      if (broken !== undefined && !broken.ok) throw broken.error;
      const outcomes = body.archived === true ? await archived.get(m)! : fetched.map((s) => (s as { outcome: UrlOutcome }).outcome);
      await storeChunk(env, body.jobId, body.chunk, body.start, outcomes, body.options.dedupe);
      message.ack();
    } catch (err) {
      console.error(`pith: job ${body.jobId} chunk ${body.chunk} failed (attempt ${message.attempts})`, err);
      message.retry({ delaySeconds: messageRetryDelayS(message.attempts) });
    }
  }
}

/** Dead letters: the chunk's URLs are recorded as failed, so the job finishes and accounts for every URL. */
async function consumeDeadLetters(batch: MessageBatch<unknown>, env: JobsEnv): Promise<void> {
  const { bucket, jobs } = jobsBindings(env);
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
      if (await reportIfStored(env, jobId, chunk)) {
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
      const outcomes: UrlOutcome[] = urls.slice(start, start + meta.chunkSize).map((url) => ({
        result: { url, ok: false, error: { code: 'dead_lettered', message: 'this URL\'s batch failed every delivery attempt and went to the dead-letter queue; the operator has the logs' } },
        text: '',
      }));
      await storeChunk(env, jobId, chunk, start, outcomes, false);
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
