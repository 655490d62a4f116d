// The coordinating process of `pith batch` (src/cli.ts, src/batch.ts) starts its workers before it would have loaded
// the model's code: the modules it imports at start-up (its static imports, followed through src/) reach neither
// onnxruntime nor the extraction pipeline. `pith extract` loads them when it runs (a dynamic import).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/** Modules of src/ that `entry` loads at start-up: its static imports and theirs (type-only imports left out). */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'(\.[^']+)';/gm)) {
      visit(join(dirname(file), m[1].replace(/\.js$/, '.ts')));
    }
  };
  visit(join(SRC, entry));
  return new Set([...seen].map((f) => f.slice(SRC.length + 1)));
}

describe('the coordinating process of pith batch', () => {
  it('loads neither onnxruntime nor the pipeline at start-up', () => {
    const graph = staticGraph('cli.ts');
    expect(graph).toContain('batch.ts'); // the walk works: the pool is there
    expect(graph).toContain('bulk/warc.ts');
    for (const heavy of ['lib.ts', 'extract.ts', 'batch-extract.ts', 'model/onnx-classifier.ts', 'model/node-assets.ts', 'parse/page.ts']) {
      expect(graph, heavy).not.toContain(heavy);
    }
  });

  it('while a worker does', () => {
    const graph = staticGraph('batch-worker.ts');
    for (const module of ['batch-extract.ts', 'lib.ts', 'model/onnx-classifier.ts']) expect(graph, module).toContain(module);
  });
});
