// The layering of the repository (dev/layering.ts): one-way imports between the top-level folders and between
// the layers of src/, and no import cycle anywhere.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportGraph, importCycles, layerViolations, readImportGraph } from '../../../dev/layering.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('layering of the repository', () => {
  const graph = readImportGraph(ROOT);

  it('reads the imports of every source folder', () => {
    expect(graph.get('src/core/extract.ts')).toContain('src/core/blocks/page.ts');
    expect(graph.get('src/hosts/worker/app.ts')).toContain('src/hosts/worker/extractor.ts');
    expect([...graph.keys()].some((f) => f.startsWith('training/'))).toBe(true);
  });

  it('no import runs against the layers', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('the layering check itself', () => {
  const g = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('reports a lower layer importing a higher one, one host importing another, and a cross-folder import', () => {
    const v = layerViolations(
      g({
        'src/core/blocks/page.ts': ['src/core/render/text.ts'],
        'src/core/render/text.ts': [],
        'src/hosts/node/lib.ts': ['src/hosts/worker/app.ts'],
        'src/hosts/worker/app.ts': [],
        'eval/x.ts': ['training/y.ts'],
        'training/y.ts': [],
        'src/core/extract.ts': ['dev/corpus.ts'],
        'dev/corpus.ts': [],
      }),
    );
    expect(v).toHaveLength(4);
    expect(v.join('\n')).toMatch(/blocks\/page\.ts -> src\/core\/render\/text\.ts: a lower layer/);
    expect(v.join('\n')).toMatch(/one host imports another/);
    expect(v.join('\n')).toMatch(/eval\/ may import only/);
    expect(v.join('\n')).toMatch(/src\/ may import only/);
  });

  it('finds a cycle of two files and a longer one, and none in a chain', () => {
    expect(importCycles(g({ a: ['b'], b: ['a'], c: ['d'], d: ['e'], e: ['c'] }))).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    expect(importCycles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
  });
});
