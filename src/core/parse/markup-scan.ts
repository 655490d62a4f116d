// A cheap pass over the markup before the DOM is built (src/core/parse/dom.ts): how deep elements would nest, how
// many elements and nodes the build creates, how much work the stack of open elements does, and the largest
// `class` list. It lets parsePage refuse costly shapes, and cut a merely long page, before parsing. It tokenizes as
// src/core/parse/html-tokenizer.ts does and models the stack with simple implied-end rules (a close estimate of
// the WHATWG tree; the builder enforces the element, node and depth budgets itself for what the model misses).

/** What the parse of a page would build, as far as the scan went. */
export interface MarkupScan {
  /** Deepest element of the tree (the root's children are at depth 1; an open tag cut off by the end of the input counts). */
  maxDepth: number;
  /** Elements created. */
  elements: number;
  /** Nodes created: elements, their attributes, text nodes, comments, and each class name (an upper estimate). */
  nodes: number;
  /** Steps of the parser's open-element stack: each push, pop and end-tag search costs the stack's length. */
  stackSteps: number;
  /** Most class names in one `class` attribute (an upper estimate: separators + 1). */
  maxClassTokens: number;
  /** The first bound passed; the scan stopped there and the other figures are partial. */
  exceeded: keyof ScanBounds | null;
  /**
   * Where the scan stopped: the start of the tag, text or character reference that passed a bound (the input's
   * length when none did). Parsing `html.slice(0, cutAt)` creates no more nodes and elements than the bounds.
   */
  cutAt: number;
}

/** Bounds the scan stops at (as soon as one is passed). */
export interface ScanBounds {
  maxDepth: number;
  maxElements: number;
  maxNodes: number;
  maxStackSteps: number;
  maxClassTokens: number;
}

// Implied ends: opening the key first closes the open elements at the top of the stack while they are in the set
// (a `<p>` closed by a block start, an `<li>` by the next one, table rows and cells, options).
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['tr', ['tr', 'th', 'td']],
      ['th', ['th', 'td']],
      ['td', ['th', 'td']],
      ['body', ['head', 'link', 'script']],
      ['li', ['li', 'p']],
      ['select', FORM],
      ['input', FORM],
      ['output', FORM],
      ['button', FORM],
      ['datalist', FORM],
      ['textarea', FORM],
      ['option', ['option']],
      ['optgroup', ['optgroup', 'option']],
      ['dd', ['dd', 'dt', 'p']],
      ['dt', ['dd', 'dt', 'p']],
      ['rt', ['rt', 'rp']],
      ['rp', ['rt', 'rp']],
      ['tbody', ['thead', 'tbody']],
      ['tfoot', ['thead', 'tbody']],
      ...[
        'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl',
        'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section',
        'table', 'ul',
      ].map((t) => [t, P] as [string, string[]]),
    ] as Array<[string, string[]]>
  ).map(([k, v]) => [k, new Set(v)]),
);
const VOID = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link',
  'meta', 'param', 'source', 'track', 'wbr',
]);
/** Opening these enters foreign content (where `<x/>` closes itself); their end tag leaves it. */
const FOREIGN = new Set(['math', 'svg']);
/** Opening these inside foreign content returns to HTML rules; their end tag leaves them. */
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
/**
 * Elements whose content is text up to `</name` and whitespace, `/` or `>` (ASCII case-insensitive), in HTML content.
 * (`<noscript>` is raw text too, but its text is then parsed into its children: the scan counts it as markup.)
 */
const RAW_TEXT: ReadonlySet<string> = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']);

/**
 * Where the raw text from `from` ends: the first `</name` (ASCII case-insensitive; `name` is lower case letters)
 * followed by whitespace, `/` or `>`, or -1. What /<\/name[\t\n\f\r />]/gi finds, about twice as fast: a search for
 * `</` and a look at the characters after it.
 */
function rawTextEnd(html: string, from: number, name: string): number {
  const n = name.length;
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    let k = 0;
    while (k < n && (html.charCodeAt(at + 2 + k) | 0x20) === name.charCodeAt(k)) k++;
    if (k < n) continue;
    const d = html.charCodeAt(at + 2 + n);
    if (d === 32 || d === 10 || d === 9 || d === 12 || d === 13 || d === 47 || d === 62) return at;
  }
  return -1;
}

