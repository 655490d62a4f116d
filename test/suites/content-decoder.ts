// One suite for the one content decoder (src/io/content-decoder.ts), run in Node (test/node/io/content-decoder.test.ts)
// and in workerd (test/workers/content-decoder.test.ts): the two runtimes decode multi-member gzip differently
// (Node reads every member, workerd stops after the first), and both must give the same bytes and the same errors.
// Inputs are made with CompressionStream, which both runtimes have.

import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../dev/rng.js';
import { PithError } from '../../src/errors.js';
import { type ContentCoding, decodeBytes, decodeStream, type DecodeOptions, parseContentCoding, UPSTREAM_CODES } from '../../src/io/content-decoder.js';

const MiB = 1024 * 1024;
const enc = new TextEncoder();

async function compress(format: 'gzip' | 'deflate' | 'deflate-raw', parts: Iterable<Uint8Array>): Promise<Uint8Array> {
  const cs = new CompressionStream(format);
  const writer = cs.writable.getWriter();
  const out = new Response(cs.readable).arrayBuffer();
  for (const part of parts) await writer.write(part as Uint8Array<ArrayBuffer>);
  await writer.close();
  return new Uint8Array(await out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function* pieces(bytes: Uint8Array, pieceBytes: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += pieceBytes) yield bytes.subarray(i, i + pieceBytes);
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return concat(parts);
}

/** Random bytes with gzip's magic 1f 8b 08 written in every `magicEvery` bytes (they survive compression as stored data). */
function randomBytes(n: number, seed: number, magicEvery = 0): Uint8Array {
  const next = mulberry32(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
  if (magicEvery > 0) for (let i = 5; i + 3 < n; i += magicEvery) out.set([0x1f, 0x8b, 0x08], i);
  return out;
}

const options = (maxBytes: number): DecodeOptions => ({ maxBytes, what: 'the test body', codes: UPSTREAM_CODES });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    return err instanceof PithError ? err.code : `not a PithError: ${String(err)}`;
  }
}

export function describeContentDecoder(runtime: string): void {
  describe(`the content decoder (${runtime})`, () => {
    it('decodes gzip, zlib deflate, raw deflate and identity', async () => {
      const text = 'The council voted on Tuesday to extend the tram line. '.repeat(200);
      const plain = enc.encode(text);
      const cases: Array<[ContentCoding, Uint8Array]> = [
        ['gzip', await compress('gzip', [plain])],
        ['deflate', await compress('deflate', [plain])],
        ['deflate', await compress('deflate-raw', [plain])],
        ['identity', plain],
      ];
      for (const [coding, bytes] of cases) expect(new TextDecoder().decode(await decodeBytes(bytes, coding, options(MiB))), coding).toBe(text);
    });

    it('names codings by their Content-Encoding and refuses the ones it cannot decode', () => {
      expect(parseContentCoding('x-gzip', 'upstream_error', 'b')).toBe('gzip');
      expect(parseContentCoding(' Deflate ', 'upstream_error', 'b')).toBe('deflate');
      expect(parseContentCoding('', 'upstream_error', 'b')).toBe('identity');
      expect(() => parseContentCoding('gzip, br', 'upstream_error', 'b')).toThrow(/cannot decode/);
      expect(() => parseContentCoding('zstd', 'invalid_input', 'b')).toThrow(PithError);
    });

    it('data that does not decode is the caller\'s corrupt code, not a crash', async () => {
      expect(await codeOf(decodeBytes(enc.encode('<p>not gzip at all</p>'), 'gzip', options(MiB)))).toBe('upstream_error');
      const gz = await compress('gzip', [enc.encode('x'.repeat(10_000))]);
      expect(await codeOf(decodeBytes(gz.subarray(0, gz.length - 6), 'gzip', options(MiB)))).toBe('upstream_error');
    });

    it('a deflate bomb stops at the cap: 256 MiB of spaces, 1 MiB allowed, at most the cap handed out', async () => {
      const spaces = new Uint8Array(MiB).fill(0x20);
      const bomb = await compress('deflate', Array.from({ length: 256 }, () => spaces));
      expect(bomb.length).toBeLessThan(MiB);
      let handedOut = 0;
      const code = await codeOf(
        (async () => {
          for await (const part of decodeStream(pieces(bomb, 64 * 1024), 'deflate', options(MiB))) handedOut += part.length;
        })(),
      );
      expect(code).toBe('upstream_too_large');
      expect(handedOut).toBeLessThanOrEqual(MiB);
    });

    it('every member of a multi-member gzip file, however the bytes arrive, with gzip magic inside the data', async () => {
      // Random (incompressible) members are stored verbatim, so the magic written into them is in the compressed bytes.
      const members = Array.from({ length: 24 }, (_, i) => randomBytes(2000 + i * 3000, i + 1, 20_000));
      const file = concat(await Promise.all(members.map((m) => compress('gzip', [m]))));
      const want = concat(members);
      for (const piece of [97, 4096, 65_536, file.length]) {
        const got = await collect(decodeStream(pieces(file, piece), 'gzip', options(64 * MiB), MiB));
        expect(got.length, `pieces of ${piece}`).toBe(want.length);
        expect(got.every((b, i) => b === want[i]), `pieces of ${piece}`).toBe(true);
      }
    });

    it('a truncated multi-member file is corrupt; where members are split by hand, one past its cap is too large', async () => {
      const file = concat([await compress('gzip', [enc.encode('first member')]), await compress('gzip', [enc.encode('second member, cut short')])]);
      expect(await codeOf(collect(decodeStream(pieces(file.subarray(0, file.length - 5), 1000), 'gzip', options(MiB))))).toBe('upstream_error');
      const big = concat([await compress('gzip', [enc.encode('small')]), await compress('gzip', [new Uint8Array(4 * MiB)]), await compress('gzip', [enc.encode('after')])]);
      // Node's decoder reads the members as one stream (no member is held whole); workerd's holds one at a time.
      expect(await codeOf(collect(decodeStream(pieces(big, 65_536), 'gzip', options(64 * MiB), MiB)))).toBe(runtime === 'workerd' ? 'upstream_too_large' : 'ok');
    });

    it('random bytes with a gzip magic every 33,000 bytes fail at once: the splitting is not quadratic', async () => {
      const bytes = randomBytes(8 * MiB, 99, 33_000);
      bytes.set([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3], 0);
      const started = Date.now();
      expect(await codeOf(collect(decodeStream(pieces(bytes, 65_536), 'gzip', options(64 * MiB), 16 * MiB)))).toBe('upstream_error');
      // A guard against the old quadratic search (seconds per MB), not a speed test.
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('stops at its deadline', async () => {
      const spaces = new Uint8Array(MiB).fill(0x20);
      const bomb = await compress('gzip', Array.from({ length: 64 }, () => spaces));
      expect(await codeOf(decodeBytes(bomb, 'gzip', { ...options(128 * MiB), deadlineMs: Date.now() - 1, codes: { ...UPSTREAM_CODES } }))).toBe('upstream_timeout');
    });
  });
}
