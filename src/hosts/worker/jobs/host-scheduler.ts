// Per-host scheduling for bulk fetches: at most `concurrency` tasks at once overall, at most `perHost` at once for
// one host, and at least `delayMsOf(host)` between the starts of two tasks on the same host. Pure apart from
// timers; no I/O of its own. Results come back in input order whatever order the tasks finish in.
//
// Fairness: a free slot goes to the earliest waiting item whose host may start now, so one slow or rate-limited
// host does not hold back the others.

export interface HostSchedule {
  /** Tasks running at once, all hosts together (Workers allow 6 open connections per invocation). */
  concurrency: number;
  /** Tasks running at once on one host. */
  perHost: number;
  /** Minimum milliseconds between two starts on `host` (politeness delay, e.g. robots.txt Crawl-delay). */
  delayMsOf: (host: string) => number;
}

interface HostState {
  running: number;
  /** Date.now() before which no new task may start on this host. */
  nextStartAt: number;
}

/**
 * Runs `task` over `items` under `schedule`. `hostOf` names each item's host. A task that throws rejects the
 * whole run only if `task` lets it: callers that want every item accounted for catch inside `task`.
 */
export async function runPerHost<T, R>(
  items: readonly T[],
  hostOf: (item: T) => string,
  schedule: HostSchedule,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const hosts = new Map<string, HostState>();
  const waiting: number[] = items.map((_, i) => i);
  const concurrency = Math.max(1, Math.floor(schedule.concurrency));
  const perHost = Math.max(1, Math.floor(schedule.perHost));
  let running = 0;
  let failed: unknown = undefined;
  let hasFailed = false;

  return new Promise<R[]>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timerAt = Infinity;

    const stateOf = (host: string): HostState => {
      let state = hosts.get(host);
      if (state === undefined) {
        state = { running: 0, nextStartAt: 0 };
        hosts.set(host, state);
      }
      return state;
    };

    const pump = (): void => {
      if (hasFailed) return;
      if (waiting.length === 0 && running === 0) {
        if (timer !== undefined) clearTimeout(timer);
        resolve(results);
        return;
      }
      const now = Date.now();
      let soonest = Infinity;
      for (let w = 0; w < waiting.length && running < concurrency; ) {
        const index = waiting[w];
        const host = hostOf(items[index]);
        const state = stateOf(host);
        if (state.running >= perHost) {
          w++;
          continue;
        }
        if (state.nextStartAt > now) {
          soonest = Math.min(soonest, state.nextStartAt);
          w++;
          continue;
        }
        waiting.splice(w, 1);
        state.running++;
        state.nextStartAt = now + Math.max(0, schedule.delayMsOf(host));
        running++;
        task(items[index], index).then(
          (value) => {
            results[index] = value;
            state.running--;
            running--;
            pump();
          },
          (err: unknown) => {
            if (!hasFailed) {
              hasFailed = true;
              failed = err;
              if (timer !== undefined) clearTimeout(timer);
              reject(failed);
            }
          },
        );
      }
      // Wake up when a delayed host may start again (a finishing task pumps too).
      if (soonest !== Infinity && running < concurrency && soonest < timerAt) {
        if (timer !== undefined) clearTimeout(timer);
        timerAt = soonest;
        timer = setTimeout(() => {
          timerAt = Infinity;
          timer = undefined;
          pump();
        }, Math.max(0, soonest - now));
      }
    };
    pump();
  });
}
