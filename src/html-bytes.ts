// Page files as bytes, for the Node hosts (the CLI and its batch workers): gzip undone when the name ends in .gz or
// the bytes start with gzip's magic. The charset is parse/charset.ts's decodeHtml.

import { gunzipSync } from 'node:zlib';
import { PithError } from './errors.js';

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;

export function gunzipIfNeeded(bytes: Uint8Array, name: string): Uint8Array {
  if (!name.endsWith('.gz') && !isGzip(bytes)) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (err) {
    throw new PithError('invalid_input', `${name} is not valid gzip: ${(err as Error).message}`);
  }
}
