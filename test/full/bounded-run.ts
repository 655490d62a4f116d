// A child process with a deadline, for the suites of test/full/ that run whole programs (the eval, the training
// smoke run). A blocking spawnSync would keep vitest's own time-out from ever firing, so a hung child would hang the
// run until CI gave up, saying nothing; here the child runs in its own process group, its stderr goes to the log as
// it comes (where a hang shows), and past the deadline the whole group is killed and the test fails with the tail.
import { spawn } from 'node:child_process';

export interface BoundedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

export function runBounded(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<BoundedRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
      process.stderr.write(s.replace(/^(?=.)/gm, `[${name}] `));
    });
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      const tail = (stdout + stderr).slice(-4000);
      reject(new Error(`${name} did not finish within ${options.timeoutMs / 1000} s and was killed; last output:\n${tail}`));
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${name} could not start (${command}): ${err.message}`));
    });
    // The result is the child's exit. Anything it left behind in its group (a grandchild that still holds the pipes
    // would otherwise keep 'close' from ever coming) gets a moment to flush, then is killed.
    let settled = false;
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 });
    };
    child.on('exit', (code) => setTimeout(() => finish(code), 2_000));
    child.on('close', (code) => finish(code));
  });
}
