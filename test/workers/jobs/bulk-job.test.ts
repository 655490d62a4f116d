// Bulk jobs end to end in workerd: the real queue, its consumers, R2 and the job's Durable Object, against
// generated pages served from 127.0.0.1 (dev/bulk-pages.ts).

import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/hosts/worker/index';
import type { JobResult } from '../../../src/io/ndjson';
import { enqueueChunks, storeJob } from '../../../src/hosts/worker/jobs/routes';
import { jobKeys, type ChunkMessage, type JobOptions } from '../../../src/hosts/worker/jobs/job-types';
import { jobsBindings, type JobsEnv } from '../../../src/hosts/worker/jobs/bindings';
import { baseEnv, call } from '../server/helpers';
import { bulk, hits, jobResults, postJob, refusing, waitForJob } from './helpers';

const env = baseEnv as unknown as JobsEnv;

type Expected = { ok: true; finalPath?: string } | { ok: false; code: string; upstreamStatus?: number };

/** The planted job: 200 URLs, each with the outcome it must get. */
function plantedJob(): { url: string; expected: Expected }[] {
  const job: { url: string; expected: Expected }[] = [];
  const add = (url: string, expected: Expected): void => void job.push({ url, expected });
  for (let i = 0; i < 128; i++) add(bulk(`/a/${i}`), { ok: true });
  for (let g = 0; g < 3; g++) for (let k = 0; k < 4; k++) add(bulk(`/dup/${g}/${k}`), { ok: true });
  for (let i = 0; i < 10; i++) add(bulk(`/status/404/${i}`), { ok: false, code: 'upstream_error', upstreamStatus: 404 });
  for (let i = 0; i < 4; i++) add(bulk(`/status/500/${i}`), { ok: false, code: 'upstream_error', upstreamStatus: 500 });
  for (let i = 0; i < 4; i++) add(bulk(`/flaky/${i}`), { ok: true }); // 503 once, then the page: a retry
  for (let i = 0; i < 5; i++) add(bulk(`/slow/300/${i}`), { ok: true });
  for (let i = 0; i < 4; i++) add(bulk(`/hang/${i}`), { ok: false, code: 'upstream_timeout' });
  for (let i = 0; i < 6; i++) add(bulk(`/image/${i}.png`), { ok: false, code: 'not_html' });
  for (let i = 0; i < 3; i++) add(bulk(`/text/${i}`), { ok: false, code: 'not_html' });
  for (let i = 0; i < 8; i++) add(bulk(`/redirect/${i}`), { ok: true, finalPath: `/a/${500_000 + i}` });
  for (let i = 0; i < 3; i++) add(bulk(`/redirect-private/${i}`), { ok: false, code: 'blocked_target' });
  for (let i = 0; i < 5; i++) add(bulk(`/private/${i}`), { ok: false, code: 'robots_disallowed' });
  for (let i = 0; i < 3; i++) add(bulk(`/empty/${i}`), { ok: false, code: 'no_content' });
  for (let i = 0; i < 5; i++) add(refusing(`/a/${i}`), { ok: false, code: 'robots_disallowed' }); // a host whose robots.txt refuses pith
  // Shuffle deterministically so that outcomes are spread over chunks.
  for (let i = job.length - 1; i > 0; i--) {
    const j = (i * 7919 + 13) % (i + 1);
    [job[i], job[j]] = [job[j], job[i]];
  }
  return job;
}

const FAST: Partial<JobOptions> & Record<string, unknown> = { timeoutMs: 1000, attempts: 2, hostConcurrency: 6, hostDelayMs: 0 };

