// The bindings of bulk jobs (declared in wrangler.toml: PITH_JOBS, PITH_HOST_GATE, PITH_JOB_BUCKET, PITH_JOB_QUEUE) on top of the
// service's own, and the check that they are there.

import { PithError } from '../../../errors.js';
import type { Env } from '../env.js';
import type { HostGate } from './host-gate.js';
import type { JobState } from './job-state.js';
import type { ChunkMessage } from './job-types.js';

/** The bindings of the jobs feature on top of the service's own. */
export interface JobsEnv extends Env {
  PITH_JOBS?: DurableObjectNamespace<JobState>;
  PITH_HOST_GATE?: DurableObjectNamespace<HostGate>;
  PITH_JOB_BUCKET?: R2Bucket;
  PITH_JOB_QUEUE?: Queue<ChunkMessage>;
  /** Most URLs in one job (default 10000). */
  PITH_JOB_MAX_URLS?: string;
}

export interface JobsBindings {
  jobs: DurableObjectNamespace<JobState>;
  gates: DurableObjectNamespace<HostGate>;
  bucket: R2Bucket;
  queue: Queue<ChunkMessage>;
}

/** The four bindings, or an operator error naming the missing ones. */
export function jobsBindings(env: JobsEnv | undefined): JobsBindings {
  const missing = (['PITH_JOBS', 'PITH_HOST_GATE', 'PITH_JOB_BUCKET', 'PITH_JOB_QUEUE'] as const).filter((name) => env?.[name] === undefined);
  if (missing.length > 0) {
    throw new PithError('internal', `bulk jobs need the bindings ${missing.join(', ')} (see the jobs section of wrangler.toml)`);
  }
  return { jobs: env!.PITH_JOBS!, gates: env!.PITH_HOST_GATE!, bucket: env!.PITH_JOB_BUCKET!, queue: env!.PITH_JOB_QUEUE! };
}
