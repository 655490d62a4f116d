// Is a byte string an HTML page? Looked at before decoding, where no Content-Type says (a file, stdin, a body
// without a type): the signatures of common binary formats, the WHATWG MIME-sniffing rule for binary bytes, and
// whether the text has any markup at all. Pure, no I/O; the CLI refuses what this rejects with `not_html`.

export interface Sniffed {
  /** True when the bytes can be an HTML page (text with markup). */
  html: boolean;
  /** Best guess of the media type ('text/html', 'image/png', 'application/octet-stream', 'text/plain', ...). */
  mediaType: string;
  /** What it is, for a message: "a PNG image", "binary data", "text without any HTML tag". */
  description: string;
}

/**
 * Leading bytes of formats that are certainly not HTML (WHATWG MIME Sniffing tables, plus a few common ones). Short
 * signatures that a text could start with (BMP's "BM", PE's "MZ", "ID3") are left to the binary-byte rule.
 */
const SIGNATURES: ReadonlyArray<readonly [bytes: readonly number[], mediaType: string, description: string]> = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png', 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'image/jpeg', 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38, 0x37, 0x61], 'image/gif', 'a GIF image'],
  [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 'image/gif', 'a GIF image'],
  [[0x00, 0x00, 0x01, 0x00], 'image/x-icon', 'an icon'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf', 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip', 'a ZIP archive (or an office document)'],
  [[0x1f, 0x8b, 0x08], 'application/gzip', 'gzip-compressed data'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'application/zstd', 'zstd-compressed data'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'application/x-xz', 'xz-compressed data'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 'application/x-7z-compressed', 'a 7-Zip archive'],
  [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], 'application/vnd.rar', 'a RAR archive'],
  [[0x00, 0x61, 0x73, 0x6d], 'application/wasm', 'a WebAssembly module'],
  [[0x7f, 0x45, 0x4c, 0x46], 'application/x-elf', 'an executable (ELF)'],
  [[0x77, 0x4f, 0x46, 0x46], 'font/woff', 'a WOFF font'],
  [[0x77, 0x4f, 0x46, 0x32], 'font/woff2', 'a WOFF2 font'],
  [[0x4f, 0x67, 0x67, 0x53, 0x00], 'audio/ogg', 'an Ogg media file'],
  [[0x1a, 0x45, 0xdf, 0xa3], 'video/webm', 'a WebM / Matroska video'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], 'application/vnd.sqlite3', 'an SQLite database'],
];

/** How many leading bytes the binary-byte rule looks at (WHATWG MIME Sniffing: 1445). */
const BINARY_SCAN_BYTES = 1445;
/** How far into a text the first tag is looked for. */
const MARKUP_SCAN_BYTES = 64 * 1024;

function startsWith(bytes: Uint8Array, offset: number, prefix: readonly number[]): boolean {
  if (bytes.length - offset < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[offset + i] !== prefix[i]) return false;
  return true;
}

/** A "binary data byte" of the WHATWG MIME Sniffing standard: a control character no text uses. */
function isBinaryByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

const isTagStart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x21 /* ! */ || c === 0x2f /* / */ || c === 0x3f /* ? */;

/** A `<` followed by a letter, `!`, `/` or `?` in the first MARKUP_SCAN_BYTES characters (ASCII-compatible bytes). */
function hasMarkup(bytes: Uint8Array, offset: number): boolean {
  const end = Math.min(bytes.length - 1, offset + MARKUP_SCAN_BYTES);
  for (let i = offset; i < end; i++) if (bytes[i] === 0x3c && isTagStart(bytes[i + 1])) return true;
  return false;
}

/** The same for UTF-16 text (little or big endian), after its byte-order mark. */
function hasMarkupUtf16(bytes: Uint8Array, littleEndian: boolean): boolean {
  const end = Math.min(bytes.length - 3, 2 + MARKUP_SCAN_BYTES * 2);
  for (let i = 2; i < end; i += 2) {
    const c = littleEndian ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
    if (c !== 0x3c) continue;
    const d = littleEndian ? bytes[i + 2] | (bytes[i + 3] << 8) : (bytes[i + 2] << 8) | bytes[i + 3];
    if (isTagStart(d)) return true;
  }
  return false;
}

const HTML: Sniffed = Object.freeze({ html: true, mediaType: 'text/html', description: 'an HTML page' });
const NO_MARKUP: Sniffed = Object.freeze({ html: false, mediaType: 'text/plain', description: 'text without any HTML tag' });
const EMPTY: Sniffed = Object.freeze({ html: false, mediaType: 'text/plain', description: 'empty' });

/**
 * What `bytes` are: an HTML page (text with at least one tag), a known binary format, other binary data, or text
 * without markup. Decompress first: gzip data is reported as such.
 */
export function sniffBytes(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return EMPTY;
  if (startsWith(bytes, 0, [0xfe, 0xff])) return hasMarkupUtf16(bytes, false) ? HTML : NO_MARKUP;
  if (startsWith(bytes, 0, [0xff, 0xfe])) return hasMarkupUtf16(bytes, true) ? HTML : NO_MARKUP;
  const offset = startsWith(bytes, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  for (const [prefix, mediaType, description] of SIGNATURES) {
    if (startsWith(bytes, offset, prefix)) return { html: false, mediaType, description };
  }
  if (startsWith(bytes, offset, [0x52, 0x49, 0x46, 0x46]) && bytes.length >= 12) {
    return { html: false, mediaType: 'application/octet-stream', description: 'a RIFF media file (WebP, WAV or AVI)' };
  }
  if (bytes.length >= 12 && startsWith(bytes, 4, [0x66, 0x74, 0x79, 0x70])) {
    return { html: false, mediaType: 'video/mp4', description: 'an MP4 / HEIF media file' };
  }
  const scan = Math.min(bytes.length, BINARY_SCAN_BYTES);
  for (let i = offset; i < scan; i++) {
    if (isBinaryByte(bytes[i])) return { html: false, mediaType: 'application/octet-stream', description: 'binary data' };
  }
  return hasMarkup(bytes, offset) ? HTML : NO_MARKUP;
}
