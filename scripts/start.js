#!/usr/bin/env node
// npm start: run the pith Worker locally with `wrangler dev` (workerd), no Cloudflare account and no keys.
//
//   npm start                                        http://127.0.0.1:8787
//   npm start -- --port 8799 --var PITH_ALLOW_HOSTS:127.0.0.1
//
// Every argument after `--` goes to `wrangler dev` unchanged. pith adds `--port 8787` and `--ip 127.0.0.1`
// unless you give your own, and switches off wrangler's telemetry, error reports and banner so it runs offline.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const wranglerBin = require.resolve('wrangler/bin/wrangler.js');

const args = process.argv.slice(2);
const has = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
const devArgs = ['dev', ...args];
if (!has('--port')) devArgs.push('--port', '8787');
if (!has('--ip')) devArgs.push('--ip', '127.0.0.1');
if (!has('--show-interactive-dev-session') && !process.stdin.isTTY) devArgs.push('--show-interactive-dev-session=false');

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};

const child = spawn(process.execPath, [wranglerBin, ...devArgs], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === null ? 1 : 128));
});
