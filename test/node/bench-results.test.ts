// `npm run bench` (and `npm run eval`) must not rewrite the tracked results in eval/results/ unless asked with
// --save: an ordinary run writes to eval/results/local/, which git ignores.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = join(ROOT, 'eval', 'results');

function trackedResults(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(RESULTS)) {
    const path = join(RESULTS, f);
    if (statSync(path).isFile()) out[f] = readFileSync(path, 'utf8');
  }
  return out;
}

describe('bench results', () => {
  it('a run without --save leaves eval/results/ alone and writes eval/results/local/', () => {
    const before = trackedResults();
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'eval', 'bench.ts'), '--dir', join(ROOT, 'test', 'fixtures', 'server'), '--limit', '2', '--rounds', '1', '--warmup', '1'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(trackedResults()).toEqual(before);
    const local = join(RESULTS, 'local', 'bench-dir.json');
    expect(existsSync(local)).toBe(true);
    expect(statSync(local).mtimeMs).toBeGreaterThanOrEqual(started - 1000);
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8')).toMatch(/^eval\/results\/local\/$/m);
  });
});
