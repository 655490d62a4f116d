/// <reference types="node" />
// Generated article pages for the bulk-job tests, the WARC fixture and the local 1,000-URL walkthrough, and a page
// server for them on 127.0.0.1. Every page is a function of its path (seeded PRNG), so two runs serve the same bytes.
//
// Routes (GET):
//   /robots.txt              allows pith everywhere except /private/ (a "refusing" server disallows everything)
//   /a/<n>                   a distinct article (n: 0..1e6)
//   /dup/<g>/<k>             article of near-duplicate group g, variant k: one sentence of twenty differs
//   /status/<code>/<n>       answers <code>                   /flaky/<n>   503 on the first request, then an article
//   /slow/<ms>/<n>           an article after <ms> ms         /hang/<n>    headers after 60 s (time-out)
//   /image/<n>.png           a PNG                            /text/<n>    text/plain
//   /redirect/<n>            302 to /a/<500000+n>             /redirect-private/<n>   302 to http://10.0.0.1/
//   /private/<n>             an article robots.txt forbids    /empty/<n>   a page with no text
//   /hits                    JSON {path: count} of every request so far (robots.txt included)
//   /fixture.warc.gz         test/fixtures/warc/pages.warc.gz    /fixture-page/<slug>   test/fixtures/pages/<slug>/source.html
//   /warc-bomb/payload.warc  a 209 KB WARC whose first page's deflate payload decodes to 200 MiB (dev/bombs.ts)
//   /warc-bomb/member.warc.gz  a 208 KB .warc.gz whose second member holds a 200 MiB record

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { warcGzWithMemberBomb, warcWithPayloadBomb } from './bombs.js';
import { mulberry32 as rng } from './rng.js';

const STOP = ['the', 'and', 'of', 'to', 'in', 'a', 'is', 'that', 'for', 'it', 'with', 'as', 'was', 'on', 'by', 'this', 'from', 'at', 'which', 'are'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function word(next: () => number): string {
  const length = 3 + Math.floor(next() * 7);
  let w = '';
  for (let i = 0; i < length; i++) w += LETTERS[Math.floor(next() * 26)];
  return w;
}

function sentence(next: () => number): string {
  const n = 12 + Math.floor(next() * 10);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(next() < 0.35 ? STOP[Math.floor(next() * STOP.length)] : word(next));
  const s = words.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/** Twenty sentences of an article, from `seed`. */
export function articleSentences(seed: number): string[] {
  const next = rng(seed);
  return Array.from({ length: 20 }, () => sentence(next));
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A page with navigation, an article of `sentences` (four paragraphs), and a footer. */
export function articlePage(title: string, sentences: readonly string[]): string {
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 5) paragraphs.push(`<p>${escapeHtml(sentences.slice(i, i + 5).join(' '))}</p>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} | Bulk News</title></head>
<body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<main><article>
<h1>${escapeHtml(title)}</h1>
<p class="byline">By the bulk desk</p>
${paragraphs.join('\n')}
</article></main>
<footer><p>Copyright Bulk News. All rights reserved.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>
</body></html>
`;
}

/** The page of distinct article n. */
export function uniqueArticle(n: number): string {
  return articlePage(`Article number ${n}`, articleSentences(1_000_003 + n));
}

/** Variant k of near-duplicate group g: the group's article with sentence (k mod 20) replaced. */
export function duplicateArticle(g: number, k: number): string {
  const sentences = articleSentences(7_000_001 + g);
  if (k > 0) sentences[(k * 7) % sentences.length] = sentence(rng(9_000_000 + g * 1000 + k));
  return articlePage(`Group ${g} story`, sentences);
}

export const EMPTY_PAGE = '<!doctype html><html><head><title>Empty</title></head><body><div></div></body></html>\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082', 'hex');

export interface BulkPageServer {
  server: Server;
  port: number;
  base: string;
  hits: Map<string, number>;
  close: () => Promise<void>;
}

/** Starts a page server on 127.0.0.1 (port 0: any free port). `refuseRobots` makes robots.txt disallow everything. */
export async function startBulkPageServer(options: { port?: number; refuseRobots?: boolean } = {}): Promise<BulkPageServer> {
  const hits = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const parts = url.pathname.split('/').slice(1);
    const send = (status: number, body: string | Buffer, type = 'text/html; charset=utf-8'): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const n = (s: string | undefined): number => (s !== undefined && /^\d{1,7}$/.test(s) ? Number(s) : -1);
    switch (parts[0]) {
      case 'robots.txt':
        return send(200, options.refuseRobots ? 'User-agent: pith\nDisallow: /\n\nUser-agent: *\nAllow: /\n' : 'User-agent: *\nDisallow: /private/\n', 'text/plain');
      case 'hits':
        return send(200, JSON.stringify(Object.fromEntries(hits)), 'application/json');
      case 'a':
        return n(parts[1]) < 0 ? send(404, '<h1>not found</h1>') : send(200, uniqueArticle(n(parts[1])));
      case 'private':
        return send(200, uniqueArticle(800_000 + Math.max(0, n(parts[1]))));
      case 'dup':
        return n(parts[1]) < 0 || n(parts[2]) < 0 ? send(404, '<h1>not found</h1>') : send(200, duplicateArticle(n(parts[1]), n(parts[2])));
      case 'status':
        return send(Math.min(599, Math.max(400, n(parts[1]))), `<h1>status ${parts[1]}</h1>`);
      case 'flaky':
        return (hits.get(url.pathname) ?? 0) === 1 ? send(503, '<h1>try again</h1>') : send(200, uniqueArticle(600_000 + Math.max(0, n(parts[1]))));
      case 'slow': {
        const timer = setTimeout(() => send(200, uniqueArticle(700_000 + Math.max(0, n(parts[2])))), Math.min(5000, Math.max(0, n(parts[1]))));
        timers.add(timer);
        return;
      }
      case 'hang': {
        const timer = setTimeout(() => send(200, '<p>too late</p>'), 60_000);
        timers.add(timer);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case 'image':
        return send(200, PNG, 'image/png');
      case 'text':
        return send(200, 'Just some plain text, not a page.', 'text/plain; charset=utf-8');
      case 'redirect':
        res.writeHead(302, { location: `/a/${500_000 + Math.max(0, n(parts[1]))}` });
        return void res.end();
      case 'redirect-private':
        res.writeHead(302, { location: 'http://10.0.0.1/' });
        return void res.end();
      case 'empty':
        return send(200, EMPTY_PAGE);
      case 'fixture.warc.gz':
        return send(200, readFileSync(new URL('../test/fixtures/warc/pages.warc.gz', import.meta.url)), 'application/warc');
      case 'warc-bomb':
        if (parts[1] === 'payload.warc') return void warcWithPayloadBomb(200).then((bytes) => send(200, bytes, 'application/warc'));
        if (parts[1] === 'member.warc.gz') return void warcGzWithMemberBomb(200).then((bytes) => send(200, bytes, 'application/warc'));
        return send(404, '<h1>not found</h1>');
      case 'fixture-page':
        try {
          if (!/^[a-z0-9-]+$/.test(parts[1] ?? '')) throw new Error('bad name');
          return send(200, readFileSync(new URL(`../test/fixtures/pages/${parts[1]}/source.html`, import.meta.url)));
        } catch {
          return send(404, '<h1>not found</h1>');
        }
      default:
        return send(404, '<h1>not found</h1>');
    }
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    hits,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
