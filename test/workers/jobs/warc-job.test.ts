// A job over a WARC file stored in R2: every HTML response record extracted, nothing fetched, the same texts as
// the same pages posted as HTML.

import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src/io/ndjson';
import { jobsBindings, type JobsEnv } from '../../../src/hosts/worker/jobs/bindings';
import { baseEnv, call, errorOf } from '../server/helpers';
import { bulk, jobResults, postJob, waitForJob } from './helpers';

const env = baseEnv as unknown as JobsEnv;

/** The fixture's pages in file order (test/fixtures/warc/make-warc.ts writes them in slug order). */
const SLUGS = ['abduzeedo-gdusa-awards', 'agilecrm-free-crm', 'berklee-spanish-resources', 'cassidoo-dot-github', 'docusaurus-docs', 'iii-home-buyers-insurance-guide', 'makeitallwork-mobile-app-developers', 'mit-software', 'nintendo-oled-model'];

describe('a job over a WARC file in R2', () => {
  it('extracts every HTML response record, with the record URL, and the texts of the pages as HTML', async () => {
    const bytes = await (await fetch(bulk('/fixture.warc.gz'))).arrayBuffer();
    const key = `uploads/${crypto.randomUUID()}.warc.gz`;
    await jobsBindings(env).bucket.put(key, bytes);

    const res = await postJob({ warc: key, dedupe: true });
    expect(res.status, await res.clone().text()).toBe(202);
    const { id, total } = (await res.json()) as { id: string; total: number };
    expect(total).toBe(14); // 14 HTML pages (one per fixture page); the 404, the image, the redirect and the other records are not inputs
    const status = await waitForJob(id);
    expect(status).toMatchObject({ state: 'done', total: 14, failed: 0, done: 14 });
    const results = await jobResults(id);
    expect(results).toHaveLength(14);

    for (let i = 0; i < SLUGS.length; i++) {
      const html = await (await fetch(bulk(`/fixture-page/${SLUGS[i]}`))).text();
      const result = results[i] as JobResult & { ok: true; text: string };
      expect(result.ok).toBe(true);
      const posted = await call(`/v1/extract?url=${encodeURIComponent(result.url)}&format=json`, { method: 'POST', headers: { 'content-type': 'text/html; charset=utf-8' }, body: html });
      expect(posted.status).toBe(200);
      expect(result.text, SLUGS[i]).toBe(((await posted.json()) as { text: string }).text);
    }
    expect((await call(`/v1/jobs/${id}/duplicates`)).status).toBe(200);
  });

  it('answers 400 for a missing WARC object or one that is not a WARC file', async () => {
    const missing = await postJob({ warc: 'uploads/nope.warc.gz' });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/no object/);
    const key = `uploads/${crypto.randomUUID()}.warc`;
    await jobsBindings(env).bucket.put(key, '<html>not a warc</html>\r\n\r\n');
    const broken = await postJob({ warc: key });
    expect(broken.status).toBe(400);
    expect((await errorOf(broken)).message).toMatch(/cannot be read as a WARC file/);
    expect((await postJob({ warc: key, urls: [bulk('/a/1')] })).status).toBe(400);
  });

  it('a WARC bomb is bounded: a page whose payload decodes to 200 MiB fails with input_too_large, a 200 MiB record refuses the file', async () => {
    // The same files give the same codes through pith batch (test/node/bulk/batch.test.ts).
    const payloadKey = `uploads/${crypto.randomUUID()}.warc`;
    await jobsBindings(env).bucket.put(payloadKey, await (await fetch(bulk('/warc-bomb/payload.warc'))).arrayBuffer());
    const started = Date.now();
    const res = await postJob({ warc: payloadKey });
    expect(res.status, await res.clone().text()).toBe(202);
    expect(Date.now() - started).toBeLessThan(10_000); // a guard against decoding all 200 MiB (14 s before), not a speed test
    const { id } = (await res.json()) as { id: string };
    expect(await waitForJob(id)).toMatchObject({ state: 'done', total: 2, failed: 1, done: 1 });
    const results = await jobResults(id);
    expect(results[0]).toMatchObject({ url: 'https://bomb.example/payload', ok: false, error: { code: 'input_too_large' } });
    expect(results[1]).toMatchObject({ url: 'https://bomb.example/ordinary', ok: true });

    const memberKey = `uploads/${crypto.randomUUID()}.warc.gz`;
    await jobsBindings(env).bucket.put(memberKey, await (await fetch(bulk('/warc-bomb/member.warc.gz'))).arrayBuffer());
    const refused = await postJob({ warc: memberKey });
    expect(refused.status).toBe(413);
    expect(await errorOf(refused)).toMatchObject({ code: 'input_too_large' });
  });
});
