/// <reference types="node" />
// vitest globalSetup for the workers project. Runs in Node, not in workerd: starts the page server that the
// Worker under test fetches from, on 127.0.0.1 only, and hands its port to the tests (inject('pageServerPort')).
//
// Routes of the page server (all GET):
//   /page/<name>            test/fixtures/server/<name>.html as text/html; charset=utf-8
//   /enc/<name>             test/fixtures/server/encodings/<name>.html with the charset signal in ENCODED below
//   /counted/<id>           the blog article; counts hits per id          /hits/<id>   that count, as text
//   /status/<code>          answers <code> with a small HTML body
//   /redirect?to=<url>      302 to <url>                                  /chain/<n>   n redirects, then an article
//   /slow-body              headers at once, then one byte every 100 ms for 60 s (never finishes in time)
//   /slow-headers           headers after 60 s
//   /big                    6 MB of HTML, chunked (no Content-Length)     /big-length  the same with Content-Length
//   /big-gzip               6 MB of HTML, gzip-compressed (about 30 kB on the wire)
//   /image.png              a PNG image                                   /no-type     HTML without Content-Type
//   /text                   text/plain                                    /xhtml       application/xhtml+xml page
//   /fixture-pages/<name>   test/fixtures/pages/<name>/source.html as text/html (the page's <meta> names its charset);
//                           the pages' names and expected.json are provided as inject('fixturePages')
//   /feeds/<file>?id=<id>[&type=<media type>]   test/fixtures/feeds/<file> with {{BASE}} (this server) and {{ID}}
//                           filled in; the type from the extension (FEED_TYPES) unless ?type= says otherwise

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startRawUpstream } from '../hostile/raw-upstream';

const FIXTURES = new URL('../fixtures/server/', import.meta.url);
const SIX_MB = 6 * 1024 * 1024;
const FEEDS = new URL('../fixtures/feeds/', import.meta.url);
const FIXTURE_PAGES = new URL('../fixtures/pages/', import.meta.url);

/**
 * Folder names of the fixture pages with their parsed expected.json (see test/suites/fixture-pages.ts) and their
 * golden markdown output, expected.md (null when not written yet; see dev/fixture-golden.ts).
 */
