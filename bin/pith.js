#!/usr/bin/env node
// The `pith` command: a shim over the compiled CLI (dist/ is built by `npm run build`, which `npm install` runs).
let cli;
try {
  cli = await import('../dist/src/hosts/node/cli.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    process.stderr.write('pith: dist/ is missing or incomplete: run `npm run build` in the pith folder\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await cli.main(process.argv.slice(2));
