// `pith duplicates` over what `pith batch` wrote, as a user runs them (child processes over the TypeScript source):
// planted near-duplicate pages come out as the planted clusters, and files it cannot trust are refused.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pith } from '../pith-cli.js';
import { duplicateArticle, EMPTY_PAGE, uniqueArticle } from '../../../dev/bulk-pages.js';


interface Cluster {
  ids: string[];
  at: string[];
  minJaccard: number;
}
const clustersOf = (text: string): Cluster[] => text.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Cluster);

let dir: string;
let out: string;
/** The planted clusters: page ids in name order. */
const planted: string[][] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pith-duplicates-'));
  const pages = join(dir, 'pages');
  mkdirSync(pages);
  // 33 pages, names in this order: distinct articles with three groups of near-duplicates (one sentence of twenty
  // changed) spread among them, an empty page and a PNG.
  const names: string[] = [];
  const add = (html: string | Buffer): string => {
    const id = `p${String(names.length).padStart(3, '0')}`;
    names.push(id);
    writeFileSync(join(pages, `${id}.html`), html);
    return id;
  };
  const groups: string[][] = [[], [], []];
  for (let i = 0; i < 31; i++) {
    if (i % 4 === 1 && i < 29) {
      const g = (i >> 2) % 3;
      groups[g].push(add(duplicateArticle(g, groups[g].length)));
    } else add(uniqueArticle(i));
  }
  add(EMPTY_PAGE); // extracted, but no text to compare
  add(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')); // a PNG: fails
  planted.push(...groups.filter((g) => g.length > 1));
  out = join(dir, 'pages.jsonl');
  const batch = await pith(['batch', pages, '--out', out, '--jobs', '2']);
  expect(batch.stderr).toMatch(/32 of 33 pages .*, 1 failed/);
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pith duplicates', () => {
  it('finds the planted clusters in what pith batch wrote, with where each line is, the same with 1 and 2 threads', async () => {
    const [r, one] = await Promise.all([pith(['duplicates', out, '--jobs', '2']), pith(['duplicates', out, '--jobs', '1'])]);
    expect(r.code).toBe(0);
    expect(one.stdout).toBe(r.stdout);
    const clusters = clustersOf(r.stdout);
    expect(planted.length).toBe(3);
    expect(clusters.map((c) => c.ids)).toEqual(planted);
    const lines = readFileSync(out, 'utf8').split('\n');
    for (const c of clusters) {
      expect(c.minJaccard).toBeGreaterThanOrEqual(0.8);
      c.at.forEach((at, k) => {
        const [file, n] = at.split(/:(?=\d+$)/);
        expect(file).toBe(out);
        expect((JSON.parse(lines[Number(n) - 1]) as { id: string }).id).toBe(c.ids[k]);
      });
    }
    const members = planted.reduce((sum, g) => sum + g.length, 0);
    expect(r.stderr).toContain(`pith duplicates: 3 clusters of ${members} pages (${members - 3} beyond the first of each) among 31 pages compared of 33 lines (1 too short to compare, 1 failed)`);
  }, 60_000);

  it('reads output that pith batch compressed (--out <file>.gz), and says so when it is cut short', async () => {
    const packed = join(dir, 'pages.jsonl.gz');
    writeFileSync(packed, gzipSync(readFileSync(out)));
    const [r, cut] = await Promise.all([
      pith(['duplicates', packed, '--jobs', '1']),
      (async () => {
        const cutFile = join(dir, 'cut.jsonl.gz');
        writeFileSync(cutFile, readFileSync(packed).subarray(0, 2000));
        return pith(['duplicates', cutFile]);
      })(),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(clustersOf(r.stdout).map((c) => c.ids)).toEqual(planted);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/cut\.jsonl\.gz is cut short or damaged .*pith batch --resume/);
  }, 60_000);

  it('clusters across files, and writes --out', async () => {
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    writeFileSync(a, lines.slice(0, 16).join('\n') + '\n');
    writeFileSync(b, lines.slice(16).join('\n') + '\n');
    const target = join(dir, 'clusters.jsonl');
    const r = await pith(['duplicates', a, b, '--out', target]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const clusters = clustersOf(readFileSync(target, 'utf8'));
    expect(clusters.map((c) => c.ids)).toEqual(planted);
    expect(clusters.flatMap((c) => c.at).some((at) => at.startsWith(`${b}:`))).toBe(true);
  }, 60_000);

  it('refuses what it cannot trust: not pith batch output, half a line, a missing file, the same file twice, a binary file', async () => {
    const notPith = join(dir, 'other.jsonl');
    writeFileSync(notPith, '{"id": "a", "text": "x"}\n{"name": "not a pith line"}\n');
    const half = join(dir, 'half.jsonl');
    writeFileSync(half, readFileSync(out));
    appendFileSync(half, '{"id":"p999","text":"cut off he');
    const binary = join(dir, 'binary.jsonl'); // no newline at all: not half a line of pith's either
    writeFileSync(binary, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').filter((byte) => byte !== 0x0a));
    const [a, b, c, d, e, f] = await Promise.all([
      pith(['duplicates', notPith]),
      pith(['duplicates', half]),
      pith(['duplicates', join(dir, 'missing.jsonl')]),
      pith(['duplicates', out, out]),
      pith(['duplicates']),
      pith(['duplicates', binary]),
    ]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/line 2 of .*other.jsonl is not a line of pith batch/);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/ends in half a line \(line 34\).*pith batch --resume/);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/no such file/);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/given twice/);
    expect(e.code).toBe(2);
    expect(f.code).toBe(1);
    expect(f.stderr).toMatch(/line 1 of .*binary.jsonl is not a line of pith batch/);
    for (const r of [a, b, c, d, e, f]) {
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
