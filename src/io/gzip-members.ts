// Multi-member gzip (RFC 1952 §2.2: a gzip file is a series of members), as WARC files are written: one member per
// record. DecompressionStream in workerd stops at the end of the first member ("Trailing bytes after end of
// compressed data"), so the members are found here and decompressed one by one. Uses only DecompressionStream
// (workerd and Node alike); no I/O of its own.
//
// A member's end is only known by inflating it. Candidates are the next gzip magic (1f 8b 08) after the member's
// start; a candidate is the end when the bytes before it decompress completely (the gzip trailer's CRC-32 and length
// check out), else it was a chance occurrence inside the compressed data and the next one is tried. Memory holds one
// member at a time (WARC records: kilobytes to a few megabytes).

import { concatBytes } from './bytes.js';

const MIN_MEMBER_BYTES = 18; // 10-byte header + empty deflate block + 8-byte trailer

function findMagic(bytes: Uint8Array, from: number): number {
  for (let i = Math.max(0, from); i + 2 < bytes.length; i++) {
    if (bytes[i] === 0x1f && bytes[i + 1] === 0x8b && bytes[i + 2] === 0x08) return i;
  }
  return -1;
}

/** The decompressed bytes of one whole member, or null when `member` is not exactly one complete member. */
async function gunzipMember(member: Uint8Array): Promise<Uint8Array | null> {
  try {
    const stream = new Blob([member as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return null;
  }
}

/** Decompressed bytes of a (possibly multi-member) gzip stream, one member at a time. */
export async function* gunzipMembers(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const input = chunks[Symbol.asyncIterator]();
  let buffer: Uint8Array = new Uint8Array(0);
  let ended = false;
  let searchFrom = MIN_MEMBER_BYTES;
  for (;;) {
    let candidate = findMagic(buffer, searchFrom);
    while (candidate < 0 && !ended) {
      const next = await input.next();
      if (next.done === true) ended = true;
      else buffer = buffer.length === 0 ? next.value : concatBytes([buffer, next.value]);
      candidate = findMagic(buffer, searchFrom);
    }
    const end = candidate < 0 ? buffer.length : candidate;
    if (end === 0) return;
    const out = await gunzipMember(buffer.subarray(0, end));
    if (out !== null) {
      yield out;
      buffer = buffer.slice(end);
      searchFrom = MIN_MEMBER_BYTES;
      if (buffer.length === 0 && ended) return;
      continue;
    }
    if (candidate < 0) throw new Error('the gzip data is truncated or corrupt');
    searchFrom = candidate + 1; // a chance 1f 8b 08 inside the compressed data
  }
}
