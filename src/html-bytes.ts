// HTML files as bytes -> text, for the Node hosts (the CLI and its batch workers): gzip, then the charset.

import { gunzipSync } from 'node:zlib';
import { PithError } from './errors.js';

const META_CHARSET_RE = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

function decoderFor(label: string | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null; // unknown label
  }
}

/** Decode HTML bytes: BOM, then the given charset (HTTP header), then a <meta> charset in the first 4 KiB, else UTF-8. */
export function decodeHtmlBytes(bytes: Uint8Array, headerCharset?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const fromHeader = decoderFor(headerCharset);
  if (fromHeader) return fromHeader.decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const fromMeta = decoderFor(META_CHARSET_RE.exec(head)?.[1]);
  return (fromMeta ?? new TextDecoder('utf-8')).decode(bytes);
}

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;

export function gunzipIfNeeded(bytes: Uint8Array, name: string): Uint8Array {
  if (!name.endsWith('.gz') && !isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (err) {
    throw new PithError('invalid_input', `${name} is not valid gzip: ${(err as Error).message}`);
  }
}
