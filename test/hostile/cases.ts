// The hostile corpus: one list of inputs an attacker (or a broken server) can hand pith, each with the outcome
// pith must give and a time budget. Nothing here is stored as megabytes: every input is generated.
//
// Two runners read this list:
//   test/node/hostile.test.ts      the library, in Node: every `html` case through extract()
//   test/workers/hostile.test.ts   the Worker, in workerd: `html` cases POSTed to /v1/extract, `upstream` cases
//                                  fetched from the raw socket server (test/hostile/raw-upstream.ts), `request`
//                                  cases sent as they are; after each case, GET /health must still answer 200.
//
// To add a case: append an object to CASES (names are unique, kebab-case; they appear in test names and in the
// README table). Fields:
//   name      kebab-case id; an `upstream` case is served at <raw server>/case/<name>
//   about     one line for the README table
//   defect    issue 11 defect number it reproduces, if any
//   input     what is sent (see Input below)
//   expect    'ok' (HTTP 200 / extract() resolves) or the PithError code (HTTP status from src/server/errors.ts)
//   worker    the Worker's outcome when it differs from `expect` (e.g. POST size caps)
//   budgetMs  wall-clock budget for the case, generous (a guard against hangs, not a speed test)
//   check     optional: more to assert on a successful result (returns a complaint, or undefined when fine)
//
// This module is imported by Node (runners, raw server) and by workerd (the Worker runner): it imports nothing
// platform-specific. Upstream behaviours get their tools (socket writes, gzip, ...) handed in as UpstreamIO.

import type { PithErrorCode } from '../../src/errors';

export type Outcome = 'ok' | PithErrorCode;

/** What an `upstream` case's server function can do with the connection (given by the Node raw server). */
export interface UpstreamIO {
  /** Writes bytes, or a string as Latin-1 (so header text is byte-exact). */
  write(data: Uint8Array | string): void;
  /** Writes the optional data, then closes the connection cleanly. */
  end(data?: Uint8Array | string): void;
  /** Closes the connection abruptly (RST), mid-reply if you like. */
  destroy(): void;
  sleep(ms: number): Promise<void>;
  gzip(data: Uint8Array | string): Uint8Array;
  deflate(data: Uint8Array | string): Uint8Array;
  deflateRaw(data: Uint8Array | string): Uint8Array;
  brotli(data: Uint8Array | string): Uint8Array;
  /** "http://127.0.0.1:<port>" of the raw server, for redirects. */
  base: string;
  /** The rest of the request path after /case/<name> ('' or '/...'), for multi-hop cases. */
  rest: string;
  /** The request head as received (request line and headers). */
  requestHead: string;
}

export type Input =
  /** HTML for the library; the Worker gets it as a text/html POST body. */
  | { kind: 'html'; html: () => string }
  /** A reply written byte by byte by a raw socket server; the Worker fetches it through `route`. */
  | { kind: 'upstream'; route?: 'extract' | 'feed'; serve: (io: UpstreamIO) => void | Promise<void> }
  /** A request sent to the Worker as it is (headers and body chosen by the case). */
  | { kind: 'request'; request: (ctx: { rawBase: string }) => Request | Promise<Request> };

export interface Result {
  /** Text output (library: extraction.text; Worker: the body of a text/plain answer or JSON `text`). */
  text: string;
  markdown?: string;
  html?: string;
}

export interface HostileCase {
  name: string;
  about: string;
  defect?: number;
  input: Input;
  expect: Outcome;
  worker?: Outcome;
  budgetMs: number;
  check?: (result: Result) => string | undefined;
}

// ---- builders ----

const ARTICLE_PARAGRAPH =
  '<p>The council voted on Tuesday to extend the tram line to the harbour, after three years of studies and a public ' +
  'consultation that drew more than four thousand replies from residents of the eastern districts.</p>';

/** A small ordinary article page with `inject` inside its article (hostile bits go there). */
export function articlePage(inject = '', title = 'Tram line to the harbour'): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>` +
    `<nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>${title}</h1>` +
    ARTICLE_PARAGRAPH.repeat(6) + inject + ARTICLE_PARAGRAPH.repeat(2) + '</article><footer>© City Paper</footer></body></html>';
}

/** An HTTP/1.1 reply head; `headers` as [name, value] pairs, written exactly as given. */
export function head(status: string, headers: Array<[string, string]>): string {
  return `HTTP/1.1 ${status}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

const enc = new TextEncoder();
function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? enc.encode(data) : data;
}

/** A complete reply with Content-Length. */
function reply(io: UpstreamIO, body: Uint8Array | string, headers: Array<[string, string]>, status = '200 OK'): void {
  const bytes = bytesOf(body);
  io.write(head(status, [...headers, ['Content-Length', String(bytes.byteLength)], ['Connection', 'close']]));
  io.end(bytes);
}

