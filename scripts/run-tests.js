#!/usr/bin/env node
// npm test and npm run test:all. Every step runs even when an earlier one failed (a broken Node test must not
// hide the workerd results), then the exit code is non-zero when any step failed.
//
//   npm test             type-checks, Node tests, workerd tests: needs only Node 20 and `npm install`
//   npm run test:all     the same, then test/full/: the PyTorch training smoke run, the debug view in Chromium and
//                        the quality floor on the WCXB corpus (what each needs: README, "Tests")

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

const all = process.argv.includes('--all');
// Each step has a deadline, about 10x what it takes on a quiet 2-core machine (README, Tests): a step that hangs is
// killed with everything it started and reported, so the run always ends, and says where it stuck, well inside CI's
// 90 minutes. PITH_STEP_MINUTES overrides every deadline.
const steps = [
  ['typecheck (src, tests, tools)', [tsc, '-p', 'tsconfig.json'], 5],
  ['typecheck (Worker)', [tsc, '-p', 'tsconfig.worker.json'], 5],
  ['Node tests', [vitest, 'run', '--project', 'node'], 20],
  ['workerd tests', [vitest, 'run', '--project', 'workers'], 20],
];
if (all) steps.push(['full tests (PyTorch, Chromium, WCXB corpus)', [vitest, 'run', '--project', 'full'], 25]);
const override = Number(process.env.PITH_STEP_MINUTES);

/** Runs one step in its own process group; past the deadline the whole group (vitest, workerd, python) is killed. */
function runStep(args, minutes) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: process.env, detached: true });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stdout.write(`\n!! still running after ${minutes} min: killing the step and everything it started\n`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, minutes * 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve(err.message);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // whatever the step left running (a workerd, a browser, a python) must not slow the next step down
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* nothing left */
      }
      resolve(timedOut ? `killed after ${minutes} min` : signal ? `killed by ${signal}` : code === 0 ? null : `exit ${code}`);
    });
  });
}

// The step's group is not the terminal's, so Ctrl-C and CI's own kill are passed on to it.
let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    try {
      if (current) process.kill(-current.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    process.exit(130);
  });
}

const results = [];
for (const [name, args, minutes] of steps) {
  const limit = override > 0 ? override : minutes;
  process.stdout.write(`\n== ${name} (started ${new Date().toISOString().slice(11, 19)} UTC, deadline ${limit} min)\n`);
  const started = Date.now();
  const failure = await runStep(args, limit);
  results.push({ name, ok: failure === null, detail: failure, seconds: (Date.now() - started) / 1000 });
}

const failed = results.filter((r) => !r.ok);
process.stdout.write(`\n${all ? 'npm run test:all' : 'npm test'}:\n`);
for (const r of results) process.stdout.write(`  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.name} (${r.seconds.toFixed(0)} s${r.ok ? '' : `, ${r.detail}`})\n`);
const total = results.reduce((s, r) => s + r.seconds, 0);
process.stdout.write(`  ${failed.length === 0 ? 'all passed' : `${failed.length} of ${results.length} steps failed`} in ${(total / 60).toFixed(1)} min\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
