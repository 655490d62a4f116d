// An HTML tokenizer after the WHATWG tokenization states, on whole runs (indexOf) rather than one character at a
// time: tags with their attributes (quotes respected, names ASCII-lower-cased, the first of a repeated name kept),
// comments (`<!-->`, `--!>`), bogus comments (`<?…>`, `</…>`, `<!…>`, and `<![CDATA[` outside foreign content, all
// up to the first `>`), doctypes, character references (the `entities` decoder), and the text states the tree builder
// switches to: RCDATA, RAWTEXT, script data (with its `<!--` escapes) and PLAINTEXT.
import { decodeHTML, decodeHTMLAttribute } from 'entities';

/** What the tokenizer emits to (the tree builder). */
export interface TokenSink {
  startTag(name: string, attrs: string[] | null, selfClosing: boolean): void;
  endTag(name: string): void;
  text(data: string): void;
  comment(data: string): void;
  doctype(name: string, publicId: string | null, systemId: string | null): void;
  /** Whether the adjusted current node is outside HTML (then `<![CDATA[` is a CDATA section). */
  inForeignContent(): boolean;
}

export const DATA = 0;
export const RCDATA = 1;
export const RAWTEXT = 2;
export const SCRIPT_DATA = 3;
export const PLAINTEXT = 4;

/** WHATWG whitespace in the tokenizer: tab, LF, FF, space (CR is gone after preprocessing). */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** ASCII-lower-cased (other characters as they are). */
export function asciiLower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) return lowerAsciiLetters(s);
  }
  return s;
}

