// A small WARC reader (ISO 28500, WARC/1.0 and 1.1) and the HTML pages inside. Pure: bytes in, records out; no
// file system, no network, no decompression (warc-pages.ts decodes, with the one content decoder), so the same
// code runs in Node and workerd.
//
// Why not an npm WARC reader: the maintained one (warcio) pulls in hash-wasm, whose WebAssembly is compiled from
// bytes at run time (refused by workerd), plus CLI and temp-file dependencies. Reading is a small format:
//   WARC/1.x CRLF, named fields CRLF ..., CRLF, <Content-Length bytes of block>, CRLF CRLF
//
// An HTML page is a `response` record whose block is an HTTP response (application/http) with status 2xx and a
// Content-Type of text/html or application/xhtml+xml. Chunked transfer coding is undone; a Content-Encoding
// (gzip, br) is reported so that the host can decompress.

import { concatBytes } from './bytes.js';
import { isHtmlMediaType, mediaTypeOf } from './media-type.js';

export interface WarcRecord {
  /** WARC-Type, lower case ('response', 'request', 'warcinfo', 'metadata', ...). */
  type: string;
  /** WARC-Target-URI, or null. */
  targetUri: string | null;
  /** WARC named fields, names lower case (the last one wins when a name repeats). */
  fields: Map<string, string>;
  /** The record block (for a response: the HTTP status line, headers and body). */
  block: Uint8Array;
}

export interface HttpMessage {
  status: number;
  /** Header names lower case; repeated headers joined with ", ". */
  headers: Map<string, string>;
  body: Uint8Array;
}

export interface WarcHtmlPage {
  url: string;
  /** The HTTP Content-Type header ('' when absent). */
  contentType: string;
  /** Content-Encoding the body still has ('' for none). */
  contentEncoding: string;
  body: Uint8Array;
}