/** What the model does with a tag name beyond pushing and popping it (names without a rule have none of it). */
interface TagRule {
  /** Opening it first closes the open elements at the top of the stack while they are in this set. */
  closes: ReadonlySet<string> | undefined;
  isVoid: boolean;
  /** Opening it pushes a foreign-content flag (true for svg/math, false for HTML integration points); closing pops one. */
  context: boolean | undefined;
  /** Raw text up to this element's end tag (rawTextEnd). */
  rawText: boolean;
  /** `<plaintext>`: the rest of the input is text. */
  plaintext: boolean;
}
/** One lookup per tag instead of one per table. */
const RULES: ReadonlyMap<string, TagRule> = new Map(
  [...new Set([...OPEN_IMPLIES_CLOSE.keys(), ...VOID, ...FOREIGN, ...HTML_INTEGRATION, ...RAW_TEXT, 'plaintext'])].map((n) => [
    n,
    {
      closes: OPEN_IMPLIES_CLOSE.get(n),
      isVoid: VOID.has(n),
      context: FOREIGN.has(n) ? true : HTML_INTEGRATION.has(n) ? false : undefined,
      rawText: RAW_TEXT.has(n),
      plaintext: n === 'plaintext',
    },
  ]),
);

/** The tokenizer's whitespace: space, \n, \t, \f, \r. */
function isSpace(c: number): boolean {
  return c <= 32 && (c === 32 || c === 10 || c === 9 || c === 12 || c === 13);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** A separator for `String.prototype.split(/\s+/)` (which the DOM applies to `class`). */
function isClassSeparator(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** html[start, end) as the tokenizer names a tag: ASCII-lower-cased. */
function tagName(html: string, start: number, end: number): string {
  const s = html.slice(start, end);
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i);
    if (c >= 65 && c <= 90) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

/** The scan's state: a cursor over the markup, the modelled stack and the figures so far. */
class Scan {
  /** Model of the stack of open elements (top = last) and of foreign-content flags. */
  readonly stack: string[] = [];
  readonly foreign: boolean[] = [false];
  maxDepth = 0;
  elements = 0;
  nodes = 0;
  stackSteps = 0;
  maxClassTokens = 0;
  exceeded: MarkupScan['exceeded'] = null;
  cutAt: number;
  /** Start of the pending text run (`len` when none), and of the last token counted. */
  textStart = 0;
  unitStart = 0;
  /** Whether the tag `attributes` last read ended with `/>`. */
  selfClosing = false;
  readonly len: number;

  constructor(
    readonly html: string,
    readonly bounds: ScanBounds,
  ) {
    this.len = html.length;
    this.cutAt = html.length;
  }

  /** Whether a bound is passed; the first time, records it and cuts at `at`. */
  overBounds(at: number): boolean {
    if (this.exceeded !== null) return true;
    const b = this.bounds;
    if (this.maxDepth > b.maxDepth) this.exceeded = 'maxDepth';
    else if (this.maxClassTokens > b.maxClassTokens) this.exceeded = 'maxClassTokens';
    else if (this.stackSteps > b.maxStackSteps) this.exceeded = 'maxStackSteps';
    else if (this.elements > b.maxElements) this.exceeded = 'maxElements';
    else if (this.nodes > b.maxNodes) this.exceeded = 'maxNodes';
    else return false;
    this.cutAt = at;
    return true;
  }

  /** The pending text run up to `end`, one node; returns whether a bound was passed. */
  flushText(end: number): boolean {
    const start = this.textStart;
    this.textStart = this.len;
    if (end <= start) return false;
    this.nodes++;
    return this.overBounds(start);
  }

  private pop(): void {
    this.stackSteps += this.stack.length;
    this.stack.pop();
  }

  private inForeign(): boolean {
    return this.foreign[this.foreign.length - 1] === true;
  }

  /** An element opened; returns whether it stays open. */
  openElement(name: string, rule: TagRule | undefined): boolean {
    this.elements++;
    this.nodes++;
    const stack = this.stack;
    if (rule !== undefined) {
      const closes = rule.closes;
      if (closes !== undefined) while (stack.length > 0 && closes.has(stack[stack.length - 1])) this.pop();
      if (rule.isVoid) {
        if (stack.length >= this.maxDepth) this.maxDepth = stack.length + 1;
        return false;
      }
    }
    this.stackSteps += stack.length;
    stack.push(name);
    if (stack.length > this.maxDepth) this.maxDepth = stack.length;
    if (rule !== undefined && rule.context !== undefined) {
      this.stackSteps += this.foreign.length;
      this.foreign.push(rule.context);
    }
    return true;
  }

  /** An end tag: closes everything above its match, nothing without one (`</p>` and `</br>` create elements). */
  closeElement(name: string): void {
    const rule = RULES.get(name);
    if (rule !== undefined) {
      if (rule.context !== undefined && this.foreign.length > 1) {
        this.stackSteps += this.foreign.length;
        this.foreign.pop();
      }
      if (rule.isVoid) {
        if (name === 'br') this.openElement('br', rule);
        return;
      }
    }
    const stack = this.stack;
    let at = stack.length - 1;
    while (at >= 0 && stack[at] !== name) at--;
    this.stackSteps += stack.length - at;
    if (at >= 0) while (stack.length > at) this.pop();
    else if (name === 'p') {
      this.openElement('p', RULES.get('p'));
      this.pop();
    }
  }

  /**
   * Attributes from `i` up to the `>` that ends the tag (quotes respected), counted; returns the `>`'s position (and
   * sets `selfClosing` for `/>`), or -1 for a tag the input ends inside.
   */
  attributes(i: number): number {
    const html = this.html;
    const len = this.len;
    for (;;) {
      if (i >= len) return -1;
      let d = html.charCodeAt(i);
      if (d === 62) {
        this.selfClosing = false;
        return i;
      }
      if (d === 47) {
        i++;
        if (i < len && html.charCodeAt(i) === 62) {
          this.selfClosing = true;
          return i;
        }
        continue;
      }
      if (isSpace(d)) {
        i++;
        continue;
      }
      // a name: to `=`, whitespace, `/` or `>` (its first character may be `=`)
      const nameStart = i;
      i++;
      while (i < len) {
        d = html.charCodeAt(i);
        if (d === 61 || d === 62 || d === 47 || isSpace(d)) break;
        i++;
      }
      const isClass = i - nameStart === 5 && isClassName(html, nameStart);
      this.nodes++;
      while (i < len && isSpace(html.charCodeAt(i))) i++;
      if (i >= len) return -1;
      if (html.charCodeAt(i) !== 61) continue; // no value
      i++;
      while (i < len && isSpace(html.charCodeAt(i))) i++;
      if (i >= len) return -1;
      d = html.charCodeAt(i);
      let valueStart: number;
      let valueEnd: number;
      if (d === 34 || d === 39) {
        valueStart = i + 1;
        valueEnd = html.indexOf(d === 34 ? '"' : "'", valueStart);
        if (valueEnd < 0) return -1;
        i = valueEnd + 1;
      } else {
        valueStart = i;
        while (i < len) {
          d = html.charCodeAt(i);
          if (d === 62 || isSpace(d)) break;
          i++;
        }
        valueEnd = i;
      }
      if (isClass) this.countClassTokens(valueStart, valueEnd);
    }
  }

  private countClassTokens(start: number, end: number): void {
    let tokens = 1;
    for (let x = start; x < end; x++) {
      const e = this.html.charCodeAt(x);
      if ((e <= 32 || e >= 0xa0) && isClassSeparator(e)) tokens++;
    }
    if (tokens > this.maxClassTokens) this.maxClassTokens = tokens;
    this.nodes += tokens; // each class name counted as a node (an upper estimate)
  }

  /** A start tag at `lt` (a letter follows); returns where scanning goes on, or -1 to stop. */
  startTag(lt: number): number {
    const html = this.html;
    const len = this.len;
    const p = lt + 1;
    let k = p + 1;
    while (k < len) {
      const d = html.charCodeAt(k);
      if (d === 62 || d === 47 || isSpace(d)) break;
      k++;
    }
    if (k >= len) return -1;
    const name = tagName(html, p, k);
    const rule = RULES.get(name);
    const foreign = this.inForeign();
    const stays = this.openElement(name, rule);
    const gt = this.attributes(k);
    if (gt < 0) return -1;
    if (this.selfClosing && stays && foreign) {
      if (this.stack[this.stack.length - 1] === name) this.pop(); // `<x/>` in foreign content closes x
      return gt + 1;
    }
    if (rule === undefined || foreign || !stays) return gt + 1;
    if (rule.plaintext) {
      this.textStart = gt + 1;
      return -1;
    }
    if (!rule.rawText) return gt + 1;
    return this.rawText(lt, gt + 1, name);
  }

  /** Raw text from `from` up to the element's end tag (one text node), then the end tag. */
  private rawText(lt: number, from: number, name: string): number {
    const end = rawTextEnd(this.html, from, name);
    const textEnd = end < 0 ? this.len : end;
    if (textEnd > from) {
      this.nodes++;
      if (this.overBounds(lt)) return -1; // cut before the tag, not inside its text
    }
    if (end < 0) return -1;
    this.closeElement(name);
    const gt = this.attributes(end + 2 + name.length);
    return gt < 0 ? -1 : gt + 1;
  }

  /** `</` at `lt`: an end tag, `</>` (nothing), or a bogus comment; returns where scanning goes on, or -1. */
  endTag(lt: number): number {
    const html = this.html;
    const len = this.len;
    const k = lt + 2;
    if (k >= len) {
      this.textStart = lt; // `</` at the end: text
      return -1;
    }
    const d = html.charCodeAt(k);
    if (d === 62) return k + 1;
    if (!isAsciiAlpha(d)) return this.bogusComment(k);
    let e = k + 1;
    while (e < len) {
      const x = html.charCodeAt(e);
      if (x === 62 || x === 47 || isSpace(x)) break;
      e++;
    }
    if (e >= len) return -1;
    this.closeElement(tagName(html, k, e));
    const gt = this.attributes(e);
    return gt < 0 ? -1 : gt + 1;
  }

  /** A comment node up to the next `>` (or the end). */
  bogusComment(from: number): number {
    this.nodes++;
    const gt = this.html.indexOf('>', from);
    return gt < 0 ? -1 : gt + 1;
  }

  /** `<!` at `lt`: a comment, a doctype, a CDATA section (foreign content) or a bogus comment. */
  declaration(lt: number): number {
    const html = this.html;
    const p = lt + 2;
    if (html.startsWith('--', p)) {
      this.nodes++;
      if (html.charCodeAt(p + 2) === 62) return p + 3; // `<!-->`
      if (html.startsWith('->', p + 2)) return p + 4; // `<!--->`
      const end = html.indexOf('--', p + 2);
      return end < 0 ? -1 : this.commentEnd(end);
    }
    if (html.startsWith('[CDATA[', p) && this.inForeign()) {
      this.nodes++;
      const end = html.indexOf(']]>', p + 7);
      return end < 0 ? -1 : end + 3;
    }
    return this.bogusComment(p);
  }

  /** From the first `--` of a comment, the position after the `-->` or `--!>` that ends it, or -1. */
  private commentEnd(dashes: number): number {
    const html = this.html;
    for (let end = dashes; end >= 0; ) {
      let k = end + 2;
      while (html.charCodeAt(k) === 45) k++;
      if (html.charCodeAt(k) === 62) return k + 1;
      if (html.charCodeAt(k) === 33 && html.charCodeAt(k + 1) === 62) return k + 2;
      end = html.indexOf('--', k - 1);
    }
    return -1;
  }

  /** The whole input, token by token, until the end or the first bound passed. */
  run(): void {
    const html = this.html;
    const len = this.len;
    let from = 0;
    while (from < len) {
      if (this.overBounds(this.unitStart)) return;
      const lt = html.indexOf('<', from);
      if (lt < 0 || lt + 1 >= len) break;
      const c = html.charCodeAt(lt + 1);
      let next: number;
      if (isAsciiAlpha(c) || c === 47 || c === 33 || c === 63) {
        if (this.textStart < lt && this.flushText(lt)) return;
        this.textStart = this.len;
        this.unitStart = lt;
        next = isAsciiAlpha(c) ? this.startTag(lt) : c === 47 ? this.endTag(lt) : c === 33 ? this.declaration(lt) : this.bogusComment(lt + 2);
      } else {
        if (this.textStart === this.len) this.textStart = lt; // a `<` that starts nothing is text
        from = lt + 1;
        continue;
      }
      if (next < 0) {
        if (this.exceeded === null && this.textStart < len) this.flushText(len);
        else if (this.exceeded === null) this.overBounds(this.unitStart);
        return;
      }
      this.textStart = next;
      from = next;
    }
    if (this.exceeded === null && !this.flushText(len)) this.overBounds(this.unitStart);
  }
}

/**
 * Scans `html` as the DOM's tokenizer would and models its stack of open elements. Linear in the input; stops at
 * the first bound passed.
 */
export function scanMarkup(html: string, bounds: ScanBounds): MarkupScan {
  const s = new Scan(html, bounds);
  s.run();
  return { maxDepth: s.maxDepth, elements: s.elements, nodes: s.nodes, stackSteps: s.stackSteps, maxClassTokens: s.maxClassTokens, exceeded: s.exceeded, cutAt: s.cutAt };
}

/** Whether the 5 characters at html[i] spell `class`, ASCII case-insensitively. */
function isClassName(html: string, i: number): boolean {
  return (html.charCodeAt(i) | 0x20) === 99 && (html.charCodeAt(i + 1) | 0x20) === 108 && (html.charCodeAt(i + 2) | 0x20) === 97 &&
    (html.charCodeAt(i + 3) | 0x20) === 115 && (html.charCodeAt(i + 4) | 0x20) === 115;
}

// Priming: V8 compiles the scan for the branches it has seen run, and recompiles it for each page that takes a new
// one; a run over markup that takes nearly every branch, when the module loads, spares most of that. Pure: no result
// changes.
const PRIMING_MARKUP =
  '<!DOCTYPE html><?xml version="1.0"?><!--c--><!---><![CDATA[d]]><!-x><HTML LANG=en><head><title>a &amp; b</title>' +
  '<style>p{}</style ><script>if (a < b) x();</SCRIPT></head><BODY class="a b\u00a0c\u3000d&e" data-x=\'y\' hidden ' +
  'id=u / ><p>one &lt; two<div>x</div></p></ p ></p></br></><3 <é><aé>t</aé><ul><li>1<li>2</ul><table><tr><td>a<td>b' +
  '<tr><th>c</table><select><option>o<optgroup><option>p</select><input/><br><img src=x alt><dl><dt>t<dd>d</dl>' +
  '<svg><path d="M0"/><foreignObject><p>f</p></foreignObject><g/></svg><math><mi>x</mi></math><textarea>t</textarea>' +
  '<xmp>x</xmp><tiTLe>u</titlé></title x><a href="h">l</a><span/><b>b</i></b></x y="z"></body></html>';
const PRIMING_ENDS = ['<a', '<a b', '<a b=', '<a b="', "<a b='c", '<a b=c', '<a /', '</', '</ ', '</a', '</a b', '<!--x',
  '<![CDATA[x', '<!x', '<?x', '<script>x', '<script>x</script', '<title>x &amp;', 'x &amp; y <'];
const PRIMING_BOUNDS: ScanBounds[] = [
  { maxDepth: 1e9, maxElements: 1e9, maxNodes: 1e9, maxStackSteps: 1e9, maxClassTokens: 1e9 },
  { maxDepth: 2, maxElements: 1e9, maxNodes: 1e9, maxStackSteps: 1e9, maxClassTokens: 1e9 },
  { maxDepth: 1e9, maxElements: 3, maxNodes: 1e9, maxStackSteps: 1e9, maxClassTokens: 1e9 },
  { maxDepth: 1e9, maxElements: 1e9, maxNodes: 5, maxStackSteps: 1e9, maxClassTokens: 1e9 },
  { maxDepth: 1e9, maxElements: 1e9, maxNodes: 1e9, maxStackSteps: 4, maxClassTokens: 1e9 },
  { maxDepth: 1e9, maxElements: 1e9, maxNodes: 1e9, maxStackSteps: 1e9, maxClassTokens: 2 },
];
for (const bounds of PRIMING_BOUNDS) scanMarkup(PRIMING_MARKUP, bounds);
for (const end of PRIMING_ENDS) scanMarkup(`<p>x</p>${end}`, PRIMING_BOUNDS[0]);
