// The pith CLI as a user runs it: a child process of `node bin/pith.js` (the installed command), real files, a real
// (local) HTTP server. dist/ is built once before the tests (`tsc -p tsconfig.build.json`, as `npm install` does), so
// the CLI under test is the current source; spawning the built JavaScript is several times faster than running the
// TypeScript through tsx for every case.
// The expected text is what extract() returns in this process for the same HTML: the CLI must print exactly that.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract, hammingDistance, simhash } from '../../src/hosts/node/lib.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], stdin?: string | Uint8Array): Promise<Run> {
  return new Promise((ok) => {
    const child = execFile(command, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      ok({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

/** `pith <args>` from the TypeScript source. */
const pith = (args: string[], stdin?: string, stdinBytes?: Uint8Array) => run(process.execPath, ['bin/pith.js', ...args], stdinBytes ?? stdin);

// A 1x1 transparent PNG.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082', 'hex');

const paragraphs = [
  'The river town of Averly rebuilt its stone bridge this spring after the winter floods carried away two of its arches.',
  'Engineers from the county worked for eleven weeks, replacing the foundations with reinforced piers set deep into the bedrock.',
  'Residents who had driven a long detour through the hills since January welcomed the reopening with a small parade on Saturday.',
  'The mayor thanked the masons, many of whom had learned the old dry-stone techniques from their grandparents in the valley.',
];

const pageHtml = (extra = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Averly bridge reopens</title></head>
<body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/weather">Weather</a></li><li><a href="/contact">Contact us</a></li></ul></nav></header>
<main><article><h1>Averly bridge reopens after the floods${extra}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
</article></main>
<footer><p>Copyright 2025 Averly Gazette. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
</body></html>`;

let dir: string;
let htmlPath: string;
let gzPath: string;
let batchDir: string;
let expectedText: string;
let expectedTitle: string | null;
let server: Server;
let baseUrl: string;
const cp1252Html = pageHtml(' café').replace('charset="utf-8"', 'charset="windows-1252"');

beforeAll(async () => {
  const build = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
  expect(build.stdout + build.stderr, 'tsc -p tsconfig.build.json').toBe('');
  expect(build.code).toBe(0);
  dir = mkdtempSync(join(tmpdir(), 'pith-cli-'));
  htmlPath = join(dir, 'averly.html');
  gzPath = join(dir, 'averly-copy.html.gz');
  writeFileSync(htmlPath, pageHtml());
  writeFileSync(gzPath, gzipSync(Buffer.from(pageHtml())));
  batchDir = join(dir, 'batch');
  mkdirSync(batchDir);
  writeFileSync(join(batchDir, 'one.html'), pageHtml());
  writeFileSync(join(batchDir, 'two.html.gz'), gzipSync(Buffer.from(pageHtml(' again'))));
  writeFileSync(join(batchDir, 'notes.txt'), 'not a page');
  const expected = await extract(pageHtml());
  expectedText = expected.text;
  expectedTitle = expected.title;

  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
      res.end(Buffer.from(cp1252Html, 'latin1')); // "é" as the single byte 0xE9
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(pageHtml() + '<!--' + 'x'.repeat(200_000) + '-->');
    } else if (req.url?.startsWith('/loop/')) {
      const n = Number(req.url.slice('/loop/'.length));
      res.writeHead(302, { location: `/loop/${n + 1}` });
      res.end();
    } else if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    } else if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(10));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

// Each case spawns the CLI a few times (each loads the model); on a loaded 2-core machine one case took over 60 s.
const SLOW = { timeout: 240_000 };

describe('pith extract', SLOW, () => {
  it('prints the text of extract() for a file', async () => {
    expect(expectedText.length).toBeGreaterThan(0); // a page with an article: the model keeps something
    const r = await pith(['extract', htmlPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedText + '\n');
  });

  it('decompresses .html.gz files and reads stdin with -', async () => {
    const gz = await pith(['extract', gzPath]);
    expect(gz.code).toBe(0);
    expect(gz.stdout).toBe(expectedText + '\n');
    const stdin = await pith(['extract', '-'], pageHtml());
    expect(stdin.code).toBe(0);
    expect(stdin.stdout).toBe(expectedText + '\n');
  });

  it('--format json prints the whole result', async () => {
    const r = await pith(['extract', htmlPath, '--format', 'json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { text: string; title: string; blocks: { text: string; label: number }[]; timings: { totalMs: number } };
    expect(json.text).toBe(expectedText);
    expect(json.title).toBe(expectedTitle);
    expect(json.title).toMatch(/Averly bridge reopens/);
    expect(json.blocks.some((b) => b.text.includes(paragraphs[0]))).toBe(true);
    expect(json.timings.totalMs).toBeGreaterThan(0);
    for (const [name, ms] of Object.entries(json.timings)) expect(Math.round(ms * 100) / 100, `timings.${name} rounded to 0.01 ms`).toBe(ms);
    // The fingerprint of the printed text, as the library computes it; the text format has none.
    expect((json as { fingerprint?: { simhash: string } }).fingerprint).toEqual({ simhash: simhash(expectedText) });
    expect(simhash(expectedText)).toMatch(/^[0-9a-f]{16}$/);
    // The one JSON shape (src/core/render/present.ts), the Worker's keys with markdown, html and blocks rendered.
    expect(Object.keys(json)).toEqual([
      'url', 'finalUrl', 'title', 'metadata', 'text', 'markdown', 'html', 'wordCount', 'fingerprint', 'modelVersion',
      'featureSet', 'decoder', 'truncated', 'timings', 'blocks',
    ]);
    expect(json).toMatchObject({ url: null, finalUrl: null, timings: { fetchMs: 0 } });
  });

  it('--limit sets a parse limit: past it the page is cut or refused; an unknown limit is a usage error', async () => {
    const cut = await pith(['extract', htmlPath, '--format', 'json', '--limit', 'maxBlocks=3']);
    expect(cut.code, cut.stderr).toBe(0);
    expect(JSON.parse(cut.stdout)).toMatchObject({ truncated: true, blocks: [{}, {}, {}] });
    const refused = await pith(['extract', htmlPath, '--limit', 'maxInputChars=100']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\[input_too_large\]\n$/);
    const unknown = await pith(['extract', htmlPath, '--limit', 'maxPages=3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--limit: "maxPages" is not a limit/);
  });

  it('--format markdown, html and debug print what extract() renders for that format', async () => {
    const html = readFileSync(htmlPath, 'utf8');
    const markdown = await pith(['extract', htmlPath, '--format', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    const expectedMarkdown = (await extract(html, { format: 'markdown' })).markdown;
    expect(expectedMarkdown, 'extract() renders markdown').toBeTruthy();
    expect(markdown.stdout.trimEnd()).toBe(expectedMarkdown!.trimEnd());
    // html is the presenter's standalone document around the sanitised fragment, as the Worker answers it.
    const page = await pith(['extract', htmlPath, '--format', 'html']);
    expect(page.code, page.stderr).toBe(0);
    const fragment = (await extract(html, { format: 'html' })).html;
    expect(fragment, 'extract() renders html').toBeTruthy();
    expect(page.stdout.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page.stdout).toContain(`<title>${expectedTitle}</title>`);
    expect(page.stdout).toContain(`<article>\n${fragment}\n</article>`);
    // The debug page carries this run's timings, so it is checked by structure.
    const debug = await pith(['extract', htmlPath, '--format', 'debug']);
    expect(debug.code).toBe(0);
    expect(debug.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(debug.stdout).toMatch(new RegExp(`<li class="block kept[^"]*"[^>]*>[\\s\\S]*?${paragraphs[0].slice(0, 30)}`));
    expect(debug.stdout).toMatch(/<li class="block dropped[^"]*"[^>]*>[\s\S]*?Privacy policy/);
    const md = await pith(['extract', htmlPath, '--format', 'markdown']);
    expect(md.stdout).toContain(paragraphs[1]);
    expect(md.stdout).not.toContain('Privacy policy');
    const bad = await pith(['extract', htmlPath, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be one of text, markdown, html, json, debug');
  });

  it('--url resolves the links of a file against the page address', async () => {
    const page = '<html><body><article><p>' + 'Readers of the Averly Gazette can find the full timetable online. '.repeat(4) + '<a href="/timetable">See the timetable</a>.</p></article></body></html>';
    const file = join(dir, 'links.html');
    writeFileSync(file, page);
    const r = await pith(['extract', file, '--format', 'markdown', '--url', 'https://gazette.example/news/bridge']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(https://gazette.example/timetable)');
    const bad = await pith(['extract', file, '--url', 'not a url']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--url must be an absolute URL');
  });

  it('fetches a URL and decodes it by the charset of the Content-Type', async () => {
    const r = await pith(['extract', `${baseUrl}/page`, '--format', 'json', '--allow-private']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { blocks: { text: string }[] };
    // windows-1252 decoding turns byte 0xE9 into "é" (UTF-8 decoding would give U+FFFD).
    expect(json.blocks.map((b) => b.text).join(' ')).toContain('café');
  });

  it('fails with exit code 1 and a clear message on HTTP errors, non-HTML and oversized responses', async () => {
    const [missing, image, big] = await Promise.all([
      pith(['extract', `${baseUrl}/nope`, '--allow-private']),
      pith(['extract', `${baseUrl}/image`, '--allow-private']),
      pith(['extract', `${baseUrl}/big`, '--max-bytes', '50000', '--allow-private']),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/answered 404/);
    expect(image.code).toBe(1);
    expect(image.stderr).toMatch(/image\/png, not an HTML or XHTML page \[not_html\]/);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/larger than .*raise --max-bytes, now 50000\) \[upstream_too_large\]/);
  });

  it('refuses input that is not HTML (an image, binary data, text without tags) with exit code 1', async () => {
    const png = join(dir, 'image.png');
    writeFileSync(png, PNG);
    const notes = join(dir, 'notes.md');
    writeFileSync(notes, '# Notes\n\nNothing here is markup.\n');
    const [image, gzImage, text] = await Promise.all([
      pith(['extract', png]),
      pith(['extract', '-'], undefined, gzipSync(PNG)),
      pith(['extract', notes]),
    ]);
    expect(image.code).toBe(1);
    expect(image.stdout).toBe('');
    expect(image.stderr).toBe(`pith: ${png} is a PNG image, not an HTML page [not_html]\n`);
    expect(gzImage.code).toBe(1);
    expect(gzImage.stderr).toMatch(/stdin is a PNG image/);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/notes\.md is text without any HTML tag/);
  });

  it('--version prints the package and model versions', async () => {
    const r = await pith(['--version']);
    expect(r.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const model = JSON.parse(readFileSync(join(ROOT, 'models', 'pith.json'), 'utf8')) as { version: string };
    expect(r.stdout.startsWith(`pith ${manifest.version} (models ${model.version}, `), r.stdout).toBe(true);
  });

  it('refuses private addresses like the Worker unless --allow-private, and checks every redirect hop', async () => {
    const [loopback, metadata, mapped, loop, hop] = await Promise.all([
      pith(['extract', `${baseUrl}/page`]),
      pith(['extract', 'http://169.254.169.254/latest/meta-data/']),
      pith(['extract', 'http://[::ffff:0:7f00:1]/']),
      pith(['extract', `${baseUrl}/loop/0`, '--allow-private']),
      pith(['extract', `${baseUrl}/to-metadata`]),
    ]);
    for (const r of [loopback, metadata, mapped]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/refusing to fetch/);
    }
    expect(loop.code).toBe(1);
    expect(loop.stderr).toMatch(/more than 5 redirects/);
    // Without the flag the first hop is already refused; the guard runs before any connection.
    expect(hop.code).toBe(1);
    expect(hop.stderr).toMatch(/refusing to fetch 127\.0\.0\.1/);
  });

  it('usage errors exit with code 2', async () => {
    const [missingFile, noArg, badFormat, unknown, unknownOption] = await Promise.all([
      pith(['extract', join(dir, 'no-such-page.html')]),
      pith(['extract']),
      pith(['extract', htmlPath, '--format', 'xml']),
      pith(['frobnicate']),
      pith(['extract', htmlPath, '--colour']),
    ]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toMatch(/no such file: .*no-such-page\.html/);
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toMatch(/needs a file, a URL or -/);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/--format must be one of text, markdown, html, json, debug/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/--colour/);
  });

  it('--help describes both commands', async () => {
    const [main, ex, batch] = await Promise.all([pith(['--help']), pith(['extract', '--help']), pith(['batch', '--help'])]);
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/pith extract <file\|url\|->/);
    expect(main.stdout).toMatch(/pith batch <dir> --out <file\.jsonl>/);
    expect(ex.code).toBe(0);
    expect(ex.stdout).toMatch(/--format <f>/);
    expect(ex.stdout).toMatch(/markdown; html \(sanitised/);
    expect(main.stdout).toMatch(/--format text\|markdown\|html\|json\|debug/);
    expect(batch.code).toBe(0);
    expect(batch.stdout).toMatch(/one line\s+per page/);
  });
});

describe('pith batch', SLOW, () => {
  it('writes one JSON line per .html/.html.gz file, with progress on stderr', async () => {
    const out = join(dir, 'out.jsonl');
    const r = await pith(['batch', batchDir, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/\[1\/2\] one /);
    expect(r.stderr).toMatch(/\[2\/2\] two /);
    type Line = { id: string; text: string; fingerprint: { simhash: string } | null; ms: number };
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.id)).toEqual(['one', 'two']);
    expect(lines[0].text).toBe(expectedText);
    expect(lines[1].text).toBe((await extract(pageHtml(' again'))).text);
    for (const l of lines) expect(l.ms).toBeGreaterThan(0);
    // Every line carries the fingerprint of its text (the library's simhash of the same text).
    expect(lines.map((l) => Object.keys(l))).toEqual([
      ['id', 'text', 'fingerprint', 'ms'],
      ['id', 'text', 'fingerprint', 'ms'],
    ]);
    for (const l of lines) expect(l.fingerprint).toEqual({ simhash: simhash(l.text) });
    // The two pages differ by one word of the headline: close fingerprints, not equal ones.
    const distance = hammingDistance(lines[0].fingerprint!.simhash, lines[1].fingerprint!.simhash);
    expect(distance).toBeGreaterThan(0);
    expect(distance).toBeLessThan(16);
  });

  it('writes "fingerprint": null for a page that fails', async () => {
    const failDir = join(dir, 'batch-fail');
    mkdirSync(failDir);
    writeFileSync(join(failDir, 'ok.html'), pageHtml());
    writeFileSync(join(failDir, 'bad.html.gz'), 'this is not gzip');
    const out = join(dir, 'fail.jsonl');
    const r = await pith(['batch', failDir, '--out', out]);
    expect(r.code).toBe(1);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ id: 'bad', text: '', fingerprint: null });
    expect(lines[0].error).toMatch(/bad\.html\.gz is labelled gzip but does not decode/);
    expect(lines[1]).toMatchObject({ id: 'ok', text: expectedText, fingerprint: { simhash: simhash(expectedText) } });
  });

  it('takes .htm files, refuses a PNG named .html, and --format markdown / json add the rendered output', async () => {
    const mixed = join(dir, 'batch-mixed');
    mkdirSync(mixed);
    writeFileSync(join(mixed, 'a.htm'), pageHtml());
    writeFileSync(join(mixed, 'b.html'), PNG);
    const [md, json, bad] = await Promise.all([
      pith(['batch', mixed, '--out', '-', '--format', 'markdown']),
      pith(['batch', mixed, '--out', '-', '--format', 'json']),
      pith(['batch', mixed, '--out', '-', '--format', 'debug']),
    ]);
    expect(md.code).toBe(1); // b.html failed
    const mdLines = md.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(mdLines.map((l) => l.id)).toEqual(['a', 'b']);
    expect(mdLines[0]).toMatchObject({ text: expectedText, markdown: (await extract(pageHtml(), { format: 'markdown' })).markdown });
    expect(mdLines[1]).toMatchObject({ text: '', fingerprint: null });
    expect(mdLines[1].error).toMatch(/b\.html is a PNG image, not an HTML page/);
    const jsonLines = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    // The id, then the presenter's JSON shape (the one `pith extract --format json` prints), then ms.
    expect(Object.keys(jsonLines[0]).slice(0, 4)).toEqual(['id', 'url', 'finalUrl', 'title']);
    expect(Object.keys(jsonLines[0]).at(-1)).toBe('ms');
    expect(jsonLines[0]).toMatchObject({ id: 'a', url: null, text: expectedText, title: expectedTitle });
    expect(jsonLines[0].blocks).toBeInstanceOf(Array);
    for (const ms of Object.values(jsonLines[0].timings as Record<string, number>)) expect(Math.round(ms * 100) / 100).toBe(ms);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of text, markdown, html, json for batch/);
  });

  it('--limit sets a parse limit for every page, and refuses what is not one', async () => {
    const out = await pith(['batch', batchDir, '--out', '-', '--format', 'json', '--limit', 'maxBlocks=2']);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { truncated: boolean; blocks: unknown[] });
    expect(lines.map((l) => [l.truncated, l.blocks.length])).toEqual([[true, 2], [true, 2]]);
    const bad = await pith(['batch', batchDir, '--out', '-', '--limit', 'maxBlocks=none']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit: maxBlocks must be a whole number of at least 1/);
  });

  it('needs --out and an existing folder', async () => {
    const noOut = await pith(['batch', batchDir]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
    const noDir = await pith(['batch', join(dir, 'nowhere'), '--out', join(dir, 'x.jsonl')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/no such folder/);
    const badOut = await pith(['batch', batchDir, '--out', join(dir, 'missing-folder', 'x.jsonl')]);
    expect(badOut.code).toBe(2);
    expect(badOut.stderr).toMatch(/folder of --out .* does not exist/);
  });
});

describe('bin/pith.js', () => {
  it('tells the user to build when dist/ is missing', async () => {
    // A copy of the shim in a folder without dist/: the message a clone without `npm install` would get.
    const shimDir = join(dir, 'no-dist', 'bin');
    mkdirSync(shimDir, { recursive: true });
    writeFileSync(join(shimDir, 'pith.js'), readFileSync(join(ROOT, 'bin', 'pith.js')));
    writeFileSync(join(dir, 'no-dist', 'package.json'), '{"type": "module"}');
    const r = await run(process.execPath, [join(shimDir, 'pith.js'), '--help']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/dist\/ is missing or incomplete: run `npm run build`/);
  });
});
