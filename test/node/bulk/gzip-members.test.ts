import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipMembers } from '../../../src/io/gzip-members.js';
import { mulberry32 as rng } from '../../../dev/rng.js';

async function collect(bytes: Uint8Array, pieceBytes: number): Promise<Buffer> {
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < bytes.length; i += pieceBytes) yield bytes.subarray(i, i + pieceBytes);
  }
  const out: Uint8Array[] = [];
  for await (const part of gunzipMembers(pieces())) out.push(part);
  return Buffer.concat(out);
}

describe('gunzipMembers', () => {
  it('decompresses every member of a multi-member file, however the bytes arrive', async () => {
    const next = rng(7);
    // Random (incompressible) members: their compressed bytes contain chance 1f 8b 08 runs now and then.
    const members = Array.from({ length: 40 }, (_, i) => Buffer.from(Array.from({ length: 2000 + i * 300 }, () => Math.floor(next() * 256))));
    const file = Buffer.concat(members.map((m) => gzipSync(m)));
    const want = Buffer.concat(members);
    for (const piece of [97, 1000, 65536, file.length]) expect((await collect(file, piece)).equals(want)).toBe(true);
  });

  it('throws on truncated data', async () => {
    const file = Buffer.concat([gzipSync('first member'), gzipSync('second member, cut short')]);
    await expect(collect(file.subarray(0, file.length - 5), 1000)).rejects.toThrow(/truncated or corrupt/);
  });
});
