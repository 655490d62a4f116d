// The content-decoder suite (test/suites/content-decoder.ts) in Node, and what only Node can measure: the memory
// a decompression bomb costs while it is stopped.
import { deflateRawSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { decodeBytes, UPSTREAM_CODES } from '../../../src/io/content-decoder.js';
import '../../../src/hosts/node/lib.js'; // registers zlib's br decoder
import { brotliCompressSync } from 'node:zlib';
import { describeContentDecoder } from '../../suites/content-decoder.js';

describeContentDecoder('Node');

it('a 1 MB deflate body of 1,000 MiB of spaces stops at a 5 MiB cap and costs less than 64 MiB of buffers', async () => {
  // Fully flushed deflate segments of 1 MiB of spaces are byte-identical: 1,000 of them make the 1,000 MiB bomb.
  const segment = deflateRawSync(Buffer.alloc(1 << 20, 0x20), { level: 9, finishFlush: 3 /* Z_FULL_FLUSH */ });
  const bomb = Buffer.concat([...Array.from({ length: 1000 }, () => segment), Buffer.from([0x03, 0x00])]);
  expect(bomb.length).toBeLessThan(1.2 * 1024 * 1024);
  global.gc?.();
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1);
  const result = await decodeBytes(bomb, 'deflate', { maxBytes: 5 * 1024 * 1024, what: 'the bomb', codes: UPSTREAM_CODES }).then(
    () => 'decoded',
    (err: { code?: string }) => err.code,
  );
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  expect(result).toBe('upstream_too_large');
  expect((peak - before) / (1024 * 1024)).toBeLessThan(64);
});

it('decodes br with the decoder the Node host registers, capped like the rest', async () => {
  const page = Buffer.from('<p>brotli page</p>'.repeat(100));
  expect(Buffer.from(await decodeBytes(brotliCompressSync(page), 'br', { maxBytes: 1 << 20, what: 'b', codes: UPSTREAM_CODES })).equals(page)).toBe(true);
  const bomb = brotliCompressSync(Buffer.alloc(64 << 20));
  await expect(decodeBytes(bomb, 'br', { maxBytes: 1 << 20, what: 'b', codes: UPSTREAM_CODES })).rejects.toMatchObject({ code: 'upstream_too_large' });
});
