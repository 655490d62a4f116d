// The Worker entry: the hono app around the Web2Text extractor of this isolate, the bulk jobs' queue consumer and
// the jobs' Durable Object classes (wrangler.toml binds them all).
import { env } from 'cloudflare:workers';
import { createApp } from './app.js';
import { createJobsConsumer } from './jobs/consumer.js';
import type { JobsEnv } from './jobs/bindings.js';
import { warmUp, workerExtractor } from './worker-extractor.js';

export { JobState } from './jobs/job-state.js';
export { HostGate } from './jobs/host-gate.js';

const app = createApp(workerExtractor);

// The model loads, and one small page runs, while the isolate starts, not on its first request: Cloudflare runs the
// global scope while the TLS handshake goes on (docs/cold-start.md). A failed load is retried, and reported, by the
// first request.
if ((env as JobsEnv).PITH_LOAD_AT_START !== '0') void warmUp().catch(() => undefined);

export default {
  fetch: app.fetch,
  queue: createJobsConsumer(workerExtractor),
} satisfies ExportedHandler<JobsEnv>;
