// The character encoding of an HTML or XML document's bytes, and its text: the one decoder of the server's page
// fetcher, the feed proxy, the CLI (files, stdin and its own fetcher) and the dev corpus loader. Pure: bytes and
// a Content-Type string in, text out. Order: a BOM, then the Content-Type charset, then a declaration inside the
// document (<meta charset>, <meta http-equiv>, XML declaration), else UTF-8.

const CHARSET_PARAM = /charset\s*=\s*["']?([^"';\s]+)/i;
const META_TAG = /<meta\b[^>]*>/gi;
const META_CHARSET_ATTR = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i;
const META_HTTP_EQUIV = /\bhttp-equiv\s*=\s*["']?\s*content-type/i;
const META_CONTENT_ATTR = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const XML_DECLARATION = /^<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i;
/** How many bytes the <meta> prescan looks at (the HTML standard says 1024; real pages put it later). */
const PRESCAN_BYTES = 4096;
const latin1 = new TextDecoder('windows-1252');

/** WHATWG name of an encoding label, or null when TextDecoder does not know it. */
export function encodingFor(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** Encoding of a BOM at the start of `bytes`, or null. */
function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** Encoding declared inside the document (<meta charset>, <meta http-equiv>, XML declaration), or null. */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = latin1.decode(bytes.subarray(0, PRESCAN_BYTES));
  const xml = XML_DECLARATION.exec(head);
  if (xml !== null) {
    const found = encodingFor(xml[1]);
    if (found !== null) return found;
  }
  for (const [tag] of head.matchAll(META_TAG)) {
    const direct = META_CHARSET_ATTR.exec(tag);
    if (direct !== null && !META_HTTP_EQUIV.test(tag)) {
      const found = encodingFor(direct[1]);
      if (found !== null) return found;
      continue;
    }
    if (META_HTTP_EQUIV.test(tag)) {
      const content = META_CONTENT_ATTR.exec(tag);
      const value = content === null ? '' : (content[1] ?? content[2] ?? content[3] ?? '');
      const charset = CHARSET_PARAM.exec(value);
      const found = charset === null ? null : encodingFor(charset[1]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Picks the encoding of an HTML/XML body: the Content-Type charset, then a BOM, then an in-document
 * declaration, else UTF-8. One exception, as in the HTML standard: a BOM is proof of the encoding and wins
 * over a header that disagrees. A document that declares UTF-16 without a BOM is read as UTF-8 (HTML standard).
 */
export function detectEncoding(bytes: Uint8Array, contentType = ''): string {
  const bom = bomEncoding(bytes);
  if (bom !== null) return bom;
  const param = CHARSET_PARAM.exec(contentType);
  const fromHeader = param === null ? null : encodingFor(param[1]);
  if (fromHeader !== null) return fromHeader;
  const declared = declaredEncoding(bytes);
  if (declared !== null) {
    if (declared.startsWith('utf-16')) return 'utf-8';
    if (declared === 'x-user-defined') return 'windows-1252';
    return declared;
  }
  return 'utf-8';
}

/** Decodes a body with detectEncoding(); malformed sequences become U+FFFD, never an error. */
export function decodeBody(bytes: Uint8Array, contentType = ''): { text: string; encoding: string } {
  const encoding = detectEncoding(bytes, contentType);
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}

/** The text of an HTML document's bytes: decodeBody() without the encoding's name. */
export function decodeHtml(bytes: Uint8Array, contentType = ''): string {
  return decodeBody(bytes, contentType).text;
}
