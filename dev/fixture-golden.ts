// Full-output golden files of the fixture pages (test/fixtures/pages/<site>-<slug>/): expected.md, the markdown
// output, and expected-result.json, the JSON output without its timings and with its keys sorted. A refactor that
// changes any output byte fails test/node/fixture-golden.test.ts; a change meant to alter output regenerates them:
//
//   npm run golden:fixtures                 every fixture page
//   npm run golden:fixtures -- <name>...    only these folders

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from '../src/hosts/node/lib.js';
import { decodeHtml } from '../src/io/charset.js';
import type { FixtureExpectation } from './fixture-check.js';
import { FIXTURES_DIR } from './fixtures.js';

export { describeDifference } from './text-diff.js';

export const GOLDEN_MARKDOWN = 'expected.md';
export const GOLDEN_JSON = 'expected-result.json';
export const REGENERATE_COMMAND = 'npm run golden:fixtures';

/** Folders of test/fixtures/pages/ that hold a fixture page (source.html and expected.json), sorted. */
export function fixturePageNames(dir = FIXTURES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'source.html')) && existsSync(join(dir, d.name, 'expected.json')))
    .map((d) => d.name)
    .sort();
}

/** JSON with every object's keys sorted, two-space indented, one value per line, ending in a newline. */
export function stableJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) out[key] = sortKeys((v as Record<string, unknown>)[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}

export interface GoldenOutputs {
  markdown: string;
  json: string;
}

/** Extracts a fixture page with extract(..., { url: <its url>, format: 'json' }) and returns both outputs (the Extraction, not the presenter's JSON). */
export async function goldenOutputsOf(name: string, dir = FIXTURES_DIR): Promise<GoldenOutputs> {
  const expected = JSON.parse(readFileSync(join(dir, name, 'expected.json'), 'utf8')) as FixtureExpectation;
  const html = decodeHtml(readFileSync(join(dir, name, 'source.html')));
  const result = await extract(html, { url: expected.url || undefined, format: 'json' });
  const { timings: _timings, ...rest } = result; // the only field that changes from run to run
  const markdown = result.markdown ?? '';
  return { markdown: markdown.endsWith('\n') || markdown === '' ? markdown : markdown + '\n', json: stableJson(rest) };
}

/** The golden files of a fixture page as stored, or null for a file not written yet. */
export function storedGolden(name: string, dir = FIXTURES_DIR): { markdown: string | null; json: string | null } {
  const read = (file: string): string | null => (existsSync(join(dir, name, file)) ? readFileSync(join(dir, name, file), 'utf8') : null);
  return { markdown: read(GOLDEN_MARKDOWN), json: read(GOLDEN_JSON) };
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = fixturePageNames();
  for (const name of wanted) if (!names.includes(name)) throw new Error(`${name} is not a fixture page folder of ${FIXTURES_DIR}`);
  for (const name of wanted.length > 0 ? wanted : names) {
    const outputs = await goldenOutputsOf(name);
    const stored = storedGolden(name);
    writeFileSync(join(FIXTURES_DIR, name, GOLDEN_MARKDOWN), outputs.markdown);
    writeFileSync(join(FIXTURES_DIR, name, GOLDEN_JSON), outputs.json);
    const changed = stored.markdown !== outputs.markdown || stored.json !== outputs.json;
    process.stdout.write(`${changed ? 'wrote    ' : 'unchanged'} ${name}\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    process.stderr.write(`golden:fixtures: ${(err as Error).message}\n`);
    process.exitCode = 1;
  });
}
