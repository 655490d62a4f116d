// The import rules of the repository, checked by test/node/dev/layering.test.ts:
//
//   top level   src/ imports only src/ (and the model files in models/); dev/ imports src/ and dev/; eval/ and
//               training/ import src/ and dev/, never each other; test/ imports src/, dev/ and test/.
//   inside src/ foundation (types.ts, config.ts, errors.ts) <- core/ (parse, blocks, metadata, features, model, decode,
//               render, extract.ts, compat) <- io/ <- hosts/node/ and hosts/worker/: a file imports only its own layer or lower
//               ones (srcLayer below), and the two hosts never import each other.
//   everywhere  no import cycle, type-only imports included (a type cycle still ties two modules together).
//
// Imports are read with a regular expression (static `import`/`export ... from`, side-effect imports and literal
// dynamic `import()`); only relative specifiers are followed, packages and `node:` modules are leaves.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export type ImportGraph = Map<string, string[]>;

const IMPORT_RE = /(?:^|[\s;}])(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const SOURCE_DIRS = ['src', 'dev', 'eval', 'training', 'test'] as const;

function listTs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listTs(path, out);
    else if (/\.(?:ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveSpecifier(root: string, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(join(root, from)), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return relative(root, c).split(sep).join('/');
  throw new Error(`${from}: cannot resolve import '${spec}'`);
}

/**
 * Every TypeScript file under the source folders, with the repository files it imports (relative paths, `/`).
 * `loadedAtStart`: only the imports that load a module when the file loads (no `import type`, no dynamic `import()`).
 */
export function readImportGraph(root: string, { loadedAtStart = false } = {}): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const top of SOURCE_DIRS) {
    if (!existsSync(join(root, top))) continue;
    for (const file of listTs(join(root, top))) {
      const rel = relative(root, file).split(sep).join('/');
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      const deps: string[] = [];
      for (const m of text.matchAll(IMPORT_RE)) {
        if (loadedAtStart && (m[1] !== undefined || m[3] !== undefined)) continue;
        const target = resolveSpecifier(root, rel, m[2] ?? m[3]);
        if (target !== null) deps.push(target);
      }
      graph.set(rel, [...new Set(deps)]);
    }
  }
  return graph;
}

const TOP_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  src: ['src', 'models'],
  dev: ['src', 'dev', 'models'],
  eval: ['src', 'dev', 'eval', 'models'],
  training: ['src', 'dev', 'training', 'models'],
  test: ['src', 'dev', 'test', 'models'],
};

/**
 * Layer of a file under src/ (higher may import lower), and its host group for the top layer.
 *   0 foundation: types.ts, config.ts, errors.ts
 *   core/ (html -> Extraction, no host): 1 parse/ and fingerprint/ <- 2 blocks/ and metadata/ <- 3 features/
 *     <- 4 model/ and decode/ <- 5 render/ <- 6 extract.ts and compat/ (an Extraction in other tools' shapes)
 *   7 io/: bytes from outside (the guarded fetch, the bounded content decoder, charset, sniffing, WARC, the URL guard)
 *   8 hosts/node/ and hosts/worker/: never each other
 */
function srcLayer(path: string): { rank: number; host?: 'node' | 'worker' } {
  const p = path.slice('src/'.length);
  if (p === 'types.ts' || p === 'config.ts' || p === 'errors.ts') return { rank: 0 };
  if (p.startsWith('core/parse/') || p.startsWith('core/fingerprint/')) return { rank: 1 };
  if (p.startsWith('core/blocks/') || p.startsWith('core/metadata/')) return { rank: 2 };
  if (p.startsWith('core/features/')) return { rank: 3 };
  if (p.startsWith('core/model/') || p.startsWith('core/decode/')) return { rank: 4 };
  if (p.startsWith('core/render/')) return { rank: 5 };
  if (p === 'core/extract.ts' || p.startsWith('core/compat/')) return { rank: 6 };
  if (p.startsWith('io/')) return { rank: 7 };
  if (p.startsWith('hosts/node/')) return { rank: 8, host: 'node' };
  if (p.startsWith('hosts/worker/')) return { rank: 8, host: 'worker' };
  throw new Error(`src/${p} is in no layer: add it to dev/layering.ts`);
}

/** Imports that run against the layers, as "from -> to: why". */
export function layerViolations(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    const fromTop = from.split('/')[0];
    for (const to of deps) {
      const toTop = to.split('/')[0];
      if (!(TOP_ALLOWED[fromTop] ?? []).includes(toTop)) {
        out.push(`${from} -> ${to}: ${fromTop}/ may import only ${(TOP_ALLOWED[fromTop] ?? []).join(', ')}`);
        continue;
      }
      if (fromTop !== 'src' || toTop !== 'src') continue;
      const a = srcLayer(from);
      const b = srcLayer(to);
      if (b.rank > a.rank) out.push(`${from} -> ${to}: a lower layer imports a higher one`);
      else if (a.host && b.host && a.host !== b.host) out.push(`${from} -> ${to}: one host imports another`);
    }
  }
  return out;
}

/** Import cycles (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) connect(v);
  return cycles;
}
