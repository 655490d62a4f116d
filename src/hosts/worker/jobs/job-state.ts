// The state of one job: a Durable Object per job id (PITH_JOBS.idFromName(id)). It holds the job's description,
// its counters and which chunks are finished. Its methods are called over RPC by the routes and the consumers.
//
// Idempotent by construction: each URL of a chunk is counted once, however often its message is delivered (Queues deliver at
// least once) and whichever consumer (the main one or the dead-letter one) reports it.

import { DurableObject } from 'cloudflare:workers';
import { chunkLength, type JobCounts, type JobMeta, type JobStatus } from './job-types.js';

interface Stored {
  meta?: JobMeta;
  counts?: JobCounts;
  finishedChunks?: number;
  startedAt?: string;
  finishedAt?: string;
}

/** A chunk's recorded offsets (a job stored before results were kept per URL has a count there: none known). */
function offsetsOf(stored: unknown): number[] {
  return Array.isArray(stored) ? (stored as number[]) : [];
}

export class JobState extends DurableObject {
  /** Creates the job. Calling it again with the same id is a no-op (a retried POST cannot reset a job). */
  async init(meta: JobMeta): Promise<void> {
    const known = await this.ctx.storage.get<JobMeta>('meta');
    if (known !== undefined) return;
    const initial: Record<string, unknown> = { meta, counts: { done: 0, failed: 0, errors: {} }, finishedChunks: 0 };
    if (meta.chunks === 0) initial.finishedAt = meta.createdAt; // nothing to do (a WARC file without HTML pages)
    await this.ctx.storage.put(initial);
  }

  /** The job's description, or null when no job has this id. */
  async meta(): Promise<JobMeta | null> {
    return (await this.ctx.storage.get<JobMeta>('meta')) ?? null;
  }

  /** Marks the job as running (the first consumer to pick up a chunk calls this). */
  async markRunning(): Promise<void> {
    if ((await this.ctx.storage.get<string>('startedAt')) === undefined) await this.ctx.storage.put('startedAt', new Date().toISOString());
  }

  /**
   * Records results of chunk `chunk` (offsets into the chunk, each with its error code or null for a success), each
   * offset once however often it is reported. Returns the chunk's recorded offsets and whether it is now complete.
   */
  async record(chunk: number, entries: readonly { offset: number; code: string | null }[]): Promise<{ done: number[]; chunkDone: boolean }> {
    const key = `chunk:${chunk}`;
    const got = await this.ctx.storage.get([key, 'meta', 'counts', 'finishedChunks', 'startedAt']);
    const meta = got.get('meta') as JobMeta | undefined;
    if (meta === undefined) throw new Error('no such job');
    if (!Number.isInteger(chunk) || chunk < 0 || chunk >= meta.chunks) throw new Error(`job ${meta.id} has no chunk ${chunk}`);
    const length = chunkLength(meta, chunk);
    const done = new Set(offsetsOf(got.get(key)));
    const wasComplete = done.size === length;
    const total = got.get('counts') as JobCounts;
    let added = 0;
    for (const { offset, code } of entries) {
      if (!Number.isInteger(offset) || offset < 0 || offset >= length || done.has(offset)) continue;
      done.add(offset);
      added++;
      if (code === null) total.done++;
      else {
        total.failed++;
        total.errors[code] = (total.errors[code] ?? 0) + 1;
      }
    }
    const chunkDone = done.size === length;
    if (added > 0) {
      const now = new Date().toISOString();
      const update: Record<string, unknown> = { [key]: [...done], counts: total };
      if (got.get('startedAt') === undefined) update.startedAt = now;
      if (chunkDone && !wasComplete) {
        const finishedChunks = ((got.get('finishedChunks') as number | undefined) ?? 0) + 1;
        update.finishedChunks = finishedChunks;
        if (finishedChunks === meta.chunks) update.finishedAt = now;
      }
      await this.ctx.storage.put(update);
    }
    return { done: [...done].sort((a, b) => a - b), chunkDone };
  }

  /** Offsets of chunk `chunk` already recorded. */
  async recorded(chunk: number): Promise<number[]> {
    return offsetsOf(await this.ctx.storage.get(`chunk:${chunk}`)).sort((a, b) => a - b);
  }

  /** What GET /v1/jobs/<id> answers, or null when no job has this id. */
  async status(): Promise<JobStatus | null> {
    const got = await this.ctx.storage.get(['meta', 'counts', 'startedAt', 'finishedAt']);
    const s: Stored = Object.fromEntries(got) as Stored;
    if (s.meta === undefined || s.counts === undefined) return null;
    const state = s.finishedAt !== undefined ? 'done' : s.startedAt !== undefined ? 'running' : 'queued';
    return {
      id: s.meta.id,
      state,
      total: s.meta.total,
      done: s.counts.done,
      failed: s.counts.failed,
      errors: s.counts.errors,
      createdAt: s.meta.createdAt,
      finishedAt: s.finishedAt ?? null,
    };
  }
}
