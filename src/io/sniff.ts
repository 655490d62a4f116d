// Is a body text (HTML, XML) or binary? One pure check for every host: the Worker runs it on fetched and posted
// bodies, the CLI on files and fetched pages. Imports nothing.
//
// The rule follows the WHATWG MIME Sniffing standard: a few well-known signatures, then "binary data bytes"
// (control bytes text does not contain: 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F) in the first 1,445 bytes. Unlike
// the standard, one stray byte does not make a page binary: more than 2% of them does (random or compressed
// bytes have about 10.5%; a page with a few NULs stays text, and the extractor drops the NULs).
// A UTF-16 or UTF-8 byte-order mark means text (UTF-16 text is full of 0x00 bytes).

/** How many leading bytes are looked at (the standard's resource header size). */
export const SNIFF_BYTES = 1445;

/** Share of binary data bytes above which the head is binary. */
const BINARY_SHARE = 0.02;

/** [signature, what it is]; `null` in a signature matches any byte. */
const SIGNATURES: ReadonlyArray<readonly [ReadonlyArray<number | null>, string]> = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], 'a WebP image'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (or an Office document)'],
  [[0x1f, 0x8b, 0x08], 'gzip-compressed data'],
  [[0x42, 0x5a, 0x68], 'bzip2-compressed data'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz-compressed data'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd-compressed data'],
  [[0x7f, 0x45, 0x4c, 0x46], 'an ELF executable'],
  [[0x4d, 0x5a], 'a Windows executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'a WebAssembly module'],
  [[0x1a, 0x45, 0xdf, 0xa3], 'a Matroska/WebM video'],
  [[0x4f, 0x67, 0x67, 0x53, 0x00], 'an Ogg stream'],
  [[0x49, 0x44, 0x33], 'an MP3 file'],
];

function isBinaryDataByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

function startsWith(bytes: Uint8Array, signature: ReadonlyArray<number | null>): boolean {
  if (bytes.length < signature.length) return false;
  for (let i = 0; i < signature.length; i++) {
    const s = signature[i];
    if (s !== null && bytes[i] !== s) return false;
  }
  return true;
}

/**
 * What binary content `bytes` holds ("a PNG image", "binary data"), or null when it looks like text.
 * Looks at the first SNIFF_BYTES bytes only.
 */
export function sniffBinary(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (startsWith(head, [0xfe, 0xff]) || startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xef, 0xbb, 0xbf])) return null;
  for (const [signature, what] of SIGNATURES) {
    if (startsWith(head, signature)) return what;
  }
  let binaryBytes = 0;
  for (let i = 0; i < head.length; i++) {
    if (isBinaryDataByte(head[i])) binaryBytes++;
  }
  return binaryBytes > head.length * BINARY_SHARE ? 'binary data' : null;
}