describe('a 200-URL job with planted failures', () => {
  it('accounts for every URL exactly once with the right outcome, and clusters the planted near-duplicates', async () => {
    const planted = plantedJob();
    expect(planted).toHaveLength(200);
    const res = await postJob({ urls: planted.map((p) => p.url), dedupe: true, ...FAST });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const status = await waitForJob(id);

    const results = await jobResults(id);
    expect(results.map((r) => r.url)).toEqual(planted.map((p) => p.url)); // every URL once, in input order
    results.forEach((result, i) => {
      const expected = planted[i].expected;
      const where = `${planted[i].url}: ${JSON.stringify(result).slice(0, 300)}`;
      expect(result.ok, where).toBe(expected.ok);
      if (expected.ok && result.ok) {
        expect(result.text!.length, where).toBeGreaterThan(500);
        if (expected.finalPath !== undefined) expect(result.finalUrl, where).toBe(bulk(expected.finalPath));
      }
      if (!expected.ok && !result.ok) {
        expect(result.error.code, where).toBe(expected.code);
        if (expected.upstreamStatus !== undefined) expect(result.error.upstreamStatus, where).toBe(expected.upstreamStatus);
      }
    });

    const wantErrors: Record<string, number> = {};
    for (const p of planted) if (!p.expected.ok) wantErrors[p.expected.code] = (wantErrors[p.expected.code] ?? 0) + 1;
    const wantFailed = Object.values(wantErrors).reduce((a, b) => a + b, 0);
    expect(status).toMatchObject({ state: 'done', total: 200, done: 200 - wantFailed, failed: wantFailed, errors: wantErrors });

    const served = await hits();
    for (let i = 0; i < 4; i++) expect(served[`/flaky/${i}`]).toBe(2); // retried once after its 503
    for (let i = 0; i < 4; i++) expect(served[`/status/500/${i}`]).toBe(2); // two attempts, both 500
    for (let i = 0; i < 10; i++) expect(served[`/status/404/${i}`]).toBe(1); // a 404 is not retried
    for (let i = 0; i < 5; i++) expect(served[`/private/${i}`]).toBeUndefined(); // robots.txt respected
    const refused = (await (await fetch(refusing('/hits'))).json()) as Record<string, number>;
    expect(Object.keys(refused).sort()).toEqual(['/hits', '/robots.txt']);

    const dupes = await call(`/v1/jobs/${id}/duplicates`);
    expect(dupes.status).toBe(200);
    const answer = (await dupes.json()) as { clusters: { urls: string[]; minJaccard: number }[]; compared: number };
    const clusters = answer.clusters.map((c) => [...c.urls].sort()).sort((a, b) => a[0].localeCompare(b[0]));
    const want = [0, 1, 2].map((g) => [0, 1, 2, 3].map((k) => bulk(`/dup/${g}/${k}`)).sort());
    expect(clusters).toEqual(want);
    expect(answer.compared).toBe(200 - wantFailed);
    for (const c of answer.clusters) expect(c.minJaccard).toBeGreaterThanOrEqual(0.8);
  });
});

/** The messages of a stored job, as the queue would deliver them. */
function messagesOf(meta: { id: string; chunks: number; chunkSize: number; options: JobOptions }, urls: string[], attempts: number) {
  return Array.from({ length: meta.chunks }, (_, chunk) => ({
    id: `msg-${meta.id}-${chunk}`,
    timestamp: new Date(),
    attempts,
    body: { v: 1, jobId: meta.id, chunk, start: chunk * meta.chunkSize, urls: urls.slice(chunk * meta.chunkSize, (chunk + 1) * meta.chunkSize), options: meta.options } satisfies ChunkMessage,
  }));
}

function options(extra: Partial<JobOptions> = {}): JobOptions {
  return { format: 'text', dedupe: false, nocache: true, timeoutMs: 1000, attempts: 2, hostConcurrency: 6, hostDelayMs: 0, origin: 'https://pith.test', ...extra };
}

