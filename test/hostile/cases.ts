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
// docs/hostile-input.md, npm run docs:hostile). Fields:
//   name      kebab-case id; an `upstream` case is served at <raw server>/case/<name>
//   about     one line for the table of docs/hostile-input.md
//   defect    issue 11 defect number it reproduces, if any
//   input     what is sent (see Input below)
//   expect    'ok' (HTTP 200 / extract() resolves with text) or the PithError code (HTTP status from
//             src/hosts/worker/errors.ts); 'no_content' when the extraction is empty (the Worker's 422, the library's
//             empty text). A list means any of them is right (when the model decides between 'ok' and 'no_content').
//   worker    the Worker's outcome when it differs from `expect` (e.g. POST size caps)
//   budgetMs  wall-clock budget for the case, generous (a guard against hangs, not a speed test)
//   vars      Worker bindings for this case only (e.g. a short PITH_FETCH_TIMEOUT_MS so a slow upstream case is quick)
//   check     optional: more to assert on a successful result (returns a complaint, or undefined when fine)
//
// This module is imported by Node (runners, raw server) and by workerd (the Worker runner): it imports nothing
// platform-specific. Upstream behaviours get their tools (socket writes, gzip, ...) handed in as UpstreamIO.

import type { PithErrorCode } from '../../src/errors.js';

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
  /** `mib` MiB of spaces as a raw deflate, zlib or gzip bomb (dev/bombs.ts; trailers not computed). */
  bomb(mib: number, wrap: 'raw' | 'zlib' | 'gzip'): Promise<Uint8Array>;
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
  | {
      kind: 'request';
      request: (ctx: { rawBase: string }) => Request | Promise<Request>;
      /** Requests sent first, their answers ignored (e.g. to spend a rate-limit bucket). */
      before?: () => Request[];
    };

export interface Result {
  /** Text output (library: extraction.text; Worker: the body of a text/plain answer or JSON `text`). */
  text: string;
  /** The Worker's answer headers (`request` cases), lower-case names. */
  headers?: Record<string, string>;
  markdown?: string;
  html?: string;
}

