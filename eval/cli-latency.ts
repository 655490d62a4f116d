// How long `pith extract` on one page takes as a whole process: when its text reaches stdout and when the process
// has ended, against the same extraction through the library in a fresh `node` with V8's default flags (what `pith
// extract` did before it set WASM_TIERING_V8_FLAG, src/hosts/node/batch.ts). The two alternate, so that both see the same machine;
// medians of the runs.
//
//   npm run bench:cli -- [<page.html>] [--runs 7]      (build first: npm run build)
//
// Without a page, the first WCXB dev page (../shared/data/wcxb-dev, or PITH_DATA_DIR).

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { pageFilesOf } from '../src/hosts/node/batch.js';
import { gunzipIfNeeded, htmlOf } from '../src/hosts/node/html-bytes.js';
import { dataDir } from '../dev/corpus.js';
import { median } from '../dev/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Timing {
  outputMs: number;
  exitMs: number;
}

/** Runs `node <args>`; the time of its first byte on stdout and of its end, from the spawn. */
function timed(args: string[]): Promise<Timing> {
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    let outputMs = -1;
    let bytes = 0;
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d: Buffer) => {
      if (outputMs < 0) outputMs = performance.now() - t0;
      bytes += d.length;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const exitMs = performance.now() - t0;
      if (code !== 0 || bytes === 0) fail(new Error(`node ${args.join(' ')} ended with code ${code} and ${bytes} bytes of output`));
      else ok({ outputMs, exitMs });
    });
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string' } } });
  const runs = Number(values.runs ?? 7);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  if (!existsSync(join(ROOT, 'dist', 'src', 'hosts', 'node', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const scratch = mkdtempSync(join(tmpdir(), 'pith-cli-latency-'));
  try {
    let page = positionals[0];
    if (page === undefined) {
      const first = pageFilesOf(join(dataDir(), 'html'))[0];
      page = join(scratch, 'page.html');
      writeFileSync(page, htmlOf(await gunzipIfNeeded(readFileSync(first), first), first));
    }
    const lib = pathToFileURL(join(ROOT, 'dist', 'src', 'hosts', 'node', 'lib.js')).href;
    const script = join(scratch, 'library.mjs');
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';\nconst { extract } = await import(${JSON.stringify(lib)});\n` +
        `process.stdout.write((await extract(readFileSync(process.argv[2], 'utf8'))).text + '\\n');\n`,
    );
    const rows: Array<{ name: string; args: string[]; timings: Timing[] }> = [
      { name: '`node bin/pith.js extract <page>`', args: [join(ROOT, 'bin', 'pith.js'), 'extract', page], timings: [] },
      { name: "the library's extract() in a fresh node, V8's default flags", args: [script, page], timings: [] },
    ];
    for (let r = 0; r < runs; r++) {
      for (const row of r % 2 === 0 ? rows : [...rows].reverse()) row.timings.push(await timed(row.args));
    }
    console.log(`one page (${page}), ${runs} runs each, alternating; medians (range)\n`);
    console.log('| process | text on stdout, ms | ended, ms |');
    console.log('| --- | ---: | ---: |');
    const cell = (xs: number[]): string => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
    for (const row of rows) {
      console.log(`| ${row.name} | ${cell(row.timings.map((t) => t.outputMs))} | ${cell(row.timings.map((t) => t.exitMs))} |`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
