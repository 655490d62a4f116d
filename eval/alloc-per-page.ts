// What an extraction allocates, by function: V8's sampling heap profiler over a loop of `extractItem` (as a
// `pith batch` worker runs it), with the objects that garbage collection has already freed kept in the profile, so
// that it counts every byte allocated, not only what is still alive at the end. Garbage is what the young
// generation's collections cost (CHANGELOG.md).
//
//   node --max-semi-space-size=64 --single-threaded --import tsx eval/alloc-per-page.ts <dir> [--every 8] [--top 25]
//
// Prints the MB allocated per page, then the functions that allocate most (their own allocations, and the caller of
// built-ins such as String.prototype.split, which have no source of their own). Sampled every 16 KB, so the
// figures are estimates: a few per cent apart between runs.

import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { pageFilesOf } from '../src/hosts/node/batch.js';
import { extractItem } from '../src/hosts/node/batch-extract.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: ProfileNode[];
}

const frameName = (n: ProfileNode): string => {
  const f = n.callFrame;
  // (No line numbers: under tsx they are those of the transpiled module, not of the source.)
  const where = f.url === '' ? '' : ` ${f.url.replace(/^.*\/(src|node_modules)\//, '$1/').replace(/\?.*$/, '')}`;
  return `${f.functionName === '' ? '(anonymous)' : f.functionName}${where}`;
};

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { every: { type: 'string' }, top: { type: 'string' } } });
  if (positionals.length !== 1) throw new Error('usage: node --import tsx eval/alloc-per-page.ts <dir> [--every K] [--top N]');
  const every = Number(values.every ?? 8);
  const top = Number(values.top ?? 25);
  const files = pageFilesOf(positionals[0]).filter((_, i) => i % every === 0);
  if (files.length === 0) throw new Error(`no page files in ${positionals[0]}`);
  // The model loads on the first extraction, which is left out of the profile.
  const warm = await extractItem({ id: 'warm-up', path: files[0] }, undefined);
  if (warm.error !== undefined) throw new Error(`warm-up page ${files[0]}: ${warm.error}`);
  const session = new Session();
  session.connect();
  // (includeObjectsCollectedBy*: CDP parameters of V8's profiler that Node's type definitions do not list.)
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as object);
  for (const path of files) await extractItem({ id: path, path }, undefined);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
  session.disconnect();

  const bytes = new Map<string, number>();
  let total = 0;
  const walk = (n: ProfileNode, parent: ProfileNode | null): void => {
    total += n.selfSize;
    if (n.selfSize > 0) {
      // A built-in (no url) is charged to it and its caller: "split <- classWordsOf src/core/blocks/context.ts".
      const key = n.callFrame.url === '' && parent !== null ? `${frameName(n)} <- ${frameName(parent)}` : frameName(n);
      bytes.set(key, (bytes.get(key) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, n);
  };
  walk(profile.head, null);
  const perPage = (b: number): string => `${(b / files.length / 1024).toFixed(0)} KB/page`;
  process.stdout.write(`${files.length} pages, ${(total / files.length / 1048576).toFixed(2)} MB allocated per page\n`);
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top)) {
    process.stdout.write(`${((b / total) * 100).toFixed(1).padStart(5)}%  ${perPage(b).padStart(12)}  ${key}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`alloc-per-page: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
