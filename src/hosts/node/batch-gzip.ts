// `pith batch --out <file>.gz`: the lines compressed as they are written, in gzip members that each hold whole lines
// (one member per chunk of the output, 65,536 characters; RFC 1952 §2.2: a gzip file may be a series of members, and
// gzip, zcat and every gzip library read them as one stream). Each member names its own compressed length in its
// header's extra field (subfield "PI", as BGZF does with "BC"), so that `--resume` finds where the last complete member
// ends without inflating the file to look for it, and cuts what a killed run left after it. Node only.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isGzipBytes } from '../../io/content-decoder.js';

/** Header: magic, deflate, FEXTRA, mtime 0, no extra flags, OS unknown; XLEN 8; subfield "PI", length 4, member size. */
const HEADER_BYTES = 10 + 2 + 8;
const TRAILER_BYTES = 8;
/** Larger than any member pith batch writes (a chunk holds at most one line longer than 65,536 characters). */
const MAX_MEMBER_BYTES = 1024 * 1024 * 1024;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of RFC 1952 §8 (the one gzip's trailer holds). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The header of a member of `size` bytes in all (header, deflate data, trailer). */
export function memberHeader(size: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.set([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255], 0);
  header.writeUInt16LE(8, 10); // XLEN
  header.set([0x50, 0x49], 12); // "PI"
  header.writeUInt16LE(4, 14);
  header.writeUInt32LE(size, 16);
  return header;
}

/** One gzip member holding `text` (UTF-8), its compressed size in its header. */
export function gzipMember(text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  const body = deflateRawSync(data);
  const member = Buffer.alloc(HEADER_BYTES + body.length + TRAILER_BYTES);
  member.set(memberHeader(member.length), 0);
  member.set(body, HEADER_BYTES);
  member.writeUInt32LE(crc32(data), HEADER_BYTES + body.length);
  member.writeUInt32LE(data.length >>> 0, HEADER_BYTES + body.length + 4);
  return member;
}

/** A name ending in .gz: `pith batch --out` then writes (and --resume reads) gzip members. */
export function isGzipName(path: string): boolean {
  return path.toLowerCase().endsWith('.gz');
}

/** True when the file starts as a gzip file does; false too when it cannot be read (reading it then says why). */
export function isGzipFile(path: string): boolean {
  const head = Buffer.alloc(2);
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    return readSync(fd, head, 0, 2, 0) === 2 && isGzipBytes(head);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Most bytes one member of pith's own output decodes to (its members hold whole lines, written 64 KiB at a time). */
const MAX_MEMBER_TEXT_BYTES = 256 * 1024 * 1024;

/** A complete member of a file gzipMember wrote: its text and where it ends. */
export interface GzipMemberRead {
  text: string;
  /** Byte offset just after the member. */
  end: number;
}

/**
 * The complete members of a file written with gzipMember, in order, read one at a time. It stops at the first member
 * that is incomplete or does not check out (what a killed run leaves); `end` of the last one yielded is where the
 * file can be cut. Throws when a member's header is not one gzipMember writes: the file was then not written by
 * `pith batch`.
 */
export function* gzipMembersOf(path: string): Generator<GzipMemberRead> {
  const fd = openSync(path, 'r');
  try {
    const fileBytes = fstatSync(fd).size;
    const header = Buffer.alloc(HEADER_BYTES);
    for (let at = 0; ; ) {
      const got = readSync(fd, header, 0, HEADER_BYTES, at);
      if (got === 0) return;
      if (got < HEADER_BYTES) return; // cut inside a header
      const ours = header[0] === 0x1f && header[1] === 0x8b && header[2] === 8 && header[3] === 4 && header.readUInt16LE(10) === 8 && header[12] === 0x50 && header[13] === 0x49;
      if (!ours) throw new Error(`the gzip member at byte ${at} does not give its size in its header, as pith batch writes them`);
      const size = header.readUInt32LE(16);
      if (size < HEADER_BYTES + TRAILER_BYTES || size > MAX_MEMBER_BYTES) throw new Error(`the gzip member at byte ${at} gives a size of ${size} bytes`);
      if (at + size > fileBytes) return; // cut inside the member (nothing allocated for a size the file cannot hold)
      const member = Buffer.alloc(size);
      if (readSync(fd, member, 0, size, at) < size) return;
      let data: Buffer;
      try {
        data = inflateRawSync(member.subarray(HEADER_BYTES, size - TRAILER_BYTES), { maxOutputLength: MAX_MEMBER_TEXT_BYTES });
      } catch {
        return; // damaged
      }
      if (crc32(data) !== member.readUInt32LE(size - TRAILER_BYTES) || (data.length >>> 0) !== member.readUInt32LE(size - 4)) return;
      yield { text: data.toString('utf8'), end: at + size };
      at += size;
    }
  } finally {
    closeSync(fd);
  }
}
