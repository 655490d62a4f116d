// `pith` as a user runs it, for the tests of its commands: a child process over the TypeScript source (tsx), so that
// no build is needed. Resolves with the exit code and both outputs; never rejects.

import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function pith(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/hosts/node/cli.ts', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) =>
      ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}
