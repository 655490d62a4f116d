// `pith batch` on all cores and on WARC files, as a user runs it (a child process over the TypeScript source).

import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pith, ROOT } from '../pith-cli.js';
import { htmlPageOf, readWarc } from '../../../src/io/warc.js';
import { fixturePages } from '../../fixtures/warc/make-warc.js';
import { warcGzWithMemberBomb, warcWithPayloadBomb } from '../../../dev/bombs.js';

const WARC = join(ROOT, 'test/fixtures/warc/pages.warc.gz');

type Line = { id: string; url?: string; text: string; fingerprint: { simhash: string } | null; error?: string };
const linesOf = (path: string): Line[] => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);

let dir: string;
let pagesDir: string;
const pages = fixturePages();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pith-batch-'));
  pagesDir = join(dir, 'pages');
  mkdirSync(pagesDir);
  // Names sort in the fixture's order, so the folder and the WARC file list the same pages in the same order.
  pages.forEach((p, i) => copyFileSync(join(ROOT, 'test/fixtures/pages', p.slug, 'source.html'), join(pagesDir, `${String(i).padStart(2, '0')}-${p.slug}.html`)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the WARC reader', () => {
  it('finds exactly the HTML responses of the fixture, chunked and gzip-encoded bodies included', () => {
    const records = readWarc(gunzipSync(readFileSync(WARC)));
    expect(records[0].type).toBe('warcinfo');
    const html = records.map(htmlPageOf).filter((p) => p !== null);
    expect(html.map((p) => p!.url)).toEqual(pages.map((p) => p.url));
    expect(Buffer.from(html[1]!.body).equals(pages[1].html)).toBe(true); // chunked transfer coding undone
    expect(html[2]!.contentEncoding).toBe('gzip'); // left for the host to decompress
    expect(Buffer.from(gunzipSync(html[2]!.body)).equals(pages[2].html)).toBe(true);
  });

  it('refuses a truncated file with the byte offset', () => {
    const bytes = gunzipSync(readFileSync(WARC));
    expect(() => readWarc(bytes.subarray(0, bytes.length - 100))).toThrow(/ends in the middle of a record/);
    expect(() => readWarc(new TextEncoder().encode('<html>not a warc</html>\r\n\r\n'))).toThrow(/expected "WARC\/"/);
  });
});

