// The hostile corpus of the command line's file inputs (test/hostile/files.ts): each file through `pith duplicates`
// or `pith batch --resume` as a user runs them (child processes over the TypeScript source), with the exit code and
// message the case expects, within its budget, and never a stack trace.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueArticle } from '../../dev/bulk-pages.js';
import { FILE_CASES } from '../hostile/files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function pith(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) =>
      ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

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
