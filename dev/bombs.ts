/// <reference types="node" />
// Compression bombs for the hostile tests, made in milliseconds without ever holding what they decode to: deflate
// segments of 1 MiB of spaces, each ended by a full flush, are byte-identical (the flush resets the compressor), so
// N of them in a row decode to N MiB. The trailers (zlib's Adler-32, gzip's CRC-32) are not computed: a decoder that
// honours its cap stops long before it could check them.

import { createDeflateRaw, constants } from 'node:zlib';
import { httpResponseBlock, warcRecord } from '../src/io/warc.js';

const MiB = 1 << 20;
const SPACES = Buffer.alloc(MiB, 0x20);
/** Raw deflate segments: `prefix` (if any) then 1 MiB of spaces, each ending in a full flush. */
const cache = new Map<string, Promise<{ head: Buffer; spaces: Buffer; end: Buffer }>>();

function segments(prefix: Buffer): Promise<{ head: Buffer; spaces: Buffer; end: Buffer }> {
  const key = prefix.toString('latin1');
  let found = cache.get(key);
  if (found === undefined) {
    found = (async () => {
      const deflate = createDeflateRaw({ level: 9 });
      const out: Buffer[] = [];
      deflate.on('data', (chunk: Buffer) => out.push(chunk));
      const flushed = async (data: Buffer): Promise<Buffer> => {
        deflate.write(data);
        await new Promise<void>((resolve) => deflate.flush(constants.Z_FULL_FLUSH, () => resolve()));
        return Buffer.concat(out.splice(0));
      };
      const head = prefix.length > 0 ? await flushed(prefix) : Buffer.alloc(0);
      const spaces = await flushed(SPACES);
      const again = await flushed(SPACES);
      if (!again.equals(spaces)) throw new Error('deflate segments of spaces differ: the bomb trick does not hold');
      deflate.end();
      await new Promise<void>((resolve) => deflate.on('end', () => resolve()));
      return { head, spaces, end: Buffer.concat(out) };
    })();
    cache.set(key, found);
  }
  return found;
}

/** `mib` MiB of spaces (after `prefix`), compressed as raw deflate, zlib deflate or gzip. */
export async function spacesBomb(mib: number, wrap: 'raw' | 'zlib' | 'gzip', prefix: Buffer = Buffer.alloc(0)): Promise<Buffer> {
  const { head, spaces, end } = await segments(prefix);
  const body = Buffer.concat([head, ...Array.from({ length: mib }, () => spaces), end]);
  if (wrap === 'raw') return body;
  if (wrap === 'zlib') return Buffer.concat([Buffer.from([0x78, 0xda]), body, Buffer.alloc(4)]);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0x02, 0x03]), body, Buffer.alloc(8)]);
}

const ORDINARY = Buffer.from(
  '<!doctype html><html><head><title>An ordinary page</title></head><body><article><h1>An ordinary page</h1>' +
    '<p>The council voted on Tuesday to extend the tram line to the harbour, after three years of studies.</p>'.repeat(8) +
    '</article></body></html>',
);

function responseRecord(url: string, headers: Array<[string, string]>, body: Uint8Array): Uint8Array {
  return warcRecord([['WARC-Type', 'response'], ['WARC-Target-URI', url], ['Content-Type', 'application/http; msgtype=response']], httpResponseBlock(200, headers, body));
}

/** A plain WARC file: one page whose archived payload is deflate and decodes to `mib` MiB, then an ordinary page. */
export async function warcWithPayloadBomb(mib: number): Promise<Buffer> {
  const bomb = await spacesBomb(mib, 'zlib');
  return Buffer.concat([
    responseRecord('https://bomb.example/payload', [['Content-Type', 'text/html'], ['Content-Encoding', 'deflate']], bomb),
    responseRecord('https://bomb.example/ordinary', [['Content-Type', 'text/html']], ORDINARY),
  ]);
}

/** A .warc.gz file: an ordinary page's member, then a member holding one record whose block is `mib` MiB. */
export async function warcGzWithMemberBomb(mib: number): Promise<Buffer> {
  const { gzipSync } = await import('node:zlib');
  const head = Buffer.from(
    'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: https://bomb.example/member\r\nContent-Type: text/plain\r\n' + `Content-Length: ${mib * MiB}\r\n\r\n`,
    'latin1',
  );
  return Buffer.concat([gzipSync(responseRecord('https://bomb.example/ordinary', [['Content-Type', 'text/html']], ORDINARY)), await spacesBomb(mib, 'gzip', head)]);
}
