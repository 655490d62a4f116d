// Page files as bytes, for the Node hosts (the CLI and its batch workers): gzip undone when the name ends in .gz or
// the bytes start with gzip's magic; htmlOf() refuses what is not HTML and decodes the rest (parse/charset.ts).

import { gunzipSync } from 'node:zlib';
import { PithError } from '../../errors.js';
import { decodeHtml } from '../../io/charset.js';
import { sniffBinary } from '../../io/sniff.js';

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;

export function gunzipIfNeeded(bytes: Uint8Array, name: string): Uint8Array {
  if (!name.endsWith('.gz') && !isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (err) {
    throw new PithError('invalid_input', `${name} is not valid gzip: ${(err as Error).message}`);
  }
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