/** The job bucket with one injected failure: the first put of `failKey` throws, as a storage outage would. */
function bucketFailingOnce(real: R2Bucket, failKey: string): R2Bucket {
  let failed = false;
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'put') {
        return async (key: string, ...rest: unknown[]) => {
          if (key === failKey && !failed) {
            failed = true;
            throw new Error('injected: R2 put failed');
          }
          return (target.put as (...args: unknown[]) => Promise<unknown>)(key, ...rest);
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('redelivery and failures of the consumer', () => {
  it('a consumer that fails mid-batch is retried for that chunk only, and no URL gets a second result', async () => {
    const bindings = jobsBindings(env);
    const urls = Array.from({ length: 50 }, (_, i) => bulk(`/a/${20_000 + i}`));
    const meta = await storeJob(bindings, urls, options());
    const failKey = jobKeys.chunk(meta.id, 1);

    const first = createMessageBatch<ChunkMessage>('pith-jobs', messagesOf(meta, urls, 1));
    const ctx1 = createExecutionContext();
    await worker.queue(first as MessageBatch<unknown>, { ...env, PITH_JOB_BUCKET: bucketFailingOnce(env.PITH_JOB_BUCKET!, failKey) }, ctx1);
    const outcome = await getQueueResult(first, ctx1);
    expect(outcome.explicitAcks.sort()).toEqual([`msg-${meta.id}-0`, `msg-${meta.id}-2`]);
    expect(outcome.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`msg-${meta.id}-1`]);
    expect((await call(`/v1/jobs/${meta.id}`)).status).toBe(200);

    // The queue delivers the whole batch again (at-least-once): chunks 0 and 2 are not done twice.
    const before = await hits();
    const again = createMessageBatch<ChunkMessage>('pith-jobs', messagesOf(meta, urls, 2));
    const ctx2 = createExecutionContext();
    await worker.queue(again as MessageBatch<unknown>, env, ctx2);
    expect((await getQueueResult(again, ctx2)).explicitAcks).toHaveLength(3);
    const after = await hits();
    for (const i of [...Array(20).keys(), ...Array.from({ length: 10 }, (_, k) => 40 + k)]) {
      expect(after[`/a/${20_000 + i}`], `URL ${i} was fetched again`).toBe(before[`/a/${20_000 + i}`]);
    }

    const status = await waitForJob(meta.id, 5_000);
    expect(status).toMatchObject({ state: 'done', total: 50, done: 50, failed: 0 });
    const results = await jobResults(meta.id);
    expect(results.map((r) => r.url)).toEqual(urls);

    // A third delivery of a finished chunk changes nothing.
    const late = createMessageBatch<ChunkMessage>('pith-jobs', messagesOf(meta, urls, 3).slice(0, 1));
    const ctx3 = createExecutionContext();
    await worker.queue(late as MessageBatch<unknown>, env, ctx3);
    expect((await getQueueResult(late, ctx3)).explicitAcks).toHaveLength(1);
    expect(await waitForJob(meta.id, 1_000)).toMatchObject({ done: 50, failed: 0 });
    expect(await jobResults(meta.id)).toHaveLength(50);
  });

  it('a poison message goes to the dead-letter queue and the job still finishes, its URLs counted as failed', async () => {
    const bindings = jobsBindings(env);
    const urls = Array.from({ length: 45 }, (_, i) => bulk(`/a/${30_000 + i}`));
    const meta = await storeJob(bindings, urls, options());
    await enqueueChunks(bindings, meta, urls, (chunk) => chunk !== 1);
    // Chunk 1's message is broken: every delivery fails, so after max_retries it is dead-lettered.
    await env.PITH_JOB_QUEUE!.send({ v: 1, jobId: meta.id, chunk: 1, start: 20, urls: 'not a list' } as unknown as ChunkMessage);

    const status = await waitForJob(meta.id, 55_000);
    expect(status).toMatchObject({ state: 'done', total: 45, done: 25, failed: 20, errors: { dead_lettered: 20 } });
    const results = await jobResults(meta.id);
    expect(results.map((r) => r.url)).toEqual(urls);
    results.forEach((r: JobResult, i) => {
      expect(r.ok, r.url).toBe(i < 20 || i >= 40);
      if (!r.ok) expect(r.error.code).toBe('dead_lettered');
    });
  }, 60_000);
});
