// What `npm publish` would ship: the library, the CLI (and the files its processes and threads start from), the
// models and the license; no test-only files (the golden parity files are PyTorch outputs for the tests), no source
// maps, no dev tools.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('npm package contents', () => {
  it('ships dist, bin, models and LICENSE, and no golden files, maps, tests or dev tools', () => {
    expect(existsSync(join(ROOT, 'dist', 'src', 'hosts', 'node', 'lib.js')), 'dist/ is missing: run `npm run build` (npm install does)').toBe(true);
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
    const files = pack.files.map((f) => f.path);
    for (const needed of ['LICENSE', 'README.md', 'package.json', 'bin/pith.js', 'dist/src/hosts/node/lib.js', 'dist/src/hosts/node/cli.js', 'dist/src/hosts/node/batch-worker.js', 'dist/src/hosts/node/batch-duplicates-worker.js', 'models/pith.json', 'models/pith-unary.onnx', 'models/paper.json']) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter((f) => /golden|\.map$|^(test|eval|training|dev|scripts|src)\//.test(f));
    expect(unwanted).toEqual([]);
  });
});
