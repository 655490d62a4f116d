// Output-identity check for performance work: records, for the first N validation + training pages, the block
// texts, both raw feature sets, the labels, the metadata and the text/markdown of extract(); then compares a later
// run with the record bit for bit.
//
//   npx tsx eval/check-identical.ts record <file.json> [--limit 200]
//   npx tsx eval/check-identical.ts check  <file.json>
//
// Any difference in a feature value is a bug: the trained models depend on the exact values.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { extract } from '../src/hosts/node/lib.js';
import { computeFeatures } from '../src/core/features/features.js';
import { parsePage } from '../src/core/blocks/page.js';
import { loadPage } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';

interface PageRecord {
  id: string;
  digest: Record2;
}
type Record2 = { [k: string]: string };

const hash = (x: string | Uint8Array): string => createHash('sha256').update(x).digest('hex').slice(0, 24);
const bytesOf = (a: Float32Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

async function digestPage(html: string, url: string | undefined): Promise<Record2> {
  const page = parsePage(html, { url });
  const out: Record2 = {};
  out.blocks = hash(JSON.stringify(page.blocks.map((b) => [b.text, b.tags, b.depth])));
  out.title = String(page.title);
  for (const set of ['pith', 'paper'] as const) {
    const f = computeFeatures(page, set);
    out[`${set}.unary`] = hash(bytesOf(f.unary));
    out[`${set}.edge`] = hash(bytesOf(f.edge));
  }
  for (const featureSet of ['pith', 'paper'] as const) {
    const x = await extract(html, { url, featureSet, format: 'json' });
    out[`${featureSet}.labels`] = x.blocks.map((b) => b.label).join('');
    out[`${featureSet}.probs`] = hash(bytesOf(Float32Array.from(x.blocks.map((b) => b.probability))));
    out[`${featureSet}.text`] = hash(x.text);
    out[`${featureSet}.markdown`] = hash(x.markdown ?? '');
    out[`${featureSet}.html`] = hash(x.html ?? '');
    out[`${featureSet}.meta`] = hash(JSON.stringify([x.title, x.metadata, x.wordCount, x.truncated]));
  }
  return out;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { limit: { type: 'string', default: '200' } } });
  const [mode, file] = positionals;
  const limit = Number(values.limit);
  if ((mode !== 'record' && mode !== 'check') || !file || !Number.isInteger(limit) || limit < 1) {
    process.stderr.write('usage: tsx eval/check-identical.ts record|check <file.json> [--limit N]\n');
    process.exit(2);
  }
  const splits = readSplits();
  const ids = [...splits.val.slice(0, Math.ceil(limit / 2)), ...splits.train.slice(0, Math.floor(limit / 2))];
  if (mode === 'record') {
    const rec: PageRecord[] = [];
    for (const id of ids) {
      const p = loadPage(id);
      rec.push({ id, digest: await digestPage(p.html, p.url) });
    }
    writeFileSync(file, JSON.stringify(rec));
    process.stdout.write(`recorded ${rec.length} pages to ${file}\n`);
    return;
  }
  const rec = JSON.parse(readFileSync(file, 'utf8')) as PageRecord[];
  let bad = 0;
  for (const r of rec) {
    const p = loadPage(r.id);
    const d = await digestPage(p.html, p.url);
    for (const k of Object.keys(r.digest)) {
      if (r.digest[k] !== d[k]) {
        bad++;
        process.stdout.write(`DIFF ${r.id} ${k}\n`);
      }
    }
  }
  process.stdout.write(bad === 0 ? `identical: ${rec.length} pages\n` : `${bad} differences\n`);
  process.exitCode = bad === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  process.stderr.write(String((e as Error).stack ?? e) + '\n');
  process.exitCode = 1;
});