/** A complete chunked reply, one chunk. */
function chunked(io: UpstreamIO, body: Uint8Array | string, headers: Array<[string, string]>): void {
  const bytes = bytesOf(body);
  io.write(head('200 OK', [...headers, ['Transfer-Encoding', 'chunked'], ['Connection', 'close']]));
  io.write(`${bytes.byteLength.toString(16)}\r\n`);
  io.write(bytes);
  io.end('\r\n0\r\n\r\n');
}

const HTML: Array<[string, string]> = [['Content-Type', 'text/html; charset=utf-8']];
const MB = 1024 * 1024;

// ---- the corpus ----

export const CASES: HostileCase[] = [
  // -- compressed replies (defect 1 and bombs) --
  {
    name: 'corrupt-gzip-chunked',
    about: 'chunked reply labelled gzip whose body is not gzip',
    defect: 1,
    input: { kind: 'upstream', serve: (io) => chunked(io, 'hello', [...HTML, ['Content-Encoding', 'gzip']]) },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'corrupt-gzip-length',
    about: 'reply with Content-Length labelled gzip whose body is not gzip',
    defect: 1,
    input: { kind: 'upstream', serve: (io) => reply(io, 'hello', [...HTML, ['Content-Encoding', 'gzip']]) },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'corrupt-br-chunked',
    about: 'chunked reply labelled br whose body is not brotli',
    defect: 1,
    input: { kind: 'upstream', serve: (io) => chunked(io, 'hello', [...HTML, ['Content-Encoding', 'br']]) },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'truncated-gzip',
    about: 'a gzip page cut off in the middle of its stream',
    input: {
      kind: 'upstream',
      serve: (io) => {
        const z = io.gzip(articlePage());
        chunked(io, z.subarray(0, Math.floor(z.byteLength / 2)), [...HTML, ['Content-Encoding', 'gzip']]);
      },
    },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'gzip-page',
    about: 'an ordinary gzip page (control: decoding works)',
    input: { kind: 'upstream', serve: (io) => chunked(io, io.gzip(articlePage()), [...HTML, ['Content-Encoding', 'gzip']]) },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'deflate-page',
    about: 'an ordinary zlib-deflate page is decoded, not served as binary',
    defect: 6,
    input: { kind: 'upstream', serve: (io) => chunked(io, io.deflate(articlePage()), [...HTML, ['Content-Encoding', 'deflate']]) },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'raw-deflate-page',
    about: 'a raw (headerless) deflate page labelled deflate is decoded too',
    defect: 6,
    input: { kind: 'upstream', serve: (io) => reply(io, io.deflateRaw(articlePage()), [...HTML, ['Content-Encoding', 'deflate']]) },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'gzip-bomb',
    about: '32 MB of zeros gzip-compressed (32 kB on the wire)',
    input: {
      kind: 'upstream',
      serve: (io) => chunked(io, io.gzip(new Uint8Array(32 * MB)), [...HTML, ['Content-Encoding', 'gzip']]),
    },
    expect: 'upstream_too_large',
    budgetMs: 20_000,
  },
  {
    name: 'deflate-bomb',
    about: '32 MB of spaces deflate-compressed (32 kB on the wire)',
    input: {
      kind: 'upstream',
      serve: (io) => chunked(io, io.deflate(new Uint8Array(32 * MB).fill(0x20)), [...HTML, ['Content-Encoding', 'deflate']]),
    },
    expect: 'upstream_too_large',
    budgetMs: 20_000,
  },
  {
    name: 'brotli-page',
    about: 'brotli, which pith does not ask for (workerd has no brotli DecompressionStream)',
    input: { kind: 'upstream', serve: (io) => chunked(io, io.brotli(articlePage()), [...HTML, ['Content-Encoding', 'br']]) },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },

  // -- truncated and lying upstreams --
  {
    name: 'lying-content-length',
    about: 'declares Content-Length 4,000,000, sends a few bytes and closes',
    defect: 6,
    input: {
      kind: 'upstream',
      serve: async (io) => {
        io.write(head('200 OK', [...HTML, ['Content-Length', '4000000']]));
        io.write('<!doctype html><p>short');
        await io.sleep(50);
        io.end();
      },
    },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'reset-mid-body',
    about: 'connection reset in the middle of a chunked body',
    input: {
      kind: 'upstream',
      serve: async (io) => {
        io.write(head('200 OK', [...HTML, ['Transfer-Encoding', 'chunked']]));
        io.write('400\r\n<!doctype html><p>');
        await io.sleep(50);
        io.destroy();
      },
    },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
];

/** The case of a name (the raw server looks cases up by the path). */
export function caseNamed(name: string): HostileCase | undefined {
  return CASES.find((c) => c.name === name);
}