/** A WARC file that cannot be read: `offset` is where, in the decompressed bytes. */
export class WarcFormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset} of the uncompressed WARC)`);
    this.name = 'WarcFormatError';
  }
}

/** A WARC record larger than the reader takes. */
export class WarcTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
    readonly offset: number,
  ) {
    super(`a WARC record of ${bytes} bytes is larger than the ${maxBytes} pith reads (at byte ${offset} of the uncompressed WARC)`);
    this.name = 'WarcTooLargeError';
  }
}

const CR = 13;
const LF = 10;
const MAX_HEADER_BYTES = 1024 * 1024;
const latin1 = new TextDecoder('latin1');

/** Index of the first CRLF CRLF at or after `from`, or -1. */
function headerEnd(bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i + 3 < to; i++) {
    if (bytes[i] === CR && bytes[i + 1] === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) return i;
  }
  return -1;
}

function parseFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last = '';
  for (const line of text.split('\r\n')) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== '') {
      fields.set(last, `${fields.get(last)} ${line.trim()}`); // folded continuation line
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    fields.set(last, line.slice(colon + 1).trim());
  }
  return fields;
}

/**
 * Incremental reader: push() decompressed bytes as they come, take the records that are complete. end() says
 * whether the input stopped in the middle of a record (an error) or between records.
 */
export class WarcReader {
  private buffer = new Uint8Array(0);
  private length = 0;
  private consumed = 0;

  /** `maxRecordBytes`: a record block larger than this is refused (WarcTooLargeError) before it is buffered. */
  constructor(private readonly maxRecordBytes = Number.MAX_SAFE_INTEGER) {}

  /** Adds bytes and returns the records completed by them. */
  push(chunk: Uint8Array): WarcRecord[] {
    if (this.length + chunk.length > this.buffer.length) {
      const next = new Uint8Array(Math.max(this.length + chunk.length, this.buffer.length * 2, 64 * 1024));
      next.set(this.buffer.subarray(0, this.length));
      this.buffer = next;
    }
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
    const records: WarcRecord[] = [];
    let start = 0;
    for (;;) {
      // Records are separated by CRLF CRLF; tolerate extra blank lines between them.
      while (start < this.length && (this.buffer[start] === CR || this.buffer[start] === LF)) start++;
      if (start >= this.length) break;
      const end = headerEnd(this.buffer, start, this.length);
      if (end < 0) {
        if (this.length - start > MAX_HEADER_BYTES) throw new WarcFormatError('a WARC record header is longer than 1 MiB', this.consumed + start);
        break;
      }
      const head = latin1.decode(this.buffer.subarray(start, end));
      if (!head.startsWith('WARC/')) throw new WarcFormatError(`expected "WARC/" at the start of a record, found "${head.slice(0, 20)}"`, this.consumed + start);
      const fields = parseFields(head.slice(head.indexOf('\r\n') + 2));
      const contentLength = Number(fields.get('content-length'));
      if (!Number.isSafeInteger(contentLength) || contentLength < 0) throw new WarcFormatError('a WARC record has no valid Content-Length', this.consumed + start);
      if (contentLength > this.maxRecordBytes) throw new WarcTooLargeError(contentLength, this.maxRecordBytes, this.consumed + start);
      const blockStart = end + 4;
      if (blockStart + contentLength > this.length) break; // the block is not all here yet
      records.push({
        type: (fields.get('warc-type') ?? '').toLowerCase(),
        targetUri: fields.get('warc-target-uri')?.replace(/^<(.*)>$/, '$1') ?? null,
        fields,
        block: this.buffer.slice(blockStart, blockStart + contentLength),
      });
      start = blockStart + contentLength;
    }
    // Keep only the unread tail.
    this.buffer.copyWithin(0, start, this.length);
    this.length -= start;
    this.consumed += start;
    return records;
  }

  /** Throws when the input ended inside a record. */
  end(): void {
    let i = 0;
    while (i < this.length && (this.buffer[i] === CR || this.buffer[i] === LF)) i++;
    if (i < this.length) throw new WarcFormatError('the WARC file ends in the middle of a record (truncated?)', this.consumed + i);
  }
}

/** Every record of a whole (decompressed) WARC file. */
export function readWarc(bytes: Uint8Array): WarcRecord[] {
  const reader = new WarcReader();
  const records = reader.push(bytes);
  reader.end();
  return records;
}

/** Every record of a stream of decompressed WARC bytes, as they complete. */
export async function* readWarcStream(chunks: AsyncIterable<Uint8Array>, maxRecordBytes?: number): AsyncGenerator<WarcRecord> {
  const reader = new WarcReader(maxRecordBytes);
  for await (const chunk of chunks) yield* reader.push(chunk);
  reader.end();
}

function dechunk(body: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let i = 0;
  for (;;) {
    let lineEnd = i;
    while (lineEnd + 1 < body.length && !(body[lineEnd] === CR && body[lineEnd + 1] === LF)) lineEnd++;
    if (lineEnd + 1 >= body.length) return null;
    const size = parseInt(latin1.decode(body.subarray(i, lineEnd)).split(';', 1)[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) return null;
    i = lineEnd + 2;
    if (size === 0) break;
    if (i + size > body.length) return null;
    parts.push(body.subarray(i, i + size));
    i += size + 2;
  }
  return concatBytes(parts);
}

/** The HTTP response inside a response record's block, or null when the block is not one. */
export function parseHttpResponse(block: Uint8Array): HttpMessage | null {
  const end = headerEnd(block, 0, Math.min(block.length, MAX_HEADER_BYTES));
  if (end < 0) return null;
  const head = latin1.decode(block.subarray(0, end));
  const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(head);
  if (status === null) return null;
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  let body = block.subarray(end + 4);
  if ((headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) body = dechunk(body) ?? body; // some archives store it undone
  return { status: Number(status[1]), headers, body };
}

/** The HTML page of a record: a 2xx HTTP response with an HTML Content-Type and a target URI; else null. */
export function htmlPageOf(record: WarcRecord): WarcHtmlPage | null {
  if (record.type !== 'response' || record.targetUri === null) return null;
  const http = parseHttpResponse(record.block);
  if (http === null || http.status < 200 || http.status > 299) return null;
  const contentType = http.headers.get('content-type') ?? '';
  if (!isHtmlMediaType(mediaTypeOf(contentType))) return null;
  const encoding = (http.headers.get('content-encoding') ?? '').trim().toLowerCase();
  return { url: record.targetUri, contentType, contentEncoding: encoding === 'identity' ? '' : encoding, body: http.body };
}

// ---- writing (fixtures, tests) ----

const encoder = new TextEncoder();

/** One WARC/1.1 record: `fields` in order (WARC-Type, WARC-Target-URI, ...); Content-Length is added. */
export function warcRecord(fields: ReadonlyArray<readonly [string, string]>, block: Uint8Array): Uint8Array {
  const head = ['WARC/1.1', ...fields.map(([k, v]) => `${k}: ${v}`), `Content-Length: ${block.length}`, '', ''].join('\r\n');
  return concatBytes([encoder.encode(head), block, encoder.encode('\r\n\r\n')]);
}

/** The block of a response record: an HTTP/1.1 response with `headers` and `body`. */
export function httpResponseBlock(status: number, headers: ReadonlyArray<readonly [string, string]>, body: Uint8Array): Uint8Array {
  const head = [`HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Status'}`, ...headers.map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
  return concatBytes([encoder.encode(head), body]);
}
