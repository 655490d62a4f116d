// Character references (`&amp;`, `&#39;`, `&#x2019;`) in text that did not go through the HTML parser: JSON-LD
// strings that CMSs HTML-escape, and feed items whose HTML is fingerprinted as text. The DOM decodes everything
// else; this decoder knows only the five XML entities and `&nbsp;`.

const REFERENCE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z][a-z0-9]{1,31}));/gi;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * `text` with its character references decoded. A reference it cannot decode (an unknown name, code point 0, a
 * surrogate or one past U+10FFFF) becomes `fallback`, or stays as written when `fallback` is undefined.
 */
export function decodeCharacterReferences(text: string, fallback?: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (ref, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name.toLowerCase()] ?? fallback ?? ref;
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex ?? '', 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : (fallback ?? ref);
  });
}
