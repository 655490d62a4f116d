// The README is a manual (current figures only, no history), and the generated docs are current: docs/benchmarks.md
// and the README's results block equal what dev/benchmarks-doc.ts makes of eval/results/*.json now.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_DOC, README, README_END, README_START, REGENERATE_COMMAND, benchmarksDoc, readResults, readmeBlock } from '../../dev/benchmarks-doc.js';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { CASES_END, CASES_START, HOSTILE_DOC, hostileTables } from '../hostile/doc-table.js';

const ROOT = join(README, '..');
const readme = readFileSync(README, 'utf8');
const MAX_README_BYTES = 25_000;

/** Lines of a text that match a pattern, numbered, for a failure message that points at them. */
function linesMatching(text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .map((line, i) => [i + 1, line] as const)
    .filter(([, line]) => pattern.test(line))
    .map(([n, line]) => `README.md:${n}: ${line.trim().slice(0, 160)}`);
}

describe('README.md', () => {
  it(`is at most ${MAX_README_BYTES.toLocaleString('en-US')} bytes`, () => {
    expect(statSync(README).size).toBeLessThanOrEqual(MAX_README_BYTES);
  });

  it('holds no dates: history goes to CHANGELOG.md, measurements to docs/benchmarks.md', () => {
    expect(linesMatching(readme, /\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/)).toEqual([]);
  });

  it('refers to no issue or pull request numbers', () => {
    expect(linesMatching(readme, /\b(?:issues?|PR|pull request)\s*#?\d+|(?<!&)#\d+\b/i)).toEqual([]);
  });

  it(`has its results block, as \`${REGENERATE_COMMAND}\` writes it from eval/results/`, () => {
    const start = readme.indexOf(README_START);
    const end = readme.indexOf(README_END);
    expect(start, `README.md needs the line ${README_START}`).toBeGreaterThanOrEqual(0);
    expect(end, `README.md needs the line ${README_END} after the start marker`).toBeGreaterThan(start);
    const block = readme.slice(start, end + README_END.length);
    expect(block, `stale: run \`${REGENERATE_COMMAND}\``).toBe(readmeBlock(readResults()));
  });

  it('lists every limit of DEFAULT_LIMITS in its limits table', () => {
    const missing = Object.keys(DEFAULT_LIMITS).filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing, 'add a row for each to the Limits table of README.md').toEqual([]);
  });

  it('quotes only npm scripts that exist', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const quoted = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(quoted.length).toBeGreaterThan(0);
    expect(quoted.filter((name) => !(name in scripts))).toEqual([]);
  });

  it('links only to files that exist', () => {
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((m) => m[1].split('#')[0]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe('docs/benchmarks.md', () => {
  it(`equals what \`${REGENERATE_COMMAND}\` writes from eval/results/*.json`, () => {
    expect(existsSync(BENCHMARKS_DOC), `docs/benchmarks.md is missing: run \`${REGENERATE_COMMAND}\``).toBe(true);
    expect(readFileSync(BENCHMARKS_DOC, 'utf8'), `stale: run \`${REGENERATE_COMMAND}\` (never edit it by hand)`).toBe(benchmarksDoc(readResults()));
  });

  it('shows the baselines and the shipped model of every saved run', () => {
    const doc = readFileSync(BENCHMARKS_DOC, 'utf8');
    const results = readResults();
    for (const system of results.eval?.systems ?? []) expect(doc).toContain(system.label);
    if (results.bench) expect(doc).toContain('Readability.js on linkedom, whole call');
  });
});

describe('docs/hostile-input.md', () => {
  it('lists the hostile corpus as `npm run docs:hostile` writes it from test/hostile/', () => {
    const doc = readFileSync(HOSTILE_DOC, 'utf8');
    const start = doc.indexOf(CASES_START);
    const end = doc.indexOf(CASES_END);
    expect(start, `docs/hostile-input.md needs the line ${CASES_START}`).toBeGreaterThanOrEqual(0);
    expect(doc.slice(start, end + CASES_END.length), 'stale: run `npm run docs:hostile`').toBe(hostileTables());
  });
});

describe('docs/', () => {
  const files = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

  it('has the documents the README points to', () => {
    for (const f of ['architecture.md', 'design.md', 'training.md', 'hostile-input.md', 'bulk.md', 'benchmarks.md']) expect(files, f).toContain(`docs/${f}`);
  });

  it('links only to files that exist, from every document', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(((?!https?:|#|mailto:)[^)\s]+)\)/g)) {
        const target = m[1].split('#')[0];
        if (!existsSync(join(ROOT, dirname(file), target))) broken.push(`${file}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist (a file moved in the code moves in the docs)', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/`((?:src|dev|eval|training|test|scripts|models|docs)\/[\w./-]+)`/g)) {
        if (m[1].startsWith('eval/results/local/') || m[1].startsWith('training/data/')) continue; // written by runs and dumps, not tracked
        if (!existsSync(join(ROOT, m[1]))) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
