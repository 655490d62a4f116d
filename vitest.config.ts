import { defineConfig } from 'vitest/config';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';

export default defineConfig({
  test: {
    // A teardown that does not end (a child process holding a handle) fails the run instead of hanging it.
    teardownTimeout: 30_000,
    // The Worker logs every failed fetch as one JSON line (src/io/fetch-errors.ts); the workerd tests fail fetches
    // on purpose and check those lines where they mean to (test/workers/server/fetch-errors.test.ts).
    onConsoleLog: (log) => !log.includes('"event":"fetch_failed"'),
    projects: [
      {
        // `npm test`: needs Node and `npm install` only.
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        // `npm run test:all` only: suites that need Debian's PyTorch, Chromium or the WCXB corpus (README, Tests).
        test: {
          name: 'full',
          include: ['test/full/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // These suites drive whole programs (Chromium, the eval, python): one file at a time, each in a worker
          // thread, which vitest can always end, whatever a suite's child processes leave open.
          pool: 'threads',
          fileParallelism: false,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // Tests fetch real pages from the page server on 127.0.0.1 (test/workers/global-setup.ts).
              bindings: { PITH_ALLOW_HOSTS: '127.0.0.1' },
              // A real rate-limiting binding for the access tests; the app reads PITH_RATE_LIMITER, which the
              // tests point at this one only where they mean to.
              ratelimits: { TEST_RATE_LIMITER: { simple: { limit: 3, period: 60 } } },
            },
          }),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          globalSetup: ['test/workers/global-setup.ts', 'test/workers/jobs/setup.ts', 'test/workers/quiet-runtime.ts'],
          testTimeout: 60_000,
          // One workerd for all test files instead of one per file: onnxruntime's 14 MB wasm is compiled once, not
          // once per file (the suite went from 575 s to 187 s on a loaded 2-core machine). Tests use unique ids for
          // cache keys and counters, so they do not depend on a fresh runtime.
          isolate: false,
        },
      },
    ],
  },
});
