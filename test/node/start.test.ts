// `npm start` as a user or a supervisor stops it: a SIGTERM to the PID of npm must stop the whole tree (npm, the
// shell it runs, scripts/start.js, wrangler's workerd and esbuild), not leave workerd serving. Linux: the process
// tree is read from /proc.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PIDs of every living descendant of `root`. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0) for (const c of children.get(todo.pop()!) ?? []) (out.push(c), todo.push(c));
  return out;
}

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('npm start', () => {
  it('stops the whole process tree, workerd included, on a SIGTERM to npm', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start', '--', '--port', String(port)], { cwd: ROOT, stdio: 'ignore' });
    const tree: number[] = [];
    try {
      const deadline = Date.now() + 150_000;
      while (!(await healthy(port))) {
        expect(Date.now() < deadline, 'npm start did not serve /health within 150 s').toBe(true);
        expect(npm.exitCode, 'npm start exited early').toBeNull();
        await sleep(500);
      }
      tree.push(...descendants(npm.pid!));
      expect(tree.length).toBeGreaterThanOrEqual(3); // sh, node scripts/start.js, workerd (and esbuild)
      npm.kill('SIGTERM');
      const stopBy = Date.now() + 20_000;
      while ((tree.some(alive) || (await healthy(port))) && Date.now() < stopBy) await sleep(250);
      expect(tree.filter(alive), 'processes still running after SIGTERM to npm').toEqual([]);
      expect(await healthy(port)).toBe(false);
    } finally {
      for (const pid of [npm.pid!, ...tree]) {
        try {
          if (alive(pid)) process.kill(pid, 'SIGKILL'); // only what this test started
        } catch {
          // already gone
        }
      }
    }
  }, 200_000);
});
