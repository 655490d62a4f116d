// The politeness gate of one host: a Durable Object per host name (PITH_HOST_GATE.idFromName(host)), shared by every
// job and every consumer invocation. It remembers when the host's last fetch was granted and hands out the next
// start time; a caller whose host is not ready is told when to come back and defers the URL instead of waiting.
//
// Each caller brings its own delay: a job asking for 60 s between fetches waits 60 s after the host's last fetch by
// anyone, and a job asking for 250 ms is not held by the first job's 60 s.

import { DurableObject } from 'cloudflare:workers';

/** A granted start (`startAt`, possibly a little in the future) or the earliest time worth asking again. */
export type GateAnswer = { granted: true; startAt: number } | { granted: false; retryAt: number };

export class HostGate extends DurableObject {
  private lastStartAt: number | undefined;

  /**
   * Grants a start `delayMs` after the host's last granted start, if that is at most `maxWaitMs` from now;
   * otherwise grants nothing and says when the host is next free for this delay.
   */
  async reserve(delayMs: number, maxWaitMs: number): Promise<GateAnswer> {
    this.lastStartAt ??= (await this.ctx.storage.get<number>('lastStartAt')) ?? 0;
    const now = Date.now();
    const startAt = Math.max(now, this.lastStartAt + Math.max(0, delayMs));
    if (startAt - now > Math.max(0, maxWaitMs)) return { granted: false, retryAt: startAt };
    this.lastStartAt = startAt;
    await this.ctx.storage.put('lastStartAt', startAt);
    return { granted: true, startAt };
  }
}
