import { describe, expect, it } from 'vitest';
import { runPerHost } from '../../../src/hosts/worker/jobs/host-scheduler.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('runPerHost', () => {
  it('keeps input order and respects the overall and per-host limits', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ host: `h${i % 3}`, i }));
    const running = new Map<string, number>();
    let overall = 0;
    let maxOverall = 0;
    const maxPerHost = new Map<string, number>();
    const out = await runPerHost(items, (x) => x.host, { concurrency: 4, perHost: 2, delayMsOf: () => 0 }, async (x) => {
      overall++;
      running.set(x.host, (running.get(x.host) ?? 0) + 1);
      maxOverall = Math.max(maxOverall, overall);
      maxPerHost.set(x.host, Math.max(maxPerHost.get(x.host) ?? 0, running.get(x.host)!));
      await sleep(5 + (x.i % 4));
      overall--;
      running.set(x.host, running.get(x.host)! - 1);
      return x.i * 10;
    });
    expect(out).toEqual(items.map((x) => x.i * 10));
    expect(maxOverall).toBe(4);
    for (const v of maxPerHost.values()) expect(v).toBeLessThanOrEqual(2);
  });

  it('spaces starts on one host by its delay, without holding back other hosts', async () => {
    const starts: Record<string, number[]> = { slow: [], fast: [] };
    const items = [...Array.from({ length: 3 }, () => 'slow'), ...Array.from({ length: 6 }, () => 'fast')];
    const t0 = Date.now();
    await runPerHost(items, (h) => h, { concurrency: 6, perHost: 6, delayMsOf: (h) => (h === 'slow' ? 100 : 0) }, async (h) => {
      starts[h].push(Date.now() - t0);
      await sleep(1);
    });
    for (let i = 1; i < starts.slow.length; i++) expect(starts.slow[i] - starts.slow[i - 1]).toBeGreaterThanOrEqual(95);
    expect(Math.max(...starts.fast)).toBeLessThan(80); // the fast host did not wait for the slow one
  });

  it('rejects with the first error a task throws, and handles an empty list', async () => {
    await expect(runPerHost([1, 2, 3], () => 'h', { concurrency: 2, perHost: 2, delayMsOf: () => 0 }, async (x) => {
      if (x === 2) throw new Error('boom');
      return x;
    })).rejects.toThrow('boom');
    expect(await runPerHost([], () => 'h', { concurrency: 2, perHost: 1, delayMsOf: () => 0 }, async () => 1)).toEqual([]);
  });
});
