// Page files as bytes, for the Node hosts (the CLI and its batch workers): read with a cap (a file can be
// /dev/zero), gzip undone by the one content decoder when the name ends in .gz or the bytes start with gzip's magic
// (capped too: a small file can be a bomb); htmlOf() refuses what is not HTML and decodes the rest (io/charset.ts).

import { closeSync, openSync, readSync } from 'node:fs';
import { DEFAULT_LIMITS, type Limits } from '../../config.js';
import { PithError } from '../../errors.js';
import { decodeBytes, type DecodeCodes, isGzipBytes } from '../../io/content-decoder.js';
import { decodeHtml } from '../../io/charset.js';
import { sniffBinary } from '../../io/sniff.js';

/**
 * Most bytes of one page file, read or decoded: four bytes per character of the parser's input limit (a larger
 * page could not be extracted anyway: extract() refuses more than maxInputChars).
 */
export const pageFileBytesOf = (limits: Readonly<Limits>): number => 4 * limits.maxInputChars;
export const MAX_PAGE_FILE_BYTES = pageFileBytesOf(DEFAULT_LIMITS);

const FILE_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'input_too_large', corrupt: 'invalid_input', timeout: 'input_too_large' });
const READ_CHUNK_BYTES = 1024 * 1024;

function tooLarge(name: string, maxBytes: number): PithError {
  return new PithError('input_too_large', `${name} is larger than ${maxBytes / (1024 * 1024)} MiB, the most pith reads for one page`, { maxBytes });
}

/** The bytes of a file (or a device, or a pipe), at most `maxBytes`: past it 'input_too_large', without reading on. */
export function readFileBounded(path: string, maxBytes = MAX_PAGE_FILE_BYTES): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a stream (stdin), at most `maxBytes`: past it 'input_too_large', and the stream is left unread. */
export async function readStreamBounded(stream: AsyncIterable<Uint8Array | string>, name: string, maxBytes = MAX_PAGE_FILE_BYTES): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) throw tooLarge(name, maxBytes);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

/** The page's bytes with gzip undone when `name` ends in .gz or the bytes start with gzip's magic. */
export async function gunzipIfNeeded(bytes: Uint8Array, name: string, maxBytes = MAX_PAGE_FILE_BYTES): Promise<Uint8Array> {
  if (!name.endsWith('.gz') && !isGzipBytes(bytes)) return bytes;
  return decodeBytes(bytes, 'gzip', { maxBytes, what: name, codes: FILE_CODES });
}

const TAG = /<[a-z!?/]/i;
/** How far into a text the first tag is looked for. */
const TAG_SCAN_CHARS = 64 * 1024;

/**
 * Decoded HTML of `bytes` (already decompressed), or PithError 'not_html' saying what they are instead: pith reads
 * HTML only, as the service does. Binary content is recognised by src/io/sniff.ts (the Worker's check); a text without
 * a single tag is not a page either. An empty input is let through: it has no main content.
 */
export function htmlOf(bytes: Uint8Array, name: string, contentType = ''): string {
  const binary = sniffBinary(bytes);
  if (binary !== null) throw new PithError('not_html', `${name} is ${binary}, not an HTML page`);
  const html = decodeHtml(bytes, contentType);
  if (html.length > 0 && !TAG.test(html.slice(0, TAG_SCAN_CHARS))) {
    throw new PithError('not_html', `${name} is text without any HTML tag, not an HTML page`);
  }
  return html;
}
