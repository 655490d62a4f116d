// A local bulk job end to end: the generated-page server (dev/bulk-pages.ts) and `npm start` (wrangler
// dev: the Worker, its queue consumers, R2 and the job's Durable Object, all local, no account), a job of N URLs,
// polled until done, then its results checked: every URL exactly once.
//
//   npx tsx eval/bulk-job.ts [--urls 1000] [--port 8797] [--pages-port 8798]
//
// Loopback only; wrangler dev's state goes to a fresh temporary folder and is removed afterwards.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBulkPageServer } from '../dev/bulk-pages.js';

export interface JobRun {
  urls: number;
  seconds: number;
  pagesPerSecond: number;
  done: number;
  failed: number;
  lines: number;
  distinctUrls: number;
  lost: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitForHealth(base: string, child: ChildProcess, budgetMs: number): Promise<void> {
  const until = Date.now() + budgetMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`wrangler dev did not answer ${base}/health within ${budgetMs / 1000} s`);
}

/** Runs one job of `urls` generated pages against a fresh `npm start`. */
export async function runLocalJob(options: { urls: number; port: number; pagesPort: number }): Promise<JobRun> {
  const pages = await startBulkPageServer({ port: options.pagesPort });
  const state = mkdtempSync(join(tmpdir(), 'pith-bulk-state-'));
  const base = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ['scripts/start.js', '--port', String(options.port), '--var', 'PITH_ALLOW_HOSTS:127.0.0.1', '--persist-to', state], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  try {
    await waitForHealth(base, child, 120_000);
    const urls = Array.from({ length: options.urls }, (_, i) => `${pages.base}/a/${i}`);
    const started = performance.now();
    const res = await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls, hostConcurrency: 6, hostDelayMs: 0 }),
    });
    if (res.status !== 202) throw new Error(`POST /v1/jobs answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    let status: { state: string; done: number; failed: number };
    for (;;) {
      status = (await (await fetch(`${base}/v1/jobs/${id}`)).json()) as typeof status;
      if (status.state === 'done') break;
      if (performance.now() - started > 15 * 60_000) throw new Error(`job not done after 15 min: ${JSON.stringify(status)}`);
      await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    const lines = (await (await fetch(`${base}/v1/jobs/${id}/results`)).text()).split('\n').filter((l) => l !== '');
    const seen = new Set(lines.map((l) => (JSON.parse(l) as { url: string }).url));
    const lost = urls.filter((u) => !seen.has(u)).length;
    return { urls: options.urls, seconds, pagesPerSecond: options.urls / seconds, done: status.done, failed: status.failed, lines: lines.length, distinctUrls: seen.size, lost };
  } catch (err) {
    process.stderr.write(`wrangler dev's last output:\n${stderr}\n`);
    throw err;
  } finally {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM'); // its own process group: wrangler and its workerd
      } catch {
        // already gone
      }
    }
    await sleep(1000);
    await pages.close();
    rmSync(state, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('bulk-job.ts')) {
  const { values } = parseArgs({ options: { urls: { type: 'string' }, port: { type: 'string' }, 'pages-port': { type: 'string' } } });
  runLocalJob({ urls: Number(values.urls ?? 1000), port: Number(values.port ?? 8797), pagesPort: Number(values['pages-port'] ?? 8798) }).then(
    (run) => {
      process.stdout.write(`${JSON.stringify(run)}\n`);
      if (run.lost > 0 || run.lines !== run.urls) process.exitCode = 1;
    },
    (err: unknown) => {
      process.stderr.write(`bulk-job: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
