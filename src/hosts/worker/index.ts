// The Worker entry: the hono app around the Web2Text extractor of this isolate, the bulk jobs' queue consumer and
// the jobs' Durable Object classes (wrangler.toml binds them all).
import { createApp } from './app.js';
import { createJobsConsumer } from './jobs/consumer.js';
import type { JobsEnv } from './jobs/bindings.js';
import { workerExtractor } from './worker-extractor.js';

export { JobState } from './jobs/job-state.js';
export { HostGate } from './jobs/host-gate.js';

const app = createApp(workerExtractor);

export default {
  fetch: app.fetch,
  queue: createJobsConsumer(workerExtractor),
} satisfies ExportedHandler<JobsEnv>;
