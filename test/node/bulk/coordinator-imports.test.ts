// The coordinating process of `pith batch` (src/hosts/node/cli.ts, src/hosts/node/batch.ts) starts its workers before it would have loaded
// the model's code: the modules it imports at start-up (its static imports, followed through src/, read with
// dev/layering.ts) reach neither onnxruntime nor the extraction pipeline. `pith extract` loads them when it runs (a
// dynamic import).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readImportGraph } from '../../../dev/layering.js';

const graph = readImportGraph(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), { loadedAtStart: true });

/** Modules of src/ that `entry` loads when it starts: its imports that load at start, and theirs. */
function loadedAtStart(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of graph.get(file) ?? []) visit(dep);
  };
  visit(`src/${entry}`);
  return new Set([...seen].map((f) => f.slice('src/'.length)));
}

describe('the coordinating process of pith batch', () => {
  it('loads neither onnxruntime nor the pipeline at start-up', () => {
    const modules = loadedAtStart('hosts/node/cli.ts');
    expect(modules).toContain('hosts/node/batch.ts'); // the walk works: the pool is there
    expect(modules).toContain('io/warc.ts');
    for (const heavy of ['hosts/node/lib.ts', 'core/extract.ts', 'hosts/node/batch-extract.ts', 'hosts/node/batch-prime.ts', 'core/model/onnx-classifier.ts', 'hosts/node/model-assets.ts', 'core/blocks/page.ts']) {
      expect(modules, heavy).not.toContain(heavy);
    }
  });

  it('while a worker does', () => {
    const modules = loadedAtStart('hosts/node/batch-worker.ts');
    for (const module of ['hosts/node/batch-extract.ts', 'hosts/node/batch-prime.ts', 'hosts/node/lib.ts', 'core/model/onnx-classifier.ts']) expect(modules, module).toContain(module);
  });
});
