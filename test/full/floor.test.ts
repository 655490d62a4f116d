// The committed quality floor (eval/floor.json): the shipped models, scored on the full validation split with the
// benchmark's word-F1, must not fall below it. `npm run eval` prints the whole table; this test runs it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../../dev/corpus.js';
import { runBounded } from './bounded-run.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('quality floor', () => {
  it('pith and paper models score at least eval/floor.json on the validation split', async () => {
    dataDir(); // throws, saying where to get WCXB, when the corpus is missing
    const dir = mkdtempSync(join(tmpdir(), 'pith-eval-'));
    try {
      const run = await runBounded('eval', process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'eval', 'run-eval.ts'), '--results-dir', dir], {
        cwd: ROOT,
        timeoutMs: 840_000,
      });
      const floor = JSON.parse(readFileSync(join(ROOT, 'eval', 'floor.json'), 'utf8')) as { wordF1: Record<string, number> };
      expect(run.code, `npm run eval failed or scored below the floor:\n${run.stdout}\n${run.stderr}`).toBe(0);
      const result = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as { pages: number; systems: Array<{ key: string; summary: { f1: number } }> };
      expect(result.pages).toBeGreaterThan(250);
      for (const [set, min] of Object.entries(floor.wordF1)) {
        const row = result.systems.find((s) => s.key === set);
        expect(row, `no row ${set} in the eval result`).toBeDefined();
        expect(row!.summary.f1).toBeGreaterThanOrEqual(min);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});
