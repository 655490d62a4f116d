// Readability.js on linkedom over a folder of .html / .html.gz pages, one JSON line per page: the peer of
// `pith batch --jobs 1` in `npm run bench:bulk` (same files, same reading and decoding, one thread).
//
//   npx tsx eval/readability-batch.ts <dir> --out <file.jsonl>

import { createWriteStream } from 'node:fs';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pageFilesOf, pageIdOf } from '../src/hosts/node/batch.js';
import { gunzipIfNeeded } from '../src/hosts/node/html-bytes.js';
import { decodeHtml } from '../src/io/charset.js';
import { readabilityExtract } from './readability.js';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } });
  if (positionals.length !== 1 || values.out === undefined) throw new Error('usage: npx tsx eval/readability-batch.ts <dir> --out <file.jsonl>');
  const out = createWriteStream(values.out);
  for (const path of pageFilesOf(positionals[0])) {
    const t0 = performance.now();
    const result = readabilityExtract(decodeHtml(await gunzipIfNeeded(readFileSync(path), path)));
    const line = JSON.stringify({ id: pageIdOf(path), text: result.text, ms: Math.round((performance.now() - t0) * 100) / 100, ...(result.error ? { error: result.error } : {}) });
    if (!out.write(line + '\n')) await new Promise<void>((ok) => out.once('drain', () => ok()));
  }
  await new Promise<void>((ok) => out.end(ok));
}

main().catch((err: unknown) => {
  process.stderr.write(`readability-batch: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
