/// <reference types="@cloudflare/vitest-pool-workers/types" />
// Helpers for the bulk-job tests: the generated-page servers, creating a job through the real Worker, and
// waiting for the real queue consumers to finish it.

import { expect, inject } from 'vitest';
import { call } from '../server/helpers';
import type { JobResult } from '../../../src/io/ndjson';
import type { JobStatus } from '../../../src/hosts/worker/jobs/job-types';

const pagesPort = inject('bulkPagesPort');
const refusingPort = inject('bulkRefusingPort');

/** URL of a generated page (dev/bulk-pages.ts). */
export function bulk(path: string): string {
  return `http://127.0.0.1:${pagesPort}${path}`;
}

/** URL on the server whose robots.txt refuses pith. */
export function refusing(path: string): string {
  return `http://127.0.0.1:${refusingPort}${path}`;
}

/** Request counts of the page server, per path. */
export async function hits(): Promise<Record<string, number>> {
  return (await (await fetch(bulk('/hits'))).json()) as Record<string, number>;
}

export async function postJob(body: unknown): Promise<Response> {
  return call('/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function jobStatus(id: string): Promise<JobStatus> {
  const res = await call(`/v1/jobs/${id}`);
  if (res.status !== 200) throw new Error(`GET /v1/jobs/${id} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as JobStatus;
}

/** Polls the job until it is done (the queue consumers run in this workerd), or fails after `budgetMs`. */
export async function waitForJob(id: string, budgetMs = 50_000): Promise<JobStatus> {
  const until = Date.now() + budgetMs;
  for (;;) {
    const status = await jobStatus(id);
    if (status.state === 'done') return status;
    if (Date.now() > until) throw new Error(`job ${id} not done after ${budgetMs} ms: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function jobResults(id: string): Promise<JobResult[]> {
  const res = await call(`/v1/jobs/${id}/results`);
  if (res.status !== 200) throw new Error(`results answered ${res.status}`);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const text = new TextDecoder().decode(await res.arrayBuffer());
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as JobResult);
}
