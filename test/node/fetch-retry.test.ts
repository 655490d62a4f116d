// One retry of an idempotent GET whose connection is lost before any byte of the answer, in Node: a real server on
// 127.0.0.1 that closes (or resets) connections without answering. The workerd side is in the hostile corpus
// (close-first-connection, reset-first-connection).

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPage } from '../../src/io/fetch.js';
import { DEFAULT_FETCH_LIMITS } from '../../src/io/fetch.js';
import { PithError } from '../../src/errors.js';
import { articlePage } from '../hostile/cases.js';

const PAGE = articlePage();
let server: Server | undefined;

/** A server whose connection n (from 0) is dropped when `drop(n)` says so ('end' or 'reset'), answered otherwise. */
async function serve(drop: (n: number) => 'end' | 'reset' | null): Promise<{ url: string; connections: () => number }> {
  let n = 0;
  server = createServer((socket: Socket) => {
    const mine = n++;
    socket.on('error', () => undefined);
    socket.once('data', () => {
      const how = drop(mine);
      if (how === 'end') socket.end();
      else if (how === 'reset') socket.resetAndDestroy();
      else socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(PAGE)}\r\nConnection: close\r\n\r\n${PAGE}`);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`, connections: () => n };
}

const options = { ...DEFAULT_FETCH_LIMITS, timeoutMs: 5_000, allowHosts: new Set(['127.0.0.1']) };

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

describe('a GET whose connection is lost before the answer', () => {
  for (const how of ['end', 'reset'] as const) {
    it(`is retried once when the first connection is ${how === 'end' ? 'closed' : 'reset'} without an answer`, async () => {
      const upstream = await serve((n) => (n === 0 ? how : null));
      const page = await fetchPage(upstream.url, options);
      expect(page.html).toContain('Tram line to the harbour');
      expect(upstream.connections()).toBe(2);
    });
  }

  it('is retried only once: a server that drops every connection is an upstream_error after two', async () => {
    const upstream = await serve(() => 'end');
    const err = await fetchPage(upstream.url, options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PithError);
    expect((err as PithError).code).toBe('upstream_error');
    expect(upstream.connections()).toBe(2);
  });

  it('a connection lost after the answer began is not retried', async () => {
    let n = 0;
    server = createServer((socket) => {
      n++;
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<p>partial');
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
    const err = await fetchPage(url, options).catch((e: unknown) => e);
    expect((err as PithError).code).toBe('upstream_error');
    expect(n).toBe(1);
  });
});