function fixturePages(): Array<{ name: string; expected: unknown; markdown: string | null }> {
  const read = (name: string, file: string): string | null => {
    const url = new URL(`${name}/${file}`, FIXTURE_PAGES);
    return existsSync(url) ? readFileSync(url, 'utf8') : null;
  };
  return readdirSync(FIXTURE_PAGES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/expected.json`, FIXTURE_PAGES)))
    .map((d) => d.name)
    .sort()
    .map((name) => ({ name, expected: JSON.parse(read(name, 'expected.json')!) as unknown, markdown: read(name, 'expected.md') }));
}
const FEED_TYPES: Record<string, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  rdf: 'application/rdf+xml',
  xml: 'text/xml',
  json: 'application/json',
};

/** How each encoded fixture announces its charset (header, <meta> or BOM). */
const ENCODED: Record<string, string> = {
  'windows-1251': 'text/html; charset=windows-1251', // header only
  shift_jis: 'text/html', // <meta charset="Shift_JIS"> only
  'iso-8859-1': 'text/html', // <meta http-equiv="Content-Type" ... charset=ISO-8859-1> only
  gbk: 'text/html; charset=GBK', // header only
  'utf-8-bom': 'text/html', // BOM only
};

// A 1x1 transparent PNG.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082', 'hex');

function bigHtml(): Buffer {
  const paragraph = '<p>' + 'All work and no play makes a very large page. '.repeat(20) + '</p>\n';
  const head = '<!doctype html><html><head><title>Big</title></head><body>\n';
  const body = paragraph.repeat(Math.ceil(SIX_MB / paragraph.length));
  return Buffer.from(head + body + '</body></html>\n');
}

function fixture(name: string, dir = ''): Buffer | null {
  if (!/^[a-z0-9_-]+$/i.test(name)) return null;
  try {
    return readFileSync(new URL(`${dir}${name}.html`, FIXTURES));
  } catch {
    return null;
  }
}

/** A feed fixture with its placeholders filled in; bytes other than the placeholders are kept (Latin-1 feeds too). */
function feedFixture(name: string, base: string, id: string): Buffer | null {
  if (!/^[a-z0-9_-]+\.[a-z]+$/i.test(name)) return null;
  try {
    const raw = readFileSync(new URL(name, FEEDS)).toString('latin1');
    return Buffer.from(raw.replaceAll('{{BASE}}', base).replaceAll('{{ID}}', id), 'latin1');
  } catch {
    return null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const big = bigHtml();
  const bigGzip = gzipSync(big);
  const hits = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, route = '', arg = ''] = url.pathname.split('/');
    const html = (body: Buffer | string, type = 'text/html; charset=utf-8', status = 200): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    switch (route) {
      case 'page': {
        const body = fixture(arg);
        return body === null ? html('<h1>not found</h1>', undefined, 404) : html(body);
      }
      case 'enc': {
        const body = fixture(arg, 'encodings/');
        return body === null || !(arg in ENCODED) ? html('<h1>not found</h1>', undefined, 404) : html(body, ENCODED[arg]);
      }
      case 'counted':
        hits.set(arg, (hits.get(arg) ?? 0) + 1);
        return html(fixture('article-blog') ?? '');
      case 'hits':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(String(hits.get(arg) ?? 0));
      case 'status':
        return html(`<h1>status ${arg}</h1>`, undefined, Number(arg));
      case 'redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        return void res.end();
      case 'chain': {
        const n = Number(arg);
        res.writeHead(302, { location: n > 1 ? `/chain/${n - 1}` : '/page/article-news' });
        return void res.end();
      }
      case 'slow-body': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write('<!doctype html><html><body><p>');
        const timer = setInterval(() => res.write('.'), 100);
        timers.add(timer);
        const stop = (): void => {
          clearInterval(timer);
          timers.delete(timer);
          res.end();
        };
        res.on('close', stop);
        setTimeout(stop, 60_000).unref();
        return;
      }
      case 'slow-headers': {
        const timer = setTimeout(() => html('<p>too late</p>'), 60_000);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'big':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); // chunked: no Content-Length
        for (let i = 0; i < big.length; i += 64 * 1024) res.write(big.subarray(i, i + 64 * 1024));
        return void res.end();
      case 'big-length':
        return html(big);
      case 'big-gzip':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': bigGzip.length });
        return void res.end(bigGzip);
      case 'image.png':
        return html(PNG, 'image/png');
      case 'no-type': {
        const body = fixture('article-news') ?? Buffer.from('');
        res.writeHead(200, { 'content-length': body.length });
        return void res.end(body);
      }
      case 'text':
        return html('Just some plain text, not a page.', 'text/plain; charset=utf-8');
      case 'xhtml':
        return html(fixture('article-news') ?? '', 'application/xhtml+xml');
      case 'fixture-pages': {
        if (!/^[a-z0-9-]+$/.test(arg) || !existsSync(new URL(`${arg}/source.html`, FIXTURE_PAGES))) {
          return html('<h1>not found</h1>', undefined, 404);
        }
        return html(readFileSync(new URL(`${arg}/source.html`, FIXTURE_PAGES)), 'text/html');
      }
      case 'feeds': {
        const body = feedFixture(arg, `http://${req.headers.host ?? '127.0.0.1'}`, url.searchParams.get('id') ?? 'x');
        const type = url.searchParams.get('type') ?? FEED_TYPES[arg.slice(arg.lastIndexOf('.') + 1)];
        return body === null || type === undefined ? html('<h1>not found</h1>', undefined, 404) : html(body, type);
      }
      default:
        return html('<h1>not found</h1>', undefined, 404);
    }
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('pageServerPort', port);
  project.provide('fixturePages', fixturePages());
  // The hostile corpus's raw socket upstream (test/hostile/raw-upstream.ts).
  const rawUpstream = await startRawUpstream();
  project.provide('rawServerPort', rawUpstream.port);

  return async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rawUpstream.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pageServerPort: number;
    fixturePages: Array<{ name: string; expected: unknown; markdown: string | null }>;
    rawServerPort: number;
  }
}
