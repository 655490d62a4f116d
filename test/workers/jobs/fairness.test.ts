// Jobs share the consumer: a job of many URLs on one host with a long politeness delay does its work in slices and
// defers what its host's gate does not allow yet, so a small job submitted behind it still finishes, and a job that
// cannot finish within maxDurationS fails the rest with `deadline_exceeded`. Real queue, R2 and Durable Objects.

import { describe, expect, it } from 'vitest';
import { call, errorOf } from '../server/helpers';
import { bulk, jobResults, jobStatus, postJob, waitForJob } from './helpers';

describe('fair jobs', () => {
  it('a 5-URL job submitted behind 200 URLs on one host with a 5 s delay finishes, and the big job reports progress', async () => {
    const big = Array.from({ length: 200 }, (_, i) => bulk(`/a/${40_000 + i}`));
    const starving = await postJob({ urls: big, hostDelayMs: 5_000, maxDurationS: 30, timeoutMs: 2_000 });
    expect(starving.status).toBe(202);
    const { id: bigId } = (await starving.json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const small = Array.from({ length: 5 }, (_, i) => bulk(`/a/${41_000 + i}`));
    const res = await postJob({ urls: small, hostDelayMs: 0 });
    expect(res.status).toBe(202);
    const { id: smallId } = (await res.json()) as { id: string };
    const smallStatus = await waitForJob(smallId, 60_000);
    expect(smallStatus).toMatchObject({ state: 'done', total: 5, done: 5, failed: 0 });

    // The big job is still going, and what it did so far is counted and readable.
    const progress = await jobStatus(bigId);
    expect(progress.state).toBe('running');
    expect(progress.done).toBeGreaterThanOrEqual(1);
    expect(progress.done + progress.failed).toBeLessThan(200);
    const partial = await jobResults(bigId);
    expect(partial.length).toBe(progress.done + progress.failed);
    expect(partial.filter((r) => r.ok).length).toBeGreaterThanOrEqual(1);

    // Past its 30 s the big job fails what is left with deadline_exceeded; every URL once, in input order.
    const final = await waitForJob(bigId, 60_000);
    expect(final.done + final.failed).toBe(200);
    expect(final.done).toBeGreaterThanOrEqual(1);
    expect(final.done).toBeLessThanOrEqual(8); // 30 s at one fetch per 5 s, plus the first
    expect(final.errors.deadline_exceeded).toBe(final.failed);
    const results = await jobResults(bigId);
    expect(results.map((r) => r.url)).toEqual(big);
    const late = results.find((r) => !r.ok);
    expect(late).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
  }, 130_000);

  it('a job whose host would be free again only after its deadline fails those URLs at once', async () => {
    const urls = Array.from({ length: 3 }, (_, i) => bulk(`/a/${42_000 + i}`));
    const res = await postJob({ urls, hostDelayMs: 60_000, maxDurationS: 10 });
    const { id } = (await res.json()) as { id: string };
    const status = await waitForJob(id, 30_000);
    expect(status.done + status.failed).toBe(3);
    expect(status.errors.deadline_exceeded).toBe(status.failed);
    expect(status.failed).toBeGreaterThanOrEqual(2);
  });

  it('refuses a maxDurationS out of range', async () => {
    const res = await postJob({ urls: [bulk('/a/1')], maxDurationS: 1 });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/maxDurationS/);
    expect((await call('/v1/jobs/nope')).status).toBe(404);
  });
});
