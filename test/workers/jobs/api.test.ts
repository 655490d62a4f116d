// The jobs API: creating a job, its status, its results, and the 400s for bad input.

import { describe, expect, it } from 'vitest';
import { call, errorOf } from '../server/helpers';
import { bulk, jobResults, postJob, waitForJob } from './helpers';

describe('POST /v1/jobs', () => {
  it('answers 202 with the id, the status path and the total, and the job finishes with one line per URL', async () => {
    const urls = [bulk('/a/1'), bulk('/a/2'), bulk('/status/404/1'), bulk('/a/3')];
    const res = await postJob({ urls, hostDelayMs: 0 });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { id: string; status: string; total: number };
    expect(body.total).toBe(4);
    expect(body.status).toBe(`/v1/jobs/${body.id}`);
    expect(res.headers.get('location')).toBe(body.status);
    const status = await waitForJob(body.id);
    expect(status).toMatchObject({ id: body.id, state: 'done', total: 4, done: 3, failed: 1, errors: { upstream_error: 1 } });
    expect(Date.parse(status.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(status.createdAt));
    const results = await jobResults(body.id);
    expect(results.map((r) => r.url)).toEqual(urls);
    const ok = results[0];
    if (!ok.ok) throw new Error('first URL failed');
    expect(ok.title).toBe('Article number 1');
    expect(ok.text).toContain('By the bulk desk');
    expect(ok.text).not.toContain('All rights reserved');
    expect(ok.fingerprint?.simhash).toMatch(/^[0-9a-f]{16}$/);
    expect(results[2]).toMatchObject({ ok: false, error: { code: 'upstream_error', upstreamStatus: 404 } });
  });

  it('refuses a body that is not JSON, has no URLs, or too many, with 400 and a code', async () => {
    const notJson = await call('/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"urls": [' });
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).code).toBe('invalid_input');
    for (const body of [{}, { urls: [] }, { urls: 'x' }, { urls: [bulk('/a/1')], format: 'pdf' }, { urls: [bulk('/a/1')], colour: 'red' }]) {
      const res = await postJob(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_input');
    }
    const tooMany = await call('/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ urls: Array.from({ length: 10_001 }, (_, i) => bulk(`/a/${i}`)) }) });
    expect(tooMany.status).toBe(400);
    expect((await errorOf(tooMany)).message).toMatch(/more than the 10000/);
  });

  it('lists every URL the guard refuses and queues nothing', async () => {
    const urls = [bulk('/a/1'), 'http://localhost/x', 'ftp://example.com/f', bulk('/a/2'), 'http://169.254.169.254/latest', 42];
    const res = await postJob({ urls });
    expect(res.status).toBe(400);
    const error = (await res.json()) as { error: { code: string; refused: { index: number; url: string; code: string }[] } };
    expect(error.error.code).toBe('invalid_url');
    expect(error.error.refused.map((r) => [r.index, r.code])).toEqual([
      [1, 'blocked_target'],
      [2, 'invalid_url'],
      [4, 'blocked_target'],
      [5, 'invalid_url'],
    ]);
  });

  it('answers 404 for an unknown job', async () => {
    const res = await call('/v1/jobs/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('not_found');
    expect((await call('/v1/jobs/not-an-id/results')).status).toBe(404);
  });

  it('needs the token when one is configured', async () => {
    const res = await call('/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ urls: [bulk('/a/1')] }) }, { PITH_TOKEN: 'tok' });
    expect(res.status).toBe(401);
    expect((await call('/v1/jobs/00000000-0000-4000-8000-000000000000', undefined, { PITH_TOKEN: 'tok' })).status).toBe(401);
  });
});
