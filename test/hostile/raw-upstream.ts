/// <reference types="node" />
// The raw upstream for the hostile corpus: a node:net server on 127.0.0.1 that writes each `upstream` case's
// reply byte for byte (no HTTP library in between, so replies can lie, break and stall as a hostile server's do).
//   GET /case/<name>[/<rest>]   runs CASES[name].input.serve() on the connection
//   GET /bomb/<raw|zlib|gzip>/<MiB>   a compression bomb as plain bytes (for request cases that POST one)
// Started by test/workers/global-setup.ts (port provided as `rawServerPort`) and by eval scripts.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { spacesBomb } from '../../dev/bombs.js';
import { caseNamed, type UpstreamIO } from './cases.js';

const toBuffer = (data: Uint8Array | string): Buffer => (typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
const input = (data: Uint8Array | string): Buffer => (typeof data === 'string' ? Buffer.from(data, 'utf8') : toBuffer(data));

function notFound(socket: Socket, what: string): void {
  const body = `no hostile case ${what}`;
  socket.end(`HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
}

export interface RawUpstream {
  port: number;
  close(): Promise<void>;
}

export async function startRawUpstream(): Promise<RawUpstream> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // peers hang up on hostile replies: expected
    let received = '';
    const onData = (data: Buffer): void => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const requestHead = received.slice(0, end);
      const path = requestHead.split(' ', 2)[1] ?? '/';
      const bomb = /^\/bomb\/(raw|zlib|gzip)\/(\d{1,4})$/.exec(path);
      if (bomb !== null) {
        void spacesBomb(Number(bomb[2]), bomb[1] as 'raw' | 'zlib' | 'gzip').then((bytes) => {
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`);
          socket.end(bytes);
        });
        return;
      }
      const match = /^\/case\/([a-z0-9-]+)(\/[^?]*)?/.exec(path);
      const found = match === null ? undefined : caseNamed(match[1]);
      if (found === undefined || found.input.kind !== 'upstream') return notFound(socket, path);
      const port = (server.address() as AddressInfo).port;
      const io: UpstreamIO = {
        write: (data) => void (socket.writable && socket.write(toBuffer(data))),
        end: (data) => void (data === undefined ? socket.end() : socket.end(toBuffer(data))),
        destroy: () => socket.resetAndDestroy(),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
        gzip: (data) => gzipSync(input(data)),
        deflate: (data) => deflateSync(input(data)),
        deflateRaw: (data) => deflateRawSync(input(data)),
        brotli: (data) => brotliCompressSync(input(data)),
        bomb: (mib, wrap) => spacesBomb(mib, wrap),
        base: `http://127.0.0.1:${port}`,
        rest: match?.[2] ?? '',
        requestHead,
      };
      Promise.resolve(found.input.serve(io)).catch((err: unknown) => {
        console.error(`raw upstream: case ${found.name} threw`, err);
        socket.destroy();
      });
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
