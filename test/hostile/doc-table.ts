// The case tables of docs/hostile-input.md, written from the corpus itself (cases.ts, files.ts) so that the doc lists
// exactly the cases the runners run, with the outcome each must give. No timings: the corpus's budgets are guards
// against hangs, not measurements.
//
//   npm run docs:hostile        rewrite the tables between the markers of docs/hostile-input.md
//
// test/node/docs.test.ts fails when the doc's tables differ from what this makes of the corpus now.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES, expectedOutcomes, type HostileCase } from './cases.js';
import { FILE_CASES } from './files.js';

export const HOSTILE_DOC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'docs', 'hostile-input.md');
export const CASES_START = '<!-- hostile-cases:start: written by `npm run docs:hostile` from test/hostile/cases.ts and files.ts; do not edit -->';
export const CASES_END = '<!-- hostile-cases:end -->';

const cell = (s: string): string => s.replaceAll('|', '\\|');
const outcome = (list: readonly string[]): string => list.map((o) => (o === 'ok' ? 'ok' : `\`${o}\``)).join(' or ');

const KIND_TITLES: Readonly<Record<HostileCase['input']['kind'], string>> = {
  upstream: 'Upstreams: replies that lie, break, stall or bomb (the Worker fetches them from a raw socket server)',
  html: 'Pages: markup that makes parsing costly (the library runs `extract()`; the Worker gets it as a POST)',
  request: 'Requests: hostile POST bodies and job requests, sent to the Worker as they are',
};

export function hostileTables(): string {
  const parts: string[] = [CASES_START];
  for (const kind of ['upstream', 'html', 'request'] as const) {
    const cases = CASES.filter((c) => c.input.kind === kind);
    if (cases.length === 0) continue;
    parts.push('', `**${KIND_TITLES[kind]}**, ${cases.length} cases:`, '');
    const header = kind === 'html' ? '| case | input | library | Worker |\n| --- | --- | --- | --- |' : '| case | input | Worker |\n| --- | --- | --- |';
    parts.push(header);
    for (const c of cases) {
      const worker = outcome(expectedOutcomes(c, 'worker'));
      parts.push(kind === 'html' ? `| ${c.name} | ${cell(c.about)} | ${outcome(expectedOutcomes(c, 'library'))} | ${worker} |` : `| ${c.name} | ${cell(c.about)} | ${worker} |`);
    }
  }
  parts.push('', `**Files for the command line** (\`test/hostile/files.ts\`), ${FILE_CASES.length} cases:`, '', '| case | command | input | exit code |', '| --- | --- | --- | --- |');
  for (const c of FILE_CASES) {
    const command = c.command === 'duplicates' ? '`pith duplicates <file>`' : '`pith batch ... --out <file> --resume`';
    parts.push(`| ${c.name} | ${command} | ${cell(c.about)} | ${c.exit} |`);
  }
  parts.push(CASES_END);
  return parts.join('\n');
}

/** The doc with its tables replaced; throws when the markers are missing. */
export function docWithTables(doc: string, tables: string): string {
  const start = doc.indexOf(CASES_START);
  const end = doc.indexOf(CASES_END);
  if (start < 0 || end < start) throw new Error(`docs/hostile-input.md has no case tables: put the lines\n${CASES_START}\n${CASES_END}\nwhere they go`);
  return doc.slice(0, start) + tables + doc.slice(end + CASES_END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const doc = readFileSync(HOSTILE_DOC, 'utf8');
  const next = docWithTables(doc, hostileTables());
  if (next !== doc) writeFileSync(HOSTILE_DOC, next);
  process.stdout.write(next === doc ? 'docs:hostile: docs/hostile-input.md is current\n' : 'docs:hostile: wrote docs/hostile-input.md\n');
}
