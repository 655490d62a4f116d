// The Worker entry: the hono app around the Web2Text extractor of this isolate, the bulk jobs' queue consumer and
// the jobs' Durable Object class (wrangler.toml binds all three).
import { createApp } from './server/app.js';
import { createJobsConsumer } from './server/jobs/consumer.js';
import type { JobsEnv } from './server/jobs/bindings.js';
import { workerExtractor } from './server/worker-extractor.js';

export { JobState } from './server/jobs/job-state.js';

const app = createApp(workerExtractor);

export default {
  fetch: app.fetch,
  queue: createJobsConsumer(workerExtractor),
} satisfies ExportedHandler<JobsEnv>;
