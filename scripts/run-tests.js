#!/usr/bin/env node
// npm test and npm run test:all. Every step runs even when an earlier one failed (a broken Node test must not
// hide the workerd results), then the exit code is non-zero when any step failed.
//
//   npm test             type-checks, Node tests, workerd tests: needs only Node 20 and `npm install`
//   npm run test:all     the same, then test/full/: the PyTorch training smoke run, the debug view in Chromium and
//                        the quality floor on the WCXB corpus (what each needs: README, "Tests")

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

const all = process.argv.includes('--all');
const steps = [
  ['typecheck (src, tests, tools)', [tsc, '-p', 'tsconfig.json']],
  ['typecheck (Worker)', [tsc, '-p', 'tsconfig.worker.json']],
  ['Node tests', [vitest, 'run', '--project', 'node']],
  ['workerd tests', [vitest, 'run', '--project', 'workers']],
];
if (all) steps.push(['full tests (PyTorch, Chromium, WCXB corpus)', [vitest, 'run', '--project', 'full']]);

const results = [];
for (const [name, args] of steps) {
  process.stdout.write(`\n== ${name}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  const code = run.status ?? 1;
  results.push({ name, ok: code === 0, detail: run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : `exit ${code}`, seconds: (Date.now() - started) / 1000 });
}

const failed = results.filter((r) => !r.ok);
process.stdout.write(`\n${all ? 'npm run test:all' : 'npm test'}:\n`);
for (const r of results) process.stdout.write(`  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.name} (${r.seconds.toFixed(0)} s${r.ok ? '' : `, ${r.detail}`})\n`);
const total = results.reduce((s, r) => s + r.seconds, 0);
process.stdout.write(`  ${failed.length === 0 ? 'all passed' : `${failed.length} of ${results.length} steps failed`} in ${(total / 60).toFixed(1)} min\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