describe('pith batch', () => {
  it('gives the same texts for the WARC file as for the same pages as HTML files, and --jobs 2 the same lines as --jobs 1', async () => {
    const [folder1, folder2, warc2] = await Promise.all([
      pith(['batch', pagesDir, '--jobs', '1', '--out', join(dir, 'folder1.jsonl')]),
      pith(['batch', pagesDir, '--jobs', '2', '--out', join(dir, 'folder2.jsonl')]),
      pith(['batch', WARC, '--jobs', '2', '--out', join(dir, 'warc2.jsonl')]),
    ]);
    for (const r of [folder1, folder2, warc2]) expect(r.code, r.stderr).toBe(0);
    expect(folder2.stderr).toMatch(new RegExp(`${pages.length} of ${pages.length} pages in .* with 2 jobs`));
    const a = linesOf(join(dir, 'folder1.jsonl'));
    const b = linesOf(join(dir, 'folder2.jsonl'));
    const w = linesOf(join(dir, 'warc2.jsonl'));
    expect(a.map((l) => l.id)).toEqual(pages.map((p, i) => `${String(i).padStart(2, '0')}-${p.slug}`));
    expect(b.map(({ id, text, fingerprint }) => ({ id, text, fingerprint }))).toEqual(a.map(({ id, text, fingerprint }) => ({ id, text, fingerprint })));
    expect(w.map((l) => l.id)).toEqual(pages.map((p) => p.url));
    expect(w.map((l) => l.url)).toEqual(pages.map((p) => p.url));
    expect(w.map((l) => l.text)).toEqual(a.map((l) => l.text));
    for (const l of a) expect(l.text.length).toBeGreaterThan(100);
  }, 240_000);

  it('a WARC bomb is bounded, with the codes a job gives (test/workers/jobs/warc-job.test.ts)', async () => {
    const payload = join(dir, 'payload-bomb.warc');
    writeFileSync(payload, await warcWithPayloadBomb(200));
    const r = await pith(['batch', payload, '--jobs', '1', '--out', join(dir, 'payload-bomb.jsonl')]);
    expect(r.code).toBe(1); // a page failed
    const lines = linesOf(join(dir, 'payload-bomb.jsonl')) as Array<Line & { code?: string }>;
    expect(lines.map((l) => [l.url, l.code ?? 'ok'])).toEqual([
      ['https://bomb.example/payload', 'input_too_large'],
      ['https://bomb.example/ordinary', 'ok'],
    ]);
    const member = join(dir, 'member-bomb.warc.gz');
    writeFileSync(member, await warcGzWithMemberBomb(200));
    const m = await pith(['batch', member, '--jobs', '1', '--out', join(dir, 'member-bomb.jsonl')]);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(/larger than the 16777216 pith reads.*\[input_too_large\]/);
    expect(m.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('a broken WARC file is a clear error, not a stack trace', async () => {
    const broken = join(dir, 'broken.warc.gz');
    writeFileSync(broken, readFileSync(WARC).subarray(0, 5000));
    const r = await pith(['batch', broken, '--jobs', '1', '--out', join(dir, 'broken.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.warc\.gz cannot be read as a WARC file/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const usage = await pith(['batch', join(dir, 'nope.warc'), '--out', '-']);
    expect(usage.code).toBe(2);
    const badJobs = await pith(['batch', pagesDir, '--jobs', '0', '--out', '-']);
    expect(badJobs.code).toBe(2);
  }, 120_000);

  it('a page file that cannot be read (a broken link) gets its own error line; the other pages are extracted', async () => {
    const folder = join(dir, 'with-broken-link');
    mkdirSync(folder);
    const first = readdirSync(pagesDir).sort()[0];
    writeFileSync(join(folder, first), readFileSync(join(pagesDir, first)));
    symlinkSync(join(dir, 'no-such-page.html'), join(folder, 'zz-broken.html'));
    const r = await pith(['batch', folder, '--jobs', '1', '--out', join(dir, 'broken-link.jsonl')]);
    expect(r.code, r.stderr).toBe(1); // some page failed
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const lines = linesOf(join(dir, 'broken-link.jsonl'));
    expect(lines.map((l) => l.id)).toEqual([first.replace(/\.html?(\.gz)?$/, ''), 'zz-broken']);
    expect(lines[0].error).toBeUndefined();
    expect(lines[0].text.length).toBeGreaterThan(100);
    expect(lines[1].error).toMatch(/ENOENT|no such file/);
  }, 120_000);

  it('--recursive takes the pages of subfolders too, by path below the folder; a link to a folder is not followed', async () => {
    const tree = join(dir, 'tree');
    const names = readdirSync(pagesDir).sort();
    const html = (k: number): Buffer => readFileSync(join(pagesDir, names[k]));
    mkdirSync(join(tree, 'site', 'news', 'deeper'), { recursive: true });
    writeFileSync(join(tree, 'top.html'), html(0));
    writeFileSync(join(tree, 'site', 'index.htm'), html(1));
    writeFileSync(join(tree, 'site', 'news', 'story.html.gz'), gzipSync(html(2)));
    writeFileSync(join(tree, 'site', 'news', 'deeper', 'page.html'), html(3));
    writeFileSync(join(tree, 'site', 'notes.txt'), 'not a page');
    symlinkSync(tree, join(tree, 'site', 'loop')); // back up to the top: followed, it would never end
    const [ref, flat, deep, warc] = await Promise.all([
      pith(['batch', pagesDir, '--jobs', '1', '--out', join(dir, 'tree-ref.jsonl')]),
      pith(['batch', tree, '--jobs', '1', '--out', join(dir, 'tree-flat.jsonl')]),
      pith(['batch', tree, '--recursive', '--jobs', '2', '--out', join(dir, 'tree-deep.jsonl')]),
      pith(['batch', WARC, '--recursive', '--out', join(dir, 'tree-warc.jsonl')]),
    ]);
    expect(flat.code, flat.stderr).toBe(0);
    expect(linesOf(join(dir, 'tree-flat.jsonl')).map((l) => l.id)).toEqual(['top']);
    expect(deep.code, deep.stderr).toBe(0);
    const lines = linesOf(join(dir, 'tree-deep.jsonl'));
    expect(lines.map((l) => l.id)).toEqual(['site/index', 'site/news/deeper/page', 'site/news/story', 'top']);
    expect(ref.code, ref.stderr).toBe(0);
    const reference = linesOf(join(dir, 'tree-ref.jsonl')); // the same pages, from the flat fixture folder
    expect(lines.map((l) => l.text)).toEqual([1, 3, 2, 0].map((k) => reference[k].text));
    expect(warc.code).toBe(2);
    expect(warc.stderr).toMatch(/--recursive is for a folder of pages/);
  }, 240_000);
});

describe('pith batch --resume', () => {
  /** A line without its extraction time, which differs from run to run. */
  const withoutMs = (path: string): Omit<Line & { ms?: number }, 'ms'>[] => linesOf(path).map(({ ms: _ms, ...rest }: Line & { ms?: number }) => rest);

  it('continues a run killed mid-batch: the same lines as a run that was not interrupted', async () => {
    // 6 copies of the fixture pages, so that the run is still going when it is killed
    const folder = join(dir, 'many');
    mkdirSync(folder);
    for (let k = 0; k < 6; k++) for (const f of readdirSync(pagesDir)) copyFileSync(join(pagesDir, f), join(folder, `c${k}-${f}`));
    const reference = join(dir, 'many-reference.jsonl');
    const full = await pith(['batch', folder, '--jobs', '2', '--out', reference]);
    expect(full.code, full.stderr).toBe(0);
    const total = 6 * pages.length;
    expect(linesOf(reference)).toHaveLength(total);

    const out = join(dir, 'many-killed.jsonl');
    const run = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/cli.ts', 'batch', folder, '--jobs', '2', '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((ok) => run.on('exit', (_code, signal) => ok(signal)));
    const completeLines = (): number => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').length - 1 : 0);
    while (completeLines() < 10) await new Promise((r) => setTimeout(r, 20));
    run.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = completeLines();
    expect(before).toBeLessThan(total); // killed before the end, or this test proves nothing
    appendFileSync(out, '{"id":"c9-half a line, as a kill mid-write leaves'); // what an interrupted write leaves

    const resumed = await pith(['batch', folder, '--jobs', '1', '--out', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`${total} of ${total} pages \\(${before} from the interrupted run, ${total - before} now\\)`));
    expect(resumed.stderr).toMatch(new RegExp(`\\[${before + 1}/${total}\\] `)); // progress counts on from the earlier run
    expect(withoutMs(out)).toEqual(withoutMs(reference));
  }, 240_000);

  it('continues WARC input as well, and drops half a line at the end even when nothing is left to do', async () => {
    const reference = join(dir, 'warc-reference.jsonl');
    const full = await pith(['batch', WARC, '--jobs', '1', '--out', reference]);
    expect(full.code, full.stderr).toBe(0);
    const text = readFileSync(reference, 'utf8');
    const cut = join(dir, 'warc-cut.jsonl');
    const fourLines = text.split('\n').slice(0, 4).join('\n').length + 1;
    writeFileSync(cut, text.slice(0, fourLines + 25));
    const done = join(dir, 'warc-done.jsonl');
    writeFileSync(done, `${text}{"id":"http`);
    const [resumed, nothingLeft] = await Promise.all([
      pith(['batch', WARC, '--jobs', '2', '--out', cut, '--resume']),
      pith(['batch', WARC, '--jobs', '1', '--out', done, '--resume']),
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/\(4 from the interrupted run, \d+ now\)/);
    expect(withoutMs(cut)).toEqual(withoutMs(reference));
    expect(nothingLeft.code, nothingLeft.stderr).toBe(0);
    expect(readFileSync(done, 'utf8')).toBe(text);
  }, 240_000);

  it('reads what an earlier run left in bounded memory: complete lines counted, half a line not, a line too long or a last line not of pith refused', async () => {
    const { batchOutputSoFar } = await import('../../../src/hosts/node/batch.js');
    const path = join(dir, 'so-far.jsonl');
    const ok = '{"id":"a","text":"x","fingerprint":null,"ms":1,"markdown":"x"}';
    const failed = '{"id":"b","text":"","fingerprint":null,"ms":1,"error":"not_html"}';
    writeFileSync(path, `${ok}\n${failed}\n{"id":"c","te`);
    expect(await batchOutputSoFar(path)).toEqual({ ids: ['a', 'b'], failed: 1, format: 'markdown', bytes: ok.length + failed.length + 2 });
    writeFileSync(path, 'x'.repeat(200_000)); // no newline: a file that is not pith's
    await expect(batchOutputSoFar(path, 100_000)).rejects.toThrow(/line 1 of .* is longer than 100000 bytes/);
    writeFileSync(path, `${ok}\n${'y'.repeat(150_000)}\n`);
    await expect(batchOutputSoFar(path, 100_000)).rejects.toThrow(/line 2 of .* is longer than 100000 bytes/);
    writeFileSync(path, `${ok}\n{"i`); // half a line cut in its first bytes is still pith's
    expect((await batchOutputSoFar(path)).ids).toEqual(['a']);
    writeFileSync(path, `${ok}\nsomething else`); // a last line pith batch cannot have begun
    await expect(batchOutputSoFar(path)).rejects.toThrow(/line 2 of .* is not a line of pith batch: not resuming into it/);
  });

  it('--out <file>.gz writes the same lines gzip-compressed, and --resume continues a compressed file cut anywhere', async () => {
    const plain = join(dir, 'gz-plain.jsonl');
    const packed = join(dir, 'gz-packed.jsonl.gz');
    const [a, b] = await Promise.all([
      pith(['batch', pagesDir, '--jobs', '1', '--out', plain]),
      pith(['batch', pagesDir, '--jobs', '1', '--out', packed]),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const bytes = readFileSync(packed);
    const unpacked = join(dir, 'gz-unpacked.jsonl');
    writeFileSync(unpacked, gunzipSync(bytes)); // gzip's own reader: every member, one stream
    expect(withoutMs(unpacked)).toEqual(withoutMs(plain));
    // Where each member starts (its size is in its header, bytes 16-19), to cut the file inside one, on a boundary and
    // inside a header, as a killed run can leave it.
    const starts: number[] = [];
    for (let at = 0; at < bytes.length; at += bytes.readUInt32LE(at + 16)) starts.push(at);
    expect(starts.length).toBeGreaterThan(2);
    const cuts = { inside: starts[1] + 300, boundary: starts[2], header: starts[2] + 7, empty: 0 };
    for (const [name, cut] of Object.entries(cuts)) {
      const file = join(dir, `gz-cut-${name}.jsonl.gz`);
      writeFileSync(file, bytes.subarray(0, cut));
      const r = await pith(['batch', pagesDir, '--jobs', '1', '--out', file, '--resume']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      writeFileSync(unpacked, gunzipSync(readFileSync(file)));
      expect(withoutMs(unpacked), name).toEqual(withoutMs(plain));
    }
    // Files it cannot continue compressed: a plain file named .gz, a compressed one not named .gz, and a gzip file
    // that pith batch did not write (its members give no size).
    const misnamed = join(dir, 'gz-misnamed.jsonl.gz');
    writeFileSync(misnamed, readFileSync(plain));
    const unnamed = join(dir, 'gz-unnamed.jsonl');
    writeFileSync(unnamed, bytes);
    const foreign = join(dir, 'gz-foreign.jsonl.gz');
    writeFileSync(foreign, gzipSync(readFileSync(plain)));
    const refused = await Promise.all([misnamed, unnamed, foreign].map((out) => pith(['batch', pagesDir, '--jobs', '1', '--out', out, '--resume'])));
    expect(refused.map((r) => r.code)).toEqual([1, 1, 1]);
    expect(refused[0].stderr).toMatch(/is not gzip-compressed, though its name ends in \.gz/);
    expect(refused[1].stderr).toMatch(/is gzip-compressed, but its name does not end in \.gz/);
    expect(refused[2].stderr).toMatch(/was not written by pith batch .*does not give its size/);
    expect(readFileSync(foreign).equals(gzipSync(readFileSync(plain)))).toBe(true); // left as it was
  }, 240_000);

  it('refuses a file it cannot continue, and leaves it as it was', async () => {
    const reference = join(dir, 'refuse-reference.jsonl');
    const full = await pith(['batch', pagesDir, '--jobs', '1', '--out', reference]);
    expect(full.code, full.stderr).toBe(0);
    const lines = readFileSync(reference, 'utf8').split('\n').filter((l) => l !== '');
    const other = join(dir, 'refuse-other.jsonl'); // written from other inputs: the second id differs
    writeFileSync(other, [lines[0], lines[1].replace(/"id":"[^"]*"/, '"id":"not-this-page"'), lines[2]].join('\n') + '\n');
    const longer = join(dir, 'refuse-longer.jsonl'); // more lines than pages
    writeFileSync(longer, `${lines.join('\n')}\n${lines[0]}\n`);
    const notOurs = join(dir, 'refuse-not-ours.jsonl');
    writeFileSync(notOurs, `${lines[0]}\nhello\n`);
    const formatted = join(dir, 'refuse-format.jsonl'); // lines of --format text, resumed with --format markdown
    writeFileSync(formatted, `${lines[0]}\n`);
    const files = [other, longer, notOurs, formatted];
    const contents = files.map((f) => readFileSync(f, 'utf8'));
    const [a, b, c, d, e, f] = await Promise.all([
      pith(['batch', pagesDir, '--jobs', '1', '--out', other, '--resume']),
      pith(['batch', pagesDir, '--jobs', '1', '--out', longer, '--resume']),
      pith(['batch', pagesDir, '--jobs', '1', '--out', notOurs, '--resume']),
      pith(['batch', pagesDir, '--jobs', '1', '--out', formatted, '--resume', '--format', 'markdown']),
      pith(['batch', pagesDir, '--out', '-', '--resume']),
      pith(['batch', pagesDir, '--jobs', '1', '--out', pagesDir, '--resume']), // a folder, not a file
    ]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/line 2 of .* is page "not-this-page", but page 2 of the input is "01-.*": the file was not written from these inputs/);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(new RegExp(`has ${pages.length + 1} lines, more than the ${pages.length} pages of the input`));
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/line 2 of .* is not a line of pith batch/);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/was written with --format text: resume with the same --format/);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/--resume needs --out <file.jsonl>/);
    expect(f.code).toBe(1);
    expect(f.stderr).toMatch(/cannot read .*: EISDIR.*; not resuming into it/);
    for (const r of [a, b, c, d, e, f]) expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(contents);
  }, 240_000);
});

describe('the worker processes of --jobs', () => {
  it('a worker process that dies ends the batch with an error, not a hang', async () => {
    const { runBatchPool } = await import('../../../src/hosts/node/batch.js');
    const html = readFileSync(join(pagesDir, readdirSync(pagesDir)[0]), 'utf8');
    const written: number[] = [];
    async function* items() {
      yield { id: 'first', url: 'https://example.com/1', html };
      // wait for the first line, then kill one of this process's batch workers and offer more pages
      while (written.length === 0) await new Promise((r) => setTimeout(r, 20));
      const workers = childPids().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('batch-worker'));
      expect(workers.length).toBe(2);
      // each worker runs with the pool's V8 flags: a 64 MB young generation, and one thread with patient compilers, as
      // two workers fill the two cores the pool is told of
      for (const pid of workers) {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        expect(argv).toContain('--max-semi-space-size=64');
        expect(argv).toContain('--single-threaded');
        expect(argv).toContain('--interrupt-budget=270336');
        expect(argv).toContain('--wasm-tiering-budget=18000000');
      }
      process.kill(workers[0], 'SIGKILL');
      for (let i = 0; i < 20; i++) yield { id: `more-${i}`, url: `https://example.com/m${i}`, html };
    }
    await expect(runBatchPool(items(), { jobs: 2, cores: 2 }, async (_line, index) => void written.push(index))).rejects.toThrow(
      /batch worker process ended early \(SIGKILL\)/,
    );
    expect(childPids().filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('batch-worker'))).toEqual([]);
  }, 120_000);
});

describe('the V8 flags of the workers', () => {
  it('one thread per worker and patient compilers only when the workers fill every core', async () => {
    const { FULL_CORES_V8_FLAGS, WORKER_V8_FLAGS, workerV8Flags } = await import('../../../src/hosts/node/batch.js');
    expect(FULL_CORES_V8_FLAGS).toEqual(['--single-threaded', '--interrupt-budget=270336', '--max-inlined-bytecode-size-cumulative=460']);
    // every worker, one or many, leaves onnxruntime's start-up code to WebAssembly's baseline compiler
    expect(WORKER_V8_FLAGS).toEqual(['--max-semi-space-size=64', '--wasm-tiering-budget=18000000']);
    expect(workerV8Flags(2, 2)).toEqual([...WORKER_V8_FLAGS, ...FULL_CORES_V8_FLAGS]);
    expect(workerV8Flags(8, 4)).toEqual([...WORKER_V8_FLAGS, ...FULL_CORES_V8_FLAGS]);
    // with a core to spare, V8's helper threads (compiling, marking) run on it, and its compilers keep their defaults
    expect(workerV8Flags(1, 2)).toEqual([...WORKER_V8_FLAGS]);
    expect(workerV8Flags(3, 4)).toEqual([...WORKER_V8_FLAGS]);
  });

  it('every flag is one this Node.js knows (an unknown V8 flag would stop the workers from starting)', async () => {
    const { FULL_CORES_V8_FLAGS, WORKER_V8_FLAGS } = await import('../../../src/hosts/node/batch.js');
    const r = spawnSync(process.execPath, [...WORKER_V8_FLAGS, ...FULL_CORES_V8_FLAGS, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok');
  });
});

/** Pids of this process's children (Linux /proc). */
function childPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