export interface HostileCase {
  name: string;
  about: string;
  defect?: number;
  input: Input;
  expect: Outcome | readonly Outcome[];
  worker?: Outcome | readonly Outcome[];
  budgetMs: number;
  vars?: Record<string, string>;
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

/** A server that drops (with `drop`) every other connection before answering, the first included, and answers the rest. */
function dropEveryOther(drop: (io: UpstreamIO) => void): (io: UpstreamIO) => void {
  let dropNext = true;
  return (io) => {
    const dropping = dropNext;
    dropNext = !dropNext;
    if (dropping) drop(io);
    else reply(io, articlePage(), HTML);
  };
}
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
  // A 1 MB body that decodes to 1,000 MiB: the decoder must stop at the cap, not after inflating it all.
  ...(['zlib', 'raw', 'gzip'] as const).map((wrap): HostileCase => ({
    name: `${wrap === 'gzip' ? 'x-gzip' : wrap === 'raw' ? 'raw-deflate' : 'deflate'}-bomb-1000-mib`,
    about: `1,000 MiB of spaces in a 1 MB ${wrap === 'gzip' ? 'x-gzip' : wrap === 'raw' ? 'raw deflate' : 'zlib deflate'} reply (decoded by pith, not the runtime)`,
    input: {
      kind: 'upstream',
      serve: async (io) => chunked(io, await io.bomb(1000, wrap), [...HTML, ['Content-Encoding', wrap === 'gzip' ? 'x-gzip' : 'deflate']]),
    },
    expect: 'upstream_too_large',
    budgetMs: 5_000,
  })),
  {
    name: 'brotli-page',
    about: 'an ordinary brotli page (decoded by the runtime)',
    input: { kind: 'upstream', serve: (io) => chunked(io, io.brotli(articlePage()), [...HTML, ['Content-Encoding', 'br']]) },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'brotli-bomb',
    about: '32 MB of zeros brotli-compressed',
    input: { kind: 'upstream', serve: (io) => chunked(io, io.brotli(new Uint8Array(32 * MB)), [...HTML, ['Content-Encoding', 'br']]) },
    expect: 'upstream_too_large',
    budgetMs: 20_000,
  },
  {
    name: 'x-gzip-page',
    about: 'an ordinary page labelled x-gzip (decoded by pith)',
    input: { kind: 'upstream', serve: (io) => chunked(io, io.gzip(articlePage()), [...HTML, ['Content-Encoding', 'x-gzip']]) },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'unknown-coding',
    about: 'Content-Encoding: zstd, which pith cannot decode',
    input: { kind: 'upstream', serve: (io) => chunked(io, 'not really zstd', [...HTML, ['Content-Encoding', 'zstd']]) },
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

  {
    name: 'close-first-connection',
    about: 'closes the first connection without answering, answers the next (an idle keep-alive dropped): retried once',
    input: { kind: 'upstream', serve: dropEveryOther((io) => io.end()) },
    expect: 'ok',
    budgetMs: 10_000,
  },
  {
    name: 'reset-first-connection',
    about: 'resets the first connection without answering, answers the next: retried once',
    input: { kind: 'upstream', serve: dropEveryOther((io) => io.destroy()) },
    expect: 'ok',
    budgetMs: 10_000,
  },

  {
    name: 'endless-chunked-body',
    about: 'a chunked body that never ends (64 kB chunks as fast as the socket takes them)',
    input: {
      kind: 'upstream',
      serve: async (io) => {
        io.write(head('200 OK', [...HTML, ['Transfer-Encoding', 'chunked']]));
        const chunk = `10000\r\n${'<p>more and more</p>'.repeat(3277).slice(0, 0x10000)}\r\n`;
        for (let i = 0; i < 400; i++) {
          io.write(chunk);
          await io.sleep(1);
        }
        io.end('0\r\n\r\n');
      },
    },
    expect: 'upstream_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'huge-declared-length',
    about: 'declares Content-Length 50 MB: refused before reading',
    input: { kind: 'upstream', serve: (io) => io.end(head('200 OK', [...HTML, ['Content-Length', String(50 * MB)]])) },
    expect: 'upstream_too_large',
    budgetMs: 10_000,
  },
  {
    name: 'slow-drip-body',
    about: 'headers at once, then one byte every 100 ms (deadline 1.5 s here)',
    input: {
      kind: 'upstream',
      serve: async (io) => {
        io.write(head('200 OK', [...HTML, ['Transfer-Encoding', 'chunked']]));
        for (let i = 0; i < 300; i++) {
          io.write('1\r\n.\r\n');
          await io.sleep(100);
        }
        io.end('0\r\n\r\n');
      },
    },
    vars: { PITH_FETCH_TIMEOUT_MS: '1500' },
    expect: 'upstream_timeout',
    budgetMs: 8_000,
  },
  {
    name: 'slow-headers',
    about: 'never sends the status line (deadline 1.5 s here)',
    input: { kind: 'upstream', serve: (io) => io.sleep(30_000).then(() => io.destroy()) },
    vars: { PITH_FETCH_TIMEOUT_MS: '1500' },
    expect: 'upstream_timeout',
    budgetMs: 8_000,
  },
  {
    name: 'garbage-status-line',
    about: 'answers with bytes that are not HTTP',
    input: { kind: 'upstream', serve: (io) => io.end('SSH-2.0-OpenSSH_9.6\r\n\u0000\u0001\u0002') },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'binary-labelled-html',
    about: '4 MB of random bytes labelled text/html (sniffed: 415)',
    defect: 6,
    input: {
      kind: 'upstream',
      serve: (io) => {
        const bytes = new Uint8Array(4 * MB);
        let x = 0x2545f491;
        for (let i = 0; i < bytes.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          bytes[i] = x & 0xff;
        }
        reply(io, bytes, HTML);
      },
    },
    expect: 'not_html',
    budgetMs: 10_000,
  },
  {
    name: 'png-labelled-html',
    about: 'a PNG image labelled text/html (sniffed: 415)',
    defect: 6,
    input: {
      kind: 'upstream',
      serve: (io) => reply(io, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array<number>(64).fill(0)]), HTML),
    },
    expect: 'not_html',
    budgetMs: 10_000,
  },

  // -- redirects --
  {
    name: 'redirect-loop',
    about: 'redirects to itself forever',
    input: { kind: 'upstream', serve: (io) => reply(io, '', [['Location', `${io.base}/case/redirect-loop${io.rest}/x`]], '302 Found') },
    expect: 'upstream_error',
    budgetMs: 10_000,
  },
  {
    name: 'redirect-to-metadata',
    about: 'redirects to the cloud metadata address 169.254.169.254',
    input: { kind: 'upstream', serve: (io) => reply(io, '', [['Location', 'http://169.254.169.254/latest/meta-data/']], '302 Found') },
    expect: 'blocked_target',
    budgetMs: 10_000,
  },
  {
    name: 'redirect-to-translated-v4',
    about: 'redirects to [::ffff:0:a00:1] (IPv4-translated 10.0.0.1)',
    defect: 7,
    input: { kind: 'upstream', serve: (io) => reply(io, '', [['Location', 'http://[::ffff:0:a00:1]/']], '302 Found') },
    expect: 'blocked_target',
    budgetMs: 10_000,
  },
  {
    name: 'redirect-to-local-nat64',
    about: 'redirects to [64:ff9b:1::a00:1] (local-use NAT64)',
    defect: 7,
    input: { kind: 'upstream', serve: (io) => reply(io, '', [['Location', 'http://[64:ff9b:1::a00:1]/']], '302 Found') },
    expect: 'blocked_target',
    budgetMs: 10_000,
  },

  // -- feeds --
  {
    name: 'feed-billion-laughs',
    about: 'an RSS feed whose DOCTYPE defines nested entities ("billion laughs")',
    input: {
      kind: 'upstream',
      route: 'feed',
      serve: (io) => {
        let dtd = '<!ENTITY lol "lol">';
        for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
        const feed = `<?xml version="1.0"?><!DOCTYPE rss [${dtd}]><rss version="2.0"><channel><title>&lol9;</title>` +
          `<link>${io.base}/</link><description>d</description><item><title>&lol9;</title><description>&lol9;</description></item></channel></rss>`;
        reply(io, feed, [['Content-Type', 'application/rss+xml']]);
      },
    },
    expect: 'ok',
    budgetMs: 15_000,
    check: (r) => (r.text.length < 100_000 ? undefined : `the feed answer is ${r.text.length} characters: entities were expanded`),
  },
  {
    name: 'feed-item-nested-too-deep',
    about: 'an RSS item nested 150 elements deep, past the XML parser\'s depth limit',
    input: {
      kind: 'upstream',
      route: 'feed',
      serve: (io) => {
        const deep = '<x>'.repeat(150) + 'deep' + '</x>'.repeat(150);
        reply(io, `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>${io.base}/</link><description>d</description><item><title>a</title><link>${io.base}/a</link><description>${deep}</description></item></channel></rss>`, [['Content-Type', 'application/rss+xml']]);
      },
    },
    expect: 'invalid_feed',
    budgetMs: 10_000,
  },
  {
    name: 'feed-of-hostile-articles',
    about: 'a feed whose items link to hostile upstreams (corrupt gzip, reset, lying length, bomb)',
    input: {
      kind: 'upstream',
      route: 'feed',
      serve: (io) => {
        const items = ['corrupt-gzip-chunked', 'reset-mid-body', 'lying-content-length', 'gzip-bomb', 'gzip-page']
          .map((name) => `<item><title>${name}</title><link>${io.base}/case/${name}</link><description>teaser</description></item>`)
          .join('');
        reply(io, `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>${io.base}/</link><description>d</description>${items}</channel></rss>`, [['Content-Type', 'application/rss+xml']]);
      },
    },
    expect: 'ok',
    budgetMs: 25_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the one good article was not filled in'),
  },

  // -- hostile HTML (library: extract(); Worker: POST /v1/extract) --
  {
    name: 'deep-nesting',
    about: '100,000 nested <div>s',
    input: { kind: 'html', html: () => '<div>'.repeat(100_000) + 'deep' + '</div>'.repeat(100_000) },
    expect: 'input_too_large',
    budgetMs: 10_000,
  },
  {
    name: 'bad-end-tags',
    about: "'<div></x>' x 200,000 (1.8 MB): end tags that close nothing, so the divs nest",
    defect: 2,
    input: { kind: 'html', html: () => '<div></x>'.repeat(200_000) },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'self-closing-divs',
    about: "'<div/>' x 100,000: the slash does not close a div, so they nest",
    defect: 2,
    input: { kind: 'html', html: () => '<div/>'.repeat(100_000) },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'implied-end-tags',
    about: "'<p><li>' x 50,000: each <li> closes the <p> and <li> before it (WHATWG), so the tree stays flat; cut at the element budget",
    defect: 2,
    input: { kind: 'html', html: () => '<p><li>'.repeat(50_000) },
    expect: ['ok', 'no_content'],
    budgetMs: 15_000,
  },
  {
    name: 'million-paragraphs',
    about: "'<p>a' x 1,000,000 (4 MB): a million elements",
    defect: 3,
    input: { kind: 'html', html: () => '<p>a'.repeat(1_000_000) },
    expect: ['ok', 'no_content'], // cut at the element budget; what is left is one-letter paragraphs
    budgetMs: 40_000,
  },
  {
    name: 'million-br',
    about: "'<br>' x 1,000,000 (4 MB)",
    defect: 3,
    input: { kind: 'html', html: () => '<br>'.repeat(1_000_000) },
    expect: ['ok', 'no_content'],
    budgetMs: 40_000,
  },
  {
    name: 'entity-flood-5mb',
    about: "'&amp;' x 1,000,000 (5 MB of character references)",
    defect: 3,
    input: { kind: 'html', html: () => '&amp;'.repeat(1_000_000) },
    expect: ['ok', 'no_content'],
    budgetMs: 40_000,
  },
  {
    name: 'huge-class-attribute',
    about: 'one class attribute with 150,000 tokens (1.1 MB)',
    defect: 4,
    input: { kind: 'html', html: () => `<p class="${Array.from({ length: 150_000 }, (_, i) => `c${i}`).join(' ')}">hello world</p>` },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'giant-text-node',
    about: 'one 3 MB text node in an article',
    input: { kind: 'html', html: () => articlePage(`<p>${'lorem ipsum dolor sit amet '.repeat(116_000)}</p>`) },
    expect: ['ok', 'no_content'], // the model may drop everything next to a 3 MB block: a value, not a failure
    budgetMs: 30_000,
  },
  {
    name: 'link-href-flood',
    about: '20,000 teaser links to article-shaped paths, each href 120 characters (page features read every href)',
    input: {
      kind: 'html',
      html: () => articlePage(`<ul>${Array.from({ length: 20_000 }, (_, i) => `<li><a href="/news/2024/05/${'story-slug-'.repeat(10)}${i}">Other story ${i}</a></li>`).join('')}</ul>`),
    },
    expect: ['ok', 'no_content'],
    budgetMs: 30_000,
  },
  {
    name: 'headline-flood',
    about: 'a 100 KB <title> and og:title, repeated as 20 headings (the page stage looks for the headline among the blocks)',
    input: {
      kind: 'html',
      html: () => {
        const title = 'Tram line to the harbour '.repeat(4_000);
        return articlePage(`<meta property="og:title" content="${title}">` + `<h2>${title}</h2>`.repeat(20), title);
      },
    },
    expect: ['ok', 'no_content'],
    budgetMs: 30_000,
  },
  {
    name: 'entity-flood',
    about: '1 MB of character references (&amp; &#169; &eacute;)',
    input: { kind: 'html', html: () => articlePage(`<p>${'&amp; &#169; &eacute; '.repeat(45_000)}</p>`) },
    expect: 'ok',
    budgetMs: 30_000,
  },
  {
    name: 'attribute-flood',
    about: 'one element with 50,000 attributes',
    input: { kind: 'html', html: () => articlePage(`<div ${Array.from({ length: 50_000 }, (_, i) => `data-a${i}="v"`).join(' ')}>x</div>`) },
    expect: 'ok',
    budgetMs: 30_000,
  },
  {
    name: 'nul-bytes',
    about: 'U+0000 inside text, attributes and the title',
    defect: 6,
    input: { kind: 'html', html: () => articlePage('<p title="a\u0000b">Null\u0000bytes\u0000 in the middle of the tram story, repeated for length and weight.</p>', 'Tram\u0000line') },
    expect: 'ok',
    budgetMs: 15_000,
    check: (r) => {
      for (const [what, out] of Object.entries(r)) if (typeof out === 'string' && out.includes('\u0000')) return `U+0000 reached the ${what} output`;
      return r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing';
    },
  },
  {
    name: 'lone-surrogates',
    about: 'unpaired UTF-16 surrogates in text and attributes',
    input: { kind: 'html', html: () => articlePage('<p data-x="\uD800">Broken \uDC00 surrogates \uD83D here, in the tram line article text body.</p>') },
    expect: 'ok',
    budgetMs: 15_000,
  },
  {
    name: 'many-empty-tags',
    about: '200,000 empty <span></span> pairs (2.6 MB)',
    input: { kind: 'html', html: () => articlePage('<span></span>'.repeat(200_000)) },
    expect: 'ok',
    budgetMs: 30_000,
  },
  {
    name: 'unclosed-comment',
    about: 'a page that opens a comment and never closes it',
    input: { kind: 'html', html: () => articlePage('<!--' + ' never closed '.repeat(10_000)) },
    expect: 'ok',
    budgetMs: 15_000,
  },

  // -- parser bounds (issue 11, defects 2-3), beyond the cases above: the pre-scan (src/core/parse/markup-scan.ts) also
  //    bounds the parser's stack work, and a page cut at a budget keeps what came before the cut --
  {
    name: 'deep-then-unmatched',
    about: '4,000 nested <div>s (under the depth limit), then 500,000 end tags that close nothing: depth x tags',
    defect: 2,
    input: { kind: 'html', html: () => '<div>'.repeat(4_000) + '</x>'.repeat(500_000) },
    expect: 'input_too_large',
    budgetMs: 10_000,
  },
  {
    name: 'svg-self-closing-flood',
    about: "'<svg/>' x 300,000 inside <svg>: the parser's foreign-content stack grows with each (quadratic)",
    defect: 2,
    input: { kind: 'html', html: () => '<svg><svg>' + '<svg/>'.repeat(300_000) },
    expect: 'input_too_large',
    budgetMs: 10_000,
  },
  {
    name: 'million-br-in-article',
    about: "an article, then '<br>' x 1,000,000: cut at 40,000 elements, the article kept",
    defect: 3,
    input: { kind: 'html', html: () => articlePage('<br>'.repeat(1_000_000)) },
    expect: 'ok',
    budgetMs: 40_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article before the cut is missing'),
  },
  // -- hostile requests to the Worker --
  {
    name: 'post-gzip-body',
    about: 'POST text/html with Content-Encoding: gzip (decoded)',
    defect: 6,
    input: {
      kind: 'request',
      request: async () => {
        const gz = await new Response(new Blob([articlePage()]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
        return new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gz });
      },
    },
    expect: 'ok',
    budgetMs: 15_000,
    check: (r) => (r.text.includes('tram line to the harbour') ? undefined : 'the article text is missing'),
  },
  {
    name: 'post-gzip-bomb',
    about: 'POST of 64 MB of zeros gzip-compressed',
    input: {
      kind: 'request',
      request: async () => {
        const gz = await new Response(new Blob([new Uint8Array(64 * MB)]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
        return new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gz });
      },
    },
    expect: 'input_too_large',
    budgetMs: 20_000,
  },
  ...(['zlib', 'gzip'] as const).map((wrap): HostileCase => ({
    name: `post-${wrap === 'zlib' ? 'deflate' : 'gzip'}-bomb-1000-mib`,
    about: `POST of a 1 MB ${wrap === 'zlib' ? 'deflate' : 'gzip'} body that decodes to 1,000 MiB of spaces`,
    input: {
      kind: 'request',
      request: async ({ rawBase }) => {
        const body = await (await fetch(`${rawBase}/bomb/${wrap}/1000`)).arrayBuffer();
        return new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html', 'content-encoding': wrap === 'zlib' ? 'deflate' : 'gzip' }, body });
      },
    },
    expect: 'input_too_large',
    budgetMs: 5_000,
  })),
  {
    name: 'post-corrupt-gzip',
    about: 'POST labelled gzip whose body is plain HTML',
    defect: 6,
    input: {
      kind: 'request',
      request: () => new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: articlePage() }),
    },
    expect: 'invalid_input',
    budgetMs: 10_000,
  },
  {
    name: 'post-br-body',
    about: 'POST with Content-Encoding: br (refused clearly)',
    defect: 6,
    input: {
      kind: 'request',
      request: () => new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html', 'content-encoding': 'br' }, body: 'whatever' }),
    },
    expect: 'invalid_input',
    budgetMs: 10_000,
  },
  {
    name: 'post-binary-as-html',
    about: 'POST of PDF bytes labelled text/html (sniffed: 415)',
    defect: 6,
    input: {
      kind: 'request',
      request: () => new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj <<>> endobj\n') }),
    },
    expect: 'not_html',
    budgetMs: 10_000,
  },
  {
    name: 'post-slow-body',
    about: 'POST whose body arrives one byte every 100 ms (deadline 1.5 s here)',
    defect: 6,
    input: {
      kind: 'request',
      request: () => {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            if (sent++ > 300) controller.close();
            else controller.enqueue(new Uint8Array([0x20]));
          },
        });
        return new Request('https://pith.test/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body, duplex: 'half' } as RequestInit);
      },
    },
    vars: { PITH_FETCH_TIMEOUT_MS: '1500' },
    expect: 'request_timeout',
    budgetMs: 8_000,
  },
  {
    name: 'html-answer-with-script',
    about: 'format=html of a page with inline script, event handlers and a javascript: link: answered with a strict CSP',
    input: {
      kind: 'request',
      request: () =>
        new Request('https://pith.test/v1/extract?format=html', {
          method: 'POST',
          headers: { 'content-type': 'text/html' },
          body: articlePage('<p>See <a href="javascript:alert(1)">this</a><img src="x" onerror="alert(2)"><script>alert(3)</script></p>'),
        }),
    },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => {
      const csp = r.headers?.['content-security-policy'] ?? '';
      for (const part of ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) if (!csp.includes(part)) return `the html answer's CSP "${csp}" lacks ${part}`;
      return /script-src|'unsafe-eval'/.test(csp) ? `the CSP allows scripts: ${csp}` : undefined;
    },
  },
  {
    name: 'debug-answer-csp',
    about: 'format=debug (the HTML debug view) carries the same strict CSP',
    input: {
      kind: 'request',
      request: () =>
        new Request('https://pith.test/v1/extract?format=debug', { method: 'POST', headers: { 'content-type': 'text/html' }, body: articlePage('<script>alert(1)</script>') }),
    },
    expect: 'ok',
    budgetMs: 10_000,
    check: (r) => ((r.headers?.['content-security-policy'] ?? '').includes("default-src 'none'") ? undefined : `no strict CSP on the debug view: ${r.headers?.['content-security-policy']}`),
  },
  {
    name: 'rate-limit-ipv4-mapped',
    about: 'rate limit 1/min: a client at ::ffff:198.51.100.77 spends its bucket; ::ffff:203.0.113.77 is another client',
    input: {
      kind: 'request',
      before: () => [postFrom('::ffff:198.51.100.77'), postFrom('::ffff:198.51.100.77')],
      request: () => postFrom('::ffff:203.0.113.77'),
    },
    vars: { PITH_RATE_LIMIT_PER_MIN: '1' },
    expect: 'ok',
    budgetMs: 10_000,
  },
  // ---- the jobs API (issue 12): a new input path, so it gets its hostile cases ----
  {
    name: 'job-not-json',
    about: 'POST /v1/jobs with a body that is not JSON',
    input: { kind: 'request', request: () => jobRequest('{"urls": ["http://a.example/"') },
    expect: 'invalid_input',
    budgetMs: 10_000,
  },
  {
    name: 'job-deeply-nested-json',
    about: 'POST /v1/jobs with 1,000,000 nested JSON arrays (2 MB)',
    input: { kind: 'request', request: () => jobRequest('['.repeat(1_000_000) + ']'.repeat(1_000_000)) },
    expect: 'invalid_input',
    budgetMs: 15_000,
  },
  {
    name: 'job-too-many-urls',
    about: 'POST /v1/jobs with 10,001 URLs, one more than a job takes',
    input: {
      kind: 'request',
      request: () => jobRequest(JSON.stringify({ urls: Array.from({ length: 10_001 }, (_, i) => `http://127.0.0.1:9/p/${i}`) })),
    },
    expect: 'invalid_input',
    budgetMs: 15_000,
  },
  {
    name: 'job-huge-body',
    about: 'POST /v1/jobs with a 6 MB body, over the request size cap',
    input: { kind: 'request', request: () => jobRequest(JSON.stringify({ urls: ['http://127.0.0.1:9/a'], pad: 'x'.repeat(6 * MB) })) },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'job-20mb-streamed-body',
    about: 'POST /v1/jobs with a 20 MB body sent without Content-Length (chunked), counted as it arrives',
    input: {
      kind: 'request',
      request: () => {
        let sent = 0;
        const piece = new TextEncoder().encode('x'.repeat(MB));
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode('{"urls": ["http://127.0.0.1:9/a"], "pad": "'));
            if (sent++ >= 20) controller.close();
            else controller.enqueue(piece);
          },
        });
        return new Request('https://pith.test/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
      },
    },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'job-refused-url',
    about: 'POST /v1/jobs naming the cloud metadata address: refused and listed, no job created',
    input: { kind: 'request', request: () => jobRequest(JSON.stringify({ urls: ['http://169.254.169.254/latest/meta-data/'] })) },
    expect: 'invalid_url',
    budgetMs: 10_000,
  },
  // The drop-in interfaces (src/hosts/worker/compat/routes.ts): every new input path.
  getCase('mercury-no-url', 'GET /parser without url (Mercury error shape, 400)', '/parser', 'invalid_url'),
  getCase('mercury-private-url', 'GET /parser?url= of a private address, unencoded as the plugins send it', '/parser?url=http://10.0.0.1/admin?x=1&y=2', 'blocked_target'),
  {
    name: 'mercury-redirect-to-private',
    about: 'GET /parser?url= of a page that redirects to the cloud metadata address (the redirect-to-metadata upstream)',
    input: { kind: 'request', request: ({ rawBase }) => new Request(`https://pith.test/parser?url=${rawBase}/case/redirect-to-metadata`) },
    expect: 'blocked_target',
    budgetMs: 10_000,
  },
  {
    name: 'readability-post-huge-body',
    about: 'POST /readability with an 8 MB JSON body, over the body cap',
    input: { kind: 'request', request: () => new Request('https://pith.test/readability', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/', pad: 'x'.repeat(8 * MB) }) }) },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'readability-post-no-url',
    about: 'POST /readability with a JSON body that names no url',
    input: { kind: 'request', request: () => new Request('https://pith.test/readability', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"href": 1}' }) },
    expect: 'invalid_url',
    budgetMs: 5_000,
  },
  {
    name: 'ftr-extract-huge-inputhtml',
    about: 'POST extract.php with an 8 MB inputhtml form field',
    input: { kind: 'request', request: () => new Request('https://pith.test/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `inputhtml=${'<p>x</p>'.repeat(MB)}` }) },
    expect: 'input_too_large',
    budgetMs: 15_000,
  },
  {
    name: 'ftr-extract-gzip-bomb',
    about: 'POST extract.php with a 1,000 MiB gzip bomb as its form body',
    input: {
      kind: 'request',
      request: async ({ rawBase }) => {
        const body = await (await fetch(`${rawBase}/bomb/gzip/1000`)).arrayBuffer();
        return new Request('https://pith.test/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body });
      },
    },
    expect: 'input_too_large',
    budgetMs: 10_000,
  },
  {
    name: 'ftr-extract-binary-inputhtml',
    about: 'POST extract.php whose inputhtml is a PDF',
    input: { kind: 'request', request: () => new Request('https://pith.test/extract.php', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `inputhtml=${encodeURIComponent('%PDF-1.7\n' + 'x'.repeat(2000))}` }) },
    expect: 'not_html',
    budgetMs: 5_000,
  },
  {
    name: 'ftr-extract-broken-multipart',
    about: 'POST extract.php labelled multipart/form-data with a body that is not',
    input: { kind: 'request', request: () => new Request('https://pith.test/extract.php', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zzz' }, body: 'not a multipart body' }) },
    expect: 'invalid_input',
    budgetMs: 5_000,
  },
  getCase('ftr-feed-private-url', 'GET makefulltextfeed.php?url= of a private address', '/makefulltextfeed.php?url=http%3A%2F%2F192.168.1.1%2Ffeed', 'blocked_target'),
  getCase('ftr-feed-bad-max', 'GET makefulltextfeed.php with max=-1', '/makefulltextfeed.php?url=http%3A%2F%2F127.0.0.1%3A9%2Ffeed&max=-1', 'invalid_input'),
];

/** A small POST /v1/extract from the client address `ip` (CF-Connecting-IP). */
function postFrom(ip: string): Request {
  return new Request('https://pith.test/v1/extract?format=text', { method: 'POST', headers: { 'content-type': 'text/html', 'cf-connecting-ip': ip }, body: articlePage() });
}

/** A GET of `path` on the Worker that must answer `expect` (the drop-in routes' simple refusals). */
function getCase(name: string, about: string, path: string, expect: Outcome): HostileCase {
  return { name, about, input: { kind: 'request', request: () => new Request(`https://pith.test${path}`) }, expect, budgetMs: 5_000 };
}

function jobRequest(body: string): Request {
  return new Request('https://pith.test/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

/** The outcomes a case accepts, for a runner ('worker' or 'library'). */
export function expectedOutcomes(c: HostileCase, runner: 'worker' | 'library'): readonly Outcome[] {
  const e = runner === 'worker' ? (c.worker ?? c.expect) : c.expect;
  return typeof e === 'string' ? [e] : e;
}

/** The case of a name (the raw server looks cases up by the path). */
export function caseNamed(name: string): HostileCase | undefined {
  return CASES.find((c) => c.name === name);
}
