// The hostile corpus of the command line's file inputs (test/hostile/files.ts): each file through `pith duplicates`
// or `pith batch --resume` as a user runs them (child processes over the TypeScript source), with the exit code and
// message the case expects, within its budget, and never a stack trace.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pith } from './pith-cli.js';
import { uniqueArticle } from '../../dev/bulk-pages.js';
import { FILE_CASES } from '../hostile/files.js';


let dir: string;
let pages: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pith-hostile-files-'));
  pages = join(dir, 'pages');
  mkdirSync(pages);
  for (let i = 0; i < 3; i++) writeFileSync(join(pages, `p${i}.html`), uniqueArticle(i));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile files for the command line', () => {
  for (const c of FILE_CASES) {
    it(`${c.name}: pith ${c.command === 'duplicates' ? 'duplicates' : 'batch --resume'} exits ${c.exit} within ${c.budgetMs} ms`, async () => {
      const path = join(dir, c.file);
      c.write(path);
      const started = performance.now();
      const r = await pith(c.command === 'duplicates' ? ['duplicates', path, '--jobs', '1'] : ['batch', pages, '--out', path, '--resume', '--jobs', '1']);
      const elapsedMs = performance.now() - started;
      expect(r.code, r.stderr.slice(-2000)).toBe(c.exit);
      expect(r.stderr).toMatch(c.stderr);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(elapsedMs, `${c.name} took ${Math.round(elapsedMs)} ms`).toBeLessThan(c.budgetMs);
      if (c.command === 'resume' && c.exit === 0) {
        // Continued from nothing usable: the three pages, each once.
        const bytes = readFileSync(path);
        const text = (c.file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
        expect(text.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['p0', 'p1', 'p2']);
      }
      rmSync(path, { force: true });
    }, 240_000);
  }
});