/** `s` with A-Z lower-cased, for a string known to hold some. */
function lowerAsciiLetters(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function isAsciiUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

/** Attributes of one tag past which duplicates are found through a Set. */
const LINEAR_DEDUP = 16;

/**
 * The tag names pages use, each a constant string of this module: a tag name read from the page is looked up by its
 * characters (ASCII case-insensitively) and the constant used, instead of a string cut from the page for every start
 * and end tag. Open addressing in a power-of-two table; names outside it are cut from the page as before.
 * (Attribute names were tried too: the look-ups cost the parse more than the strings they saved.)
 */
class NameTable {
  private readonly slots: (string | undefined)[];
  private readonly mask: number;

  constructor(names: readonly string[]) {
    let size = 64;
    while (size < names.length * 4) size *= 2;
    this.slots = new Array<string | undefined>(size).fill(undefined);
    this.mask = size - 1;
    for (const name of names) {
      let at = NameTable.hash(name, 0, name.length) & this.mask;
      while (this.slots[at] !== undefined && this.slots[at] !== name) at = (at + 1) & this.mask;
      this.slots[at] = name;
    }
  }

  /** Hash of s[start, end) with A-Z lower-cased, from its length and three of its characters (cheap, not thorough). */
  private static hash(s: string, start: number, end: number): number {
    const n = end - start;
    return n * 0x9e37 + lowered(s.charCodeAt(start)) * 0x3b1 + lowered(s.charCodeAt(end - 1)) * 31 +
      lowered(s.charCodeAt(start + (n >> 1)));
  }

  /** The name that s[start, end) is with A-Z lower-cased, when the table holds it. */
  find(s: string, start: number, end: number): string | undefined {
    const n = end - start;
    for (let at = NameTable.hash(s, start, end) & this.mask; ; at = (at + 1) & this.mask) {
      const name = this.slots[at];
      if (name === undefined) return undefined;
      if (name.length === n && equalsLowered(s, start, name)) return name;
    }
  }
}

function lowered(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Whether s from `start` is `lower` (a lower-case name) once A-Z are lower-cased. */
function equalsLowered(s: string, start: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    const c = s.charCodeAt(start + k);
    if (c !== lower.charCodeAt(k) && !(c >= 65 && c <= 90 && c + 32 === lower.charCodeAt(k))) return false;
  }
  return true;
}

const TAG_NAMES = new NameTable([
  // HTML elements
  'a', 'abbr', 'address', 'area', 'article', 'aside', 'audio', 'b', 'base', 'bdi', 'bdo', 'blockquote', 'body', 'br',
  'button', 'canvas', 'caption', 'center', 'cite', 'code', 'col', 'colgroup', 'data', 'datalist', 'dd', 'del',
  'details', 'dfn', 'dialog', 'div', 'dl', 'dt', 'em', 'embed', 'fieldset', 'figcaption', 'figure', 'font', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'i', 'iframe', 'img', 'input',
  'ins', 'kbd', 'label', 'legend', 'li', 'link', 'main', 'map', 'mark', 'menu', 'meta', 'meter', 'nav', 'noscript',
  'object', 'ol', 'optgroup', 'option', 'output', 'p', 'param', 'picture', 'pre', 'progress', 'q', 'rp', 'rt', 'ruby',
  's', 'samp', 'script', 'search', 'section', 'select', 'slot', 'small', 'source', 'span', 'strike', 'strong', 'style',
  'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot', 'th', 'thead', 'time', 'title',
  'tr', 'track', 'tt', 'u', 'ul', 'var', 'video', 'wbr', 'nobr', 'noframes', 'noembed', 'frame', 'frameset',
  // SVG and MathML (lower-cased, as the tokenizer gives them)
  'svg', 'path', 'g', 'use', 'symbol', 'defs', 'circle', 'rect', 'line', 'polygon', 'polyline', 'ellipse',
  'lineargradient', 'stop', 'clippath', 'mask', 'desc', 'foreignobject', 'math', 'mi', 'mo', 'mn',
]);

export class HtmlTokenizer {
  /** The text state the tree builder asked for, and the end tag that leaves it. */
  state = DATA;
  rawName = '';
  /** Start of the token being emitted (where a cut by the builder's budget lands). */
  tokenStart = 0;
  stopped = false;
  private pos = 0;
  private readonly len: number;
  /**
   * Names and values of the attributes of the tag being read, alternating, in the first `attrLength` slots: copied
   * out at their exact count when the tag ends (an array that grew by push took room for 19 at the second attribute).
   */
  private readonly attrBuffer: string[] = [];
  private attrLength = 0;
  /** The names in attrBuffer once there are more than LINEAR_DEDUP (a hostile tag can have 100,000). */
  private attrNames: Set<string> | null = null;
  /** The first `&` at or after `ampFrom` (`len` when none): what hasAmpersand() last searched. */
  private nextAmp = -1;
  private ampFrom = 0;

  constructor(
    private readonly html: string,
    private readonly sink: TokenSink,
  ) {
    this.len = html.length;
  }

  run(): void {
    while (!this.stopped && this.pos < this.len) {
      if (this.state === DATA) this.data();
      else if (this.state === PLAINTEXT) {
        this.tokenStart = this.pos;
        this.sink.text(this.html.slice(this.pos));
        this.pos = this.len;
      } else this.rawText();
    }
  }

  private emitText(start: number, end: number, decode: boolean): void {
    if (end <= start) return;
    this.tokenStart = start;
    const s = this.html.slice(start, end);
    this.sink.text(decode && this.hasAmpersand(start, end) ? decodeHTML(s) : s);
  }

  /**
   * Whether html[start, end) holds a `&` (a character reference to decode). The position of the first `&` at or after
   * the last place asked about is kept: the tokenizer asks in input order, so the whole input is searched for `&`
   * about once, not every attribute value and text again (most hold none).
   */
  private hasAmpersand(start: number, end: number): boolean {
    if (this.nextAmp < start || start < this.ampFrom) {
      const at = this.html.indexOf('&', start);
      this.nextAmp = at < 0 ? this.len : at;
      this.ampFrom = start;
    }
    return this.nextAmp < end;
  }

  /** Data state: text up to the next `<` that starts a token, then the token. */
  private data(): void {
    const html = this.html;
    const len = this.len;
    const start = this.pos;
    let from = start;
    for (;;) {
      const lt = html.indexOf('<', from);
      if (lt < 0 || lt + 1 >= len) {
        this.emitText(start, len, true);
        this.pos = len;
        return;
      }
      const c = html.charCodeAt(lt + 1);
      if (isAsciiAlpha(c) || c === 33 || c === 47 || c === 63) {
        this.emitText(start, lt, true);
        if (this.stopped) return;
        this.tokenStart = lt;
        this.markup(lt);
        return;
      }
      from = lt + 1;
    }
  }

  /** A token starting with `<` at lt (followed by a letter, `!`, `/` or `?`). */
  private markup(lt: number): void {
    const html = this.html;
    const c = html.charCodeAt(lt + 1);
    if (isAsciiAlpha(c)) {
      this.tag(lt + 1, false);
      return;
    }
    if (c === 47) {
      const d = lt + 2 < this.len ? html.charCodeAt(lt + 2) : -1;
      if (isAsciiAlpha(d)) this.tag(lt + 2, true);
      else if (d === 62) this.pos = lt + 3; // `</>`: nothing
      else if (d === -1) {
        this.sink.text('</');
        this.pos = this.len;
      } else this.bogusComment(lt + 2);
      return;
    }
    if (c === 63) {
      this.bogusComment(lt + 1); // `<?…>`: the comment keeps the `?`
      return;
    }
    // `<!`
    if (html.startsWith('--', lt + 2)) {
      this.comment(lt + 4);
      return;
    }
    if (startsWithIgnoreCase(html, lt + 2, 'doctype')) {
      this.doctype(lt + 9);
      return;
    }
    if (html.startsWith('[CDATA[', lt + 2) && this.sink.inForeignContent()) {
      const end = html.indexOf(']]>', lt + 9);
      const stop = end < 0 ? this.len : end;
      this.pos = end < 0 ? this.len : end + 3;
      if (stop > lt + 9) this.sink.text(html.slice(lt + 9, stop));
      return;
    }
    this.bogusComment(lt + 2);
  }

  private bogusComment(from: number): void {
    const gt = this.html.indexOf('>', from);
    const end = gt < 0 ? this.len : gt;
    this.pos = gt < 0 ? this.len : gt + 1;
    this.sink.comment(this.html.slice(from, end));
  }

  /** After `<!--`: `<!-->` and `<!--->` are empty; otherwise up to `-->` or `--!>` (or the end). */
  private comment(from: number): void {
    const html = this.html;
    if (html.charCodeAt(from) === 62) {
      this.pos = from + 1;
      this.sink.comment('');
      return;
    }
    if (html.startsWith('->', from)) {
      this.pos = from + 2;
      this.sink.comment('');
      return;
    }
    let end = html.indexOf('--', from);
    for (;;) {
      if (end < 0) {
        this.pos = this.len;
        this.sink.comment(html.slice(from));
        return;
      }
      // after a run of dashes, `>` or `!>` ends the comment
      let k = end + 2;
      while (html.charCodeAt(k) === 45) k++;
      if (html.charCodeAt(k) === 62) {
        this.pos = k + 1;
        this.sink.comment(html.slice(from, k - 2));
        return;
      }
      if (html.charCodeAt(k) === 33 && html.charCodeAt(k + 1) === 62) {
        this.pos = k + 2;
        this.sink.comment(html.slice(from, k - 2));
        return;
      }
      end = html.indexOf('--', k - 1);
    }
  }

  /** After `<!doctype`: the name, then PUBLIC/SYSTEM identifiers, up to `>`. */
  private doctype(from: number): void {
    const html = this.html;
    const len = this.len;
    let i = from;
    while (i < len && isSpace(html.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < len && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 62) i++;
    const name = asciiLower(html.slice(nameStart, i));
    let publicId: string | null = null;
    let systemId: string | null = null;
    // identifiers: a keyword, then a quoted string (a `>` inside one ends the doctype, as in the states)
    const gtAll = html.indexOf('>', i);
    const end = gtAll < 0 ? len : gtAll;
    const rest = html.slice(i, end);
    const m = /^\s*(public|system)\s*(["'])([^"'>]*)\2?(?:\s*(["'])([^"'>]*)\4?)?/i.exec(rest);
    if (m !== null) {
      if (m[1].toLowerCase() === 'public') {
        publicId = m[3];
        systemId = m[5] ?? null;
      } else systemId = m[3];
    }
    this.pos = gtAll < 0 ? len : gtAll + 1;
    this.sink.doctype(name, publicId, systemId);
  }

  /**
   * A start or end tag whose name starts at `nameStart`. Returns the position after it; an unfinished tag at the end
   * of the input is dropped.
   */
  private tag(nameStart: number, isEnd: boolean): void {
    const html = this.html;
    const len = this.len;
    let i = nameStart + 1;
    // Upper-case letters are noted as the name is read: most names have none and need no second pass to lower-case.
    let upper = isAsciiUpper(html.charCodeAt(nameStart));
    while (i < len) {
      const d = html.charCodeAt(i);
      if (d === 62 || d === 47 || isSpace(d)) break;
      if (d <= 90 && d >= 65) upper = true;
      i++;
    }
    if (i >= len) {
      this.pos = len;
      return;
    }
    const name = this.tagNameAt(nameStart, i, upper);
    this.attrLength = 0;
    this.attrNames = null;
    let selfClosing = false;
    for (;;) {
      if (i >= len) {
        this.pos = len;
        return;
      }
      let d = html.charCodeAt(i);
      if (d === 62) break;
      if (isSpace(d)) {
        i++;
        continue;
      }
      if (d === 47) {
        i++;
        if (i < len && html.charCodeAt(i) === 62) {
          selfClosing = true;
          break;
        }
        continue;
      }
      // an attribute name (its first character may be `=`)
      const ns = i;
      let aupper = isAsciiUpper(d);
      i++;
      while (i < len) {
        d = html.charCodeAt(i);
        if (d === 61 || d === 62 || d === 47 || isSpace(d)) break;
        if (d <= 90 && d >= 65) aupper = true;
        i++;
      }
      const aname = aupper ? lowerAsciiLetters(html.slice(ns, i)) : html.slice(ns, i);
      while (i < len && isSpace(html.charCodeAt(i))) i++;
      let value = '';
      if (i < len && html.charCodeAt(i) === 61) {
        i++;
        while (i < len && isSpace(html.charCodeAt(i))) i++;
        if (i >= len) {
          this.pos = len;
          return;
        }
        d = html.charCodeAt(i);
        if (d === 34 || d === 39) {
          const close = html.indexOf(d === 34 ? '"' : "'", i + 1);
          if (close < 0) {
            this.pos = len;
            return;
          }
          value = html.slice(i + 1, close);
          if (this.hasAmpersand(i + 1, close)) value = decodeHTMLAttribute(value);
          i = close + 1;
        } else if (d !== 62) {
          const vs = i;
          while (i < len) {
            d = html.charCodeAt(i);
            if (d === 62 || isSpace(d)) break;
            i++;
          }
          value = html.slice(vs, i);
          if (this.hasAmpersand(vs, i)) value = decodeHTMLAttribute(value);
        }
      }
      if (!isEnd) this.addAttribute(aname, value);
    }
    this.pos = i + 1;
    if (isEnd) this.sink.endTag(name);
    else this.sink.startTag(name, this.attributes(), selfClosing);
  }

  /** The tag's attributes (attrBuffer) as an array of their own, null when none. */
  private attributes(): string[] | null {
    const b = this.attrBuffer;
    // Literals for the common counts: allocated inline, where slice is a call into the runtime.
    switch (this.attrLength) {
      case 0: return null;
      case 2: return [b[0], b[1]];
      case 4: return [b[0], b[1], b[2], b[3]];
      case 6: return [b[0], b[1], b[2], b[3], b[4], b[5]];
      default: return b.slice(0, this.attrLength);
    }
  }

  /** The tag name html[start, end), ASCII-lower-cased (`upper`: it has A-Z). */
  private tagNameAt(start: number, end: number, upper: boolean): string {
    const known = TAG_NAMES.find(this.html, start, end);
    if (known !== undefined) return known;
    const name = this.html.slice(start, end);
    return upper ? lowerAsciiLetters(name) : name;
  }

  /** Adds name=value to the tag's attributes unless it already has that name (the first counts). */
  private addAttribute(name: string, value: string): void {
    const buffer = this.attrBuffer;
    const n = this.attrLength;
    if (n <= 2 * LINEAR_DEDUP) {
      for (let k = 0; k < n; k += 2) if (buffer[k] === name) return;
    } else {
      if (this.attrNames === null) {
        this.attrNames = new Set();
        for (let k = 0; k < n; k += 2) this.attrNames.add(buffer[k]);
      }
      if (this.attrNames.has(name)) return;
      this.attrNames.add(name);
    }
    buffer[n] = name;
    buffer[n + 1] = value;
    this.attrLength = n + 2;
  }

  /** RCDATA, RAWTEXT or script data: text up to `</rawName` followed by whitespace, `/` or `>`, then that end tag. */
  private rawText(): void {
    const start = this.pos;
    const end = this.state === SCRIPT_DATA ? this.scriptEnd(start) : this.findEndTag(start);
    this.emitText(start, end, this.state === RCDATA);
    if (this.stopped) return;
    this.state = DATA;
    if (end >= this.len) {
      this.pos = this.len;
      return;
    }
    this.tokenStart = end;
    this.tag(end + 2, true);
  }

  /** Whether html[at] starts `</rawName` followed by a tag-name delimiter. */
  private isEndTagAt(at: number): boolean {
    const html = this.html;
    const n = this.rawName;
    if (html.charCodeAt(at + 1) !== 47 || !startsWithIgnoreCase(html, at + 2, n)) return false;
    const d = html.charCodeAt(at + 2 + n.length);
    return isSpace(d) || d === 47 || d === 62;
  }

  private findEndTag(from: number): number {
    const html = this.html;
    for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) if (this.isEndTagAt(at)) return at;
    return this.len;
  }

  /** Script data with its escaped (`<!--`) and double-escaped (`<!-- <script>`) states: where `</script>` ends it. */
  private scriptEnd(from: number): number {
    const html = this.html;
    const len = this.len;
    let pos = from;
    let escaped = false;
    let double = false;
    for (;;) {
      const lt = html.indexOf('<', pos);
      if (!escaped) {
        if (lt < 0) return len;
        if (html.startsWith('!--', lt + 1)) {
          escaped = true;
          pos = lt + 2; // `<!-->` leaves the escape at once: the `--` may end it
          continue;
        }
        if (this.isEndTagAt(lt)) return lt;
        pos = lt + 1;
        continue;
      }
      const dashes = html.indexOf('-->', pos);
      if (dashes >= 0 && (lt < 0 || dashes < lt)) {
        escaped = false;
        double = false;
        pos = dashes + 3;
        continue;
      }
      if (lt < 0) return len;
      if (!double) {
        if (this.isEndTagAt(lt)) return lt;
        if (startsWithIgnoreCase(html, lt + 1, 'script') && isDelimiter(html.charCodeAt(lt + 7))) double = true;
      } else if (html.charCodeAt(lt + 1) === 47 && startsWithIgnoreCase(html, lt + 2, 'script') && isDelimiter(html.charCodeAt(lt + 8))) {
        double = false;
      }
      pos = lt + 1;
    }
  }
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 47 || c === 62;
}

function startsWithIgnoreCase(html: string, at: number, lower: string): boolean {
  if (at + lower.length > html.length) return false;
  for (let k = 0; k < lower.length; k++) if ((html.charCodeAt(at + k) | 0x20) !== lower.charCodeAt(k)) return false;
  return true;
}

