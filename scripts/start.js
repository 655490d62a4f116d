#!/usr/bin/env node
// npm start: run the pith Worker locally in workerd (wrangler's dev server), no Cloudflare account and no keys.
//
//   npm start                                        http://127.0.0.1:8787
//   npm start -- --port 8799 --var PITH_ALLOW_HOSTS:127.0.0.1
//   npm start -- --inspect [any wrangler dev flags]  plain `wrangler dev`, with Chrome DevTools (see below)
//
// By default the Worker runs through wrangler's programmatic API with the DevTools inspector off. Reason: `wrangler
// dev` always attaches an inspector and enables its Network domain, and workerd then decodes every subrequest
// body for DevTools itself; a corrupt gzip/br reply from a page makes that decoder throw
// `Fatal uncaught kj::Exception: kj/compat/gzip.c++:81 ... incorrect header check` and the whole process exits.
// Reproduced with workerd 1.20260426.1: bare `workerd serve` answers the same reply with a catchable TypeError
// until a DevTools client sends Network.enable, then it dies. Same crash as cloudflare/workers-sdk#3408 and
// cloudflare/workerd#1275. Deployed Workers run without an inspector; pith handles the reply there (502).
// Logs still show (workerd's structured logs); only DevTools is lost: `--inspect` brings it back, with that crash.
//
// Flags taken in the default mode: --port <n>, --ip <addr>, --var NAME:VALUE (repeatable), --persist-to <dir>.
// Any other flag, or --inspect, runs `wrangler dev` with every argument unchanged (plus --port 8787 and --ip
// 127.0.0.1 unless given). Telemetry, error reports and the banner are off so it runs offline.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};
Object.assign(process.env, env);

const args = process.argv.slice(2);

/**
 * Calls `stop` when this process loses its parent. `npm start` runs `sh -c "node scripts/start.js"`: a SIGTERM to
 * npm's PID ends npm and the shell without passing the signal on, and this process (with wrangler's workerd
 * children) would go on serving, re-parented to init. Polling the parent PID catches that, whatever killed it.
 */
function stopWithParent(stop) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) stop();
  }, 250);
  timer.unref();
}

/** The flags of the default mode, or null when an argument needs `wrangler dev` itself. */
function parseSafeArgs(list) {
  const out = { port: 8787, ip: '127.0.0.1', vars: {}, persistTo: undefined };
  for (let i = 0; i < list.length; i++) {
    const [flag, inline] = list[i].split(/=(.*)/s, 2);
    const value = () => inline ?? list[++i];
    if (flag === '--port') out.port = Number(value());
    else if (flag === '--ip') out.ip = value();
    else if (flag === '--persist-to') out.persistTo = value();
    else if (flag === '--var') {
      const pair = value() ?? '';
      const colon = pair.indexOf(':');
      if (colon < 1) {
        console.error(`--var takes NAME:VALUE, not "${pair}"`);
        process.exit(2);
      }
      out.vars[pair.slice(0, colon)] = pair.slice(colon + 1);
    } else return null;
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) {
    console.error('--port takes a port number (0-65535)');
    process.exit(2);
  }
  return out;
}

async function startWithoutInspector(options) {
  const { unstable_startWorker } = require('wrangler');
  const bindings = Object.fromEntries(Object.entries(options.vars).map(([name, value]) => [name, { type: 'plain_text', value }]));
  const worker = await unstable_startWorker({
    config: new URL('../wrangler.toml', import.meta.url).pathname,
    bindings,
    dev: {
      inspector: false,
      server: { hostname: options.ip, port: options.port },
      ...(options.persistTo === undefined ? {} : { persist: options.persistTo }),
    },
  });
  await worker.ready;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.dispose().catch(() => undefined);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
  stopWithParent(stop);
}

function startWranglerDev(list) {
  const has = (flag) => list.some((a) => a === flag || a.startsWith(`${flag}=`));
  const devArgs = ['dev', ...list.filter((a) => a !== '--inspect')];
  if (!has('--port')) devArgs.push('--port', '8787');
  if (!has('--ip')) devArgs.push('--ip', '127.0.0.1');
  if (!has('--show-interactive-dev-session') && !process.stdin.isTTY) devArgs.push('--show-interactive-dev-session=false');
  console.error('pith: running `wrangler dev` with its DevTools inspector: a corrupt gzip/br page reply crashes workerd in this mode (scripts/start.js says why)');
  const child = spawn(process.execPath, [require.resolve('wrangler/bin/wrangler.js'), ...devArgs], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  stopWithParent(() => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}

const safe = args.includes('--inspect') ? null : parseSafeArgs(args);
if (safe === null) startWranglerDev(args);
else await startWithoutInspector(safe);
