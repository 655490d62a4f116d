// Re-record the known misses of the fixture pages for the shipped model, after a retrain:
//
//   npx tsx eval/refresh-known-misses.ts            prints what changes per page, writes nothing
//   npx tsx eval/refresh-known-misses.ts --write    rewrites test/fixtures/pages/*/expected.json
//
// A fixture's assertions (mustKeep, mustDrop, metadata) are the truth and never change here. What changes is the
// record of which of them the shipped model gets wrong (`knownMisses`, tied to its model version): a sentence the
// new model misses moves into knownMisses, one it now gets right moves back into the assertions. Read the printed
// diff before committing it: every line is a regression or a fix of the model on a real page.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { extract } from '../src/hosts/node/lib.js';
import { decodeHtml } from '../src/io/charset.js';
import { checkFixture, type ExpectedMetadata, type FixtureExpectation } from '../dev/fixture-check.js';
import { FIXTURES_DIR } from '../dev/fixtures.js';

const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });

for (const name of readdirSync(FIXTURES_DIR).sort()) {
  const path = join(FIXTURES_DIR, name, 'expected.json');
  let expected: FixtureExpectation;
  try {
    expected = JSON.parse(readFileSync(path, 'utf8')) as FixtureExpectation;
  } catch {
    continue;
  }
  const html = decodeHtml(readFileSync(join(FIXTURES_DIR, name, 'source.html')));
  const result = await extract(html, { url: expected.url });
  // Judge every assertion with no known misses on record: what does this model get wrong?
  const all: FixtureExpectation = {
    ...expected,
    mustKeep: [...expected.mustKeep, ...(expected.knownMisses?.mustKeep ?? [])],
    mustDrop: [...expected.mustDrop, ...(expected.knownMisses?.mustDrop ?? [])],
    knownMisses: undefined,
  };
  const verdict = checkFixture(all, result);
  const missKeep = new Set(verdict.missing);
  const missDrop = new Set(verdict.kept);
  const before = {
    keep: new Set(expected.knownMisses?.mustKeep ?? []),
    drop: new Set(expected.knownMisses?.mustDrop ?? []),
    meta: new Set(expected.knownMisses?.metadata ?? []),
  };
  const changes: string[] = [];
  for (const s of all.mustKeep) {
    if (missKeep.has(s) && !before.keep.has(s)) changes.push(`  now missed (keep): ${s}`);
    if (!missKeep.has(s) && before.keep.has(s)) changes.push(`  now fixed (keep): ${s}`);
  }
  for (const s of all.mustDrop) {
    if (missDrop.has(s) && !before.drop.has(s)) changes.push(`  now kept (drop): ${s}`);
    if (!missDrop.has(s) && before.drop.has(s)) changes.push(`  now fixed (drop): ${s}`);
  }
  const metaMisses = new Set<keyof ExpectedMetadata>(verdict.metadataMisses);
  for (const f of metaMisses) if (!before.meta.has(f)) changes.push(`  now missed (metadata): ${f}`);
  for (const f of before.meta) if (!metaMisses.has(f)) changes.push(`  now fixed (metadata): ${f}`);
  const next: FixtureExpectation = {
    ...expected,
    mustKeep: all.mustKeep.filter((s) => !missKeep.has(s)),
    mustDrop: all.mustDrop.filter((s) => !missDrop.has(s)),
  };
  if (missKeep.size + missDrop.size + metaMisses.size > 0 || expected.knownMisses) {
    next.knownMisses = {
      model: result.modelVersion,
      mustKeep: all.mustKeep.filter((s) => missKeep.has(s)),
      mustDrop: all.mustDrop.filter((s) => missDrop.has(s)),
      ...(metaMisses.size > 0 ? { metadata: [...metaMisses] } : {}),
    };
  }
  process.stdout.write(`${name}: ${changes.length === 0 ? 'no change' : `${changes.length} change(s)`}\n${changes.map((c) => c + '\n').join('')}`);
  if (values.write) writeFileSync(path, JSON.stringify(next, null, 2) + '\n');
}
if (!values.write) process.stdout.write('(dry run: pass --write to rewrite the expected.json files)\n');
