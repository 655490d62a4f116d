// The training code cannot rot: dump a few pages with the TypeScript features, train a few steps with PyTorch,
// export to ONNX and check PyTorch-vs-onnxruntime-web parity (training/smoke.sh).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../../dev/corpus.js';
import { runBounded } from './bounded-run.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Debian's Python with PyTorch; PITH_PYTHON points elsewhere (training/smoke.sh reads it too). */
const PYTHON = process.env.PITH_PYTHON ?? '/usr/bin/python3';

describe('training smoke run', () => {
  it('dumps, trains, exports and passes the parity check', async () => {
    dataDir(); // the smoke run dumps 30 pages of the corpus: throws, saying where to get WCXB, when it is missing
    const probe = await runBounded('python probe', PYTHON, ['-c', 'import torch, onnx, numpy'], { cwd: ROOT, timeoutMs: 120_000 }).catch(
      (err: Error) => ({ code: null, stderr: err.message }),
    );
    if (probe.code !== 0) {
      throw new Error(
        `${PYTHON} cannot import torch, onnx and numpy: install them with ` +
          '`apt-get update && apt-get install -y python3-torch python3-onnx python3-numpy` (.ci/run does), or set PITH_PYTHON\n' +
          (probe.stderr ?? ''),
      );
    }
    const run = await runBounded('smoke', 'bash', [join(ROOT, 'training', 'smoke.sh')], { cwd: ROOT, timeoutMs: 540_000 });
    expect(run.code, `training/smoke.sh failed:\n${(run.stdout + run.stderr).slice(-6000)}`).toBe(0);
    expect(run.stdout).toMatch(/training smoke test ok in \d+s/);
  }, 600_000);
});
