// Element boundaries of an XML document, as offsets into its original text. Pure; no XML library.
//
// The feed proxy keeps every byte of a feed that it does not change (see feed-xml.ts for why), so it needs to
// know where each item starts and ends in the text as received. This is a single forward scan that
// understands exactly what can hide a "<" or ">" in XML: comments, CDATA sections, processing instructions,
// the DOCTYPE declaration with its internal subset, and quoted attribute values. Text between tags is skipped
// as is (entities need no attention: "&" never starts a tag).
//
// It is not a validator: fast-xml-parser validates the document first; this scan only refuses what it cannot
// follow (unclosed constructs, mismatched end tags, not exactly one root element) by throwing XmlScanError.
// fast-xml-parser's own offsets (captureMetaData) give an element's start and end but not where its start tag ends
// or its end tag starts, which feed-xml.ts needs, and it cannot stop at a depth.

export interface XmlElement {
  /** Qualified name as written, e.g. "item", "content:encoded", "atom:entry". */
  name: string;
  /** Offset of the "<" of the start tag. */
  start: number;
  /** Offset just after the ">" of the start tag. */
  startTagEnd: number;
  /** Offset of the "</" of the end tag; equals startTagEnd for a self-closing element. */
  endTagStart: number;
  /** Offset just after the ">" of the end tag (or of the self-closing start tag). */
  end: number;
  /** 0 for the root element. */
  depth: number;
  /** Index of the parent in the scan result; -1 for the root. */
  parent: number;
  selfClosing: boolean;
}

export class XmlScanError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'XmlScanError';
    this.offset = offset;
  }
}

const NAME_END = /[\s/>]/;

/** Offset just past `terminator` searched from `from`, or a scan error naming `what`. */
function skipPast(xml: string, from: number, terminator: string, what: string, opened: number): number {
  const at = xml.indexOf(terminator, from);
  if (at < 0) throw new XmlScanError(`${what} opened at offset ${opened} is never closed`, opened);
  return at + terminator.length;
}

/** Offset just past the ">" that ends a start tag or declaration beginning at `from`, skipping quoted values. */
function skipTag(xml: string, from: number, opened: number): number {
  let i = from;
  const n = xml.length;
  while (i < n) {
    const c = xml.charCodeAt(i);
    if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const close = xml.indexOf(xml[i], i + 1);
      if (close < 0) throw new XmlScanError(`an attribute value in the tag at offset ${opened} is never closed`, opened);
      i = close + 1;
      continue;
    }
    if (c === 0x3e /* > */) return i + 1;
    i++;
  }
  throw new XmlScanError(`the tag at offset ${opened} is never closed`, opened);
}

/** Offset just past a <!DOCTYPE ...> declaration, internal subset (with its quotes and comments) included. */
function skipDoctype(xml: string, from: number, opened: number): number {
  let i = from;
  let depth = 0;
  const n = xml.length;
  while (i < n) {
    const ch = xml[i];
    if (ch === '"' || ch === "'") {
      const close = xml.indexOf(ch, i + 1);
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    if (depth > 0 && xml.startsWith('<!--', i)) {
      i = skipPast(xml, i + 4, '-->', 'a comment', i);
      continue;
    }
    if (ch === '[') depth++;
    else if (ch === ']') depth--;
    else if (ch === '>' && depth <= 0) return i + 1;
    i++;
  }
  throw new XmlScanError(`the DOCTYPE declaration at offset ${opened} is never closed`, opened);
}

/**
 * Scans `xml` and returns its elements down to `maxDepth` (root = depth 0) in document order. Deeper
 * elements are followed (their tags must match) but not returned.
 */
export function scanElements(xml: string, maxDepth: number): XmlElement[] {
  const out: XmlElement[] = [];
  // Open elements: their names, and their index in `out` (-1 when deeper than maxDepth).
  const openNames: string[] = [];
  const openIndexes: number[] = [];
  let roots = 0;
  let i = 0;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    const next = xml[lt + 1];
    if (next === '!') {
      if (xml.startsWith('<!--', lt)) i = skipPast(xml, lt + 4, '-->', 'a comment', lt);
      else if (xml.startsWith('<![CDATA[', lt)) i = skipPast(xml, lt + 9, ']]>', 'a CDATA section', lt);
      else i = skipDoctype(xml, lt + 2, lt);
      continue;
    }
    if (next === '?') {
      i = skipPast(xml, lt + 2, '?>', 'a processing instruction', lt);
      continue;
    }
    if (next === '/') {
      const gt = xml.indexOf('>', lt + 2);
      if (gt < 0) throw new XmlScanError(`the end tag at offset ${lt} is never closed`, lt);
      const name = xml.slice(lt + 2, gt).trim();
      const expected = openNames.pop();
      if (expected !== name) {
        throw new XmlScanError(`the end tag </${name.slice(0, 60)}> at offset ${lt} does not close <${(expected ?? '(nothing)').slice(0, 60)}>`, lt);
      }
      const index = openIndexes.pop() as number;
      if (index >= 0) {
        out[index].endTagStart = lt;
        out[index].end = gt + 1;
      }
      i = gt + 1;
      continue;
    }
    // A start tag.
    let nameEnd = lt + 1;
    while (nameEnd < xml.length && !NAME_END.test(xml[nameEnd])) nameEnd++;
    const name = xml.slice(lt + 1, nameEnd);
    if (name === '') throw new XmlScanError(`a "<" at offset ${lt} starts no tag`, lt);
    const tagEnd = skipTag(xml, nameEnd, lt);
    const selfClosing = xml[tagEnd - 2] === '/';
    const depth = openNames.length;
    if (depth === 0) {
      roots++;
      if (roots > 1) throw new XmlScanError(`a second root element <${name.slice(0, 60)}> at offset ${lt}`, lt);
    }
    let index = -1;
    if (depth <= maxDepth) {
      index = out.length;
      out.push({
        name,
        start: lt,
        startTagEnd: tagEnd,
        endTagStart: tagEnd,
        end: tagEnd,
        depth,
        parent: depth === 0 ? -1 : openIndexes[depth - 1],
        selfClosing,
      });
    }
    if (!selfClosing) {
      openNames.push(name);
      openIndexes.push(index);
    }
    i = tagEnd;
  }
  if (openNames.length > 0) {
    throw new XmlScanError(`<${openNames[openNames.length - 1].slice(0, 60)}> is never closed`, xml.length);
  }
  if (roots === 0) throw new XmlScanError('the document has no root element', 0);
  return out;
}

/** Attributes of a start tag (the text from "<" to ">"), values as written (entities not decoded). */
export function attributesOf(startTag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of startTag.matchAll(ATTRIBUTE)) attributes.set(m[1], m[2] ?? m[3] ?? '');
  return attributes;
}

const ATTRIBUTE = /([^\s=/<>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
