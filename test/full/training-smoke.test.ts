// The training code cannot rot: dump a few pages with the TypeScript features, train a few steps with PyTorch,
// export to ONNX and check PyTorch-vs-onnxruntime-web parity (training/smoke.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../../dev/corpus.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Debian's Python with PyTorch; PITH_PYTHON points elsewhere (training/smoke.sh reads it too). */
const PYTHON = process.env.PITH_PYTHON ?? '/usr/bin/python3';

describe('training smoke run', () => {
  it('dumps, trains, exports and passes the parity check', () => {
    dataDir(); // the smoke run dumps 30 pages of the corpus: throws, saying where to get WCXB, when it is missing
    const probe = spawnSync(PYTHON, ['-c', 'import torch, onnx, numpy'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      throw new Error(
        `${PYTHON} cannot import torch, onnx and numpy: install them with ` +
          '`apt-get update && apt-get install -y python3-torch python3-onnx python3-numpy` (.ci/run does), or set PITH_PYTHON\n' +
          (probe.stderr ?? ''),
      );
    }
    const out = execFileSync('bash', [join(ROOT, 'training', 'smoke.sh')], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toMatch(/training smoke test ok in \d+s/);
  }, 600_000);
});
