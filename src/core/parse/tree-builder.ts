// The WHATWG tree-construction rules (insertion modes, the stack of open elements, the list of active formatting
// elements, the adoption agency, foster parenting, foreign content) on pith's lean nodes (src/core/parse/nodes.ts),
// fed by src/core/parse/html-tokenizer.ts. Scripting is on (a browser's view: `<noscript>` is raw text; its content
// is parsed as a fragment into its children so the noscript fallback can still walk it). Template contents are
// the template's children. Budgets: the builder stops, and the document records where, once it has created more
// elements or nodes than allowed (reconstruction and the adoption agency create elements the markup never opened).
import { HtmlTokenizer, PLAINTEXT, RAWTEXT, RCDATA, SCRIPT_DATA, type TokenSink } from './html-tokenizer.js';
import {
  COMMENT_NODE, type Child, DOCUMENT_TYPE_NODE, Document, Element, Leaf, NS_HTML, NS_MATHML, NS_SVG, type ParentNode,
  TEXT_NODE,
} from './nodes.js';
import { stringMemo } from './string-memo.js';

export interface BuildBudget {
  maxElements: number;
  maxNodes: number;
  /** Deepest stack of open elements (the pre-scan refuses deeper markup; this bounds what it could not foresee). */
  maxDepth: number;
}

/** What the builders of one document have created (the page and its noscript fragments share one budget). */
interface Counts {
  elements: number;
  nodes: number;
}

const INITIAL = 0;
const BEFORE_HTML = 1;
const BEFORE_HEAD = 2;
const IN_HEAD = 3;
const AFTER_HEAD = 4;
const IN_BODY = 5;
const TEXT = 6;
const IN_TABLE = 7;
const IN_TABLE_TEXT = 8;
const IN_CAPTION = 9;
const IN_COLUMN_GROUP = 10;
const IN_TABLE_BODY = 11;
const IN_ROW = 12;
const IN_CELL = 13;
const IN_SELECT = 14;
const IN_SELECT_IN_TABLE = 15;
const IN_TEMPLATE = 16;
const AFTER_BODY = 17;
const IN_FRAMESET = 18;
const AFTER_FRAMESET = 19;
const AFTER_AFTER_BODY = 20;
const AFTER_AFTER_FRAMESET = 21;

const set = (s: string): ReadonlySet<string> => new Set(s.split(' '));

const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd ' +
    'details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header ' +
    'hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript ' +
    'object ol p param plaintext pre script search section select source style summary table tbody td template ' +
    'textarea tfoot th thead title tr track ul wbr xmp',
);
const SPECIAL_MATHML = set('mi mo mn ms mtext annotation-xml');
const SPECIAL_SVG = set('foreignobject desc title');
const SCOPE = set('applet caption html table td th marquee object template');
const FORMATTING = set('a b big code em font i nobr s small strike strong tt u');
const HEADINGS = set('h1 h2 h3 h4 h5 h6');
const IMPLIED_END = set('dd dt li optgroup option p rb rp rt rtc');
const IMPLIED_END_THOROUGH = set('caption colgroup dd dt li optgroup option p rb rp rt rtc tbody td tfoot th thead tr');
const CLOSES_P = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup ' +
    'main menu nav ol p search section summary ul',
);
const BLOCK_END = set(
  'address article aside blockquote button center details dialog dir div dl fieldset figcaption figure footer header ' +
    'hgroup listing main menu nav ol pre search section summary ul',
);
const HEAD_TAGS = set('base basefont bgsound link meta noframes script style template title');
const TABLE_TAGS = set('table tbody tfoot thead tr');
const TABLE_SECTIONS = set('tbody tfoot thead');
const CELL_BREAKERS = set('caption col colgroup tbody td tfoot th thead tr');
const TABLE_IGNORED_END = set('body caption col colgroup html tbody td tfoot th thead tr');
const BODY_IGNORED_START = set('caption col colgroup frame head tbody td tfoot th thead tr');
const FOREIGN_BREAKOUT = set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta ' +
    'nobr ol p pre ruby s small span strong strike sub sup table tt u ul var',
);
const VOID_IN_BODY = set('area br embed img keygen wbr');
const QUIRKS_PUBLIC_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//', '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//', '-//ietf//dtd html', '-//metrius//dtd metrius presentational//',
  '-//microsoft//dtd internet explorer', '-//netscape comm. corp.//dtd', '-//o\'reilly and associates//dtd html',
  '-//softquad', '-//spyglass//dtd html 2.0 extended//', '-//sq//dtd html 2.0 hotmetal + extensions//',
  '-//sun microsystems corp.//dtd hotjava', '-//w3c//dtd html 3', '-//w3c//dtd html 4.0 frameset//',
  '-//w3c//dtd html 4.0 transitional//', '-//w3c//dtd html experimental', '-//w3c//dtd w3 html//', '-//w3o//dtd w3 html',
  '-//webtechs//dtd mozilla html',
];

/**
 * A class attribute normalised: its distinct non-empty tokens joined by single spaces (what the pipeline matches on).
 * Memoised: a page repeats its class attributes thousands of times. Its strings share no memory with the page, so
 * the class memos of the CDOM walk keep them as keys uncopied (ownedKeyMemo, src/core/parse/string-memo.ts).
 */
const normaliseClass = stringMemo((value: string): string => {
  if (isNormalisedClass(value)) return value;
  const tokens = value.split(/\s+/);
  let out = '';
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t === '' || seen.has(t)) continue;
    seen.add(t);
    out = out === '' ? t : `${out} ${t}`;
  }
  return out;
});

/** Whitespace (`\s`) other than the space. */
const OTHER_SPACE = /[^\S ]/;
/** Tokens of a class attribute past which isNormalisedClass does not compare them two by two. */
const FEW_TOKENS = 16;

/**
 * Whether normaliseClass would give `value` back as it is: distinct tokens between single spaces (most class
 * attributes). Answered without cutting the tokens out; a long list is left to normaliseClass.
 */
function isNormalisedClass(value: string): boolean {
  const n = value.length;
  if (n === 0) return true;
  if (value.charCodeAt(0) === 32 || value.charCodeAt(n - 1) === 32 || OTHER_SPACE.test(value)) return false;
  const starts = [0];
  for (let i = value.indexOf(' '); i >= 0; i = value.indexOf(' ', i + 1)) {
    if (value.charCodeAt(i + 1) === 32 || starts.length === FEW_TOKENS) return false;
    starts.push(i + 1);
  }
  starts.push(n + 1);
  for (let a = 0; a + 1 < starts.length; a++) {
    const aLength = starts[a + 1] - 1 - starts[a];
    for (let b = 0; b < a; b++) {
      if (starts[b + 1] - 1 - starts[b] === aLength && sameRun(value, starts[a], starts[b], aLength)) return false;
    }
  }
  return true;
}

/** Whether s[a, a + n) and s[b, b + n) are the same characters. */
function sameRun(s: string, a: number, b: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

function isWhitespace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(c === 32 || c === 10 || c === 9 || c === 12 || c === 13)) return false;
  }
  return true;
}

/** Length of the leading whitespace of s. */
function leadingSpace(s: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!(c === 32 || c === 10 || c === 9 || c === 12 || c === 13)) break;
    i++;
  }
  return i;
}

function sameAttributes(a: string[] | null, b: string[] | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  outer: for (let i = 0; i < a.length; i += 2) {
    for (let k = 0; k < b.length; k += 2) if (b[k] === a[i]) {
      if (b[k + 1] !== a[i + 1]) return false;
      continue outer;
    }
    return false;
  }
  return true;
}

class TreeBuilder implements TokenSink {
  readonly document = new Document();
  readonly tokenizer: HtmlTokenizer;
  private mode = INITIAL;
  private originalMode = INITIAL;
  private readonly stack: Element[] = [];
  /** Active formatting elements; null is a marker. */
  private readonly formatting: (Element | null)[] = [];
  private readonly templateModes: number[] = [];
  private head: Element | null = null;
  private form: Element | null = null;
  private framesetOk = true;
  private fosterParenting = false;
  private quirks = false;
  private skipNewline = false;
  private pendingTableText: string[] = [];
  /** `<noscript>` elements, whose raw text becomes their parsed children once the page is built. */
  readonly noscripts: Element[] = [];
  /** A fragment (noscript content): the stack's bottom is a stand-in for the context element. */
  private readonly fragment: boolean;

  constructor(
    private readonly html: string,
    private readonly budget: BuildBudget,
    private readonly counts: Counts,
    fragmentRoot: Element | null = null,
    /** The input holds no U+0000 (the caller checked the whole page once): text() need not look for it. */
    private readonly nulFree = false,
  ) {
    this.tokenizer = new HtmlTokenizer(html, this);
    this.fragment = fragmentRoot !== null;
    if (fragmentRoot !== null) {
      this.stack.push(fragmentRoot);
      this.mode = IN_BODY;
      this.framesetOk = false;
    }
  }

  build(): void {
    this.tokenizer.run();
    if (!this.tokenizer.stopped) this.eof();
  }

  // ---- budget -------------------------------------------------------------------------------------------------

  private count(elements: number, nodes: number): void {
    const c = this.counts;
    c.elements += elements;
    c.nodes += nodes;
    if (c.elements > this.budget.maxElements || c.nodes > this.budget.maxNodes) this.stop();
  }

  /** Stops at a budget: the tree keeps what was built before the current token. */
  private stop(): void {
    if (this.tokenizer.stopped) return;
    this.tokenizer.stopped = true;
    if (!this.fragment) this.document.cutAt = this.tokenizer.tokenStart;
  }

  // ---- the tokenizer's questions --------------------------------------------------------------------------------

  inForeignContent(): boolean {
    const n = this.stack.length;
    return n > 0 && this.stack[n - 1].ns !== NS_HTML;
  }

  // ---- dispatch ----------------------------------------------------------------------------------------------------

  /** Whether a token goes to the foreign-content rules rather than the insertion mode's. */
  private foreignFor(startName: string | null, isText: boolean): boolean {
    const n = this.stack.length;
    if (n === 0) return false;
    const node = this.stack[n - 1];
    if (node.ns === NS_HTML) return false;
    if (node.ns === NS_MATHML) {
      const name = node.localName;
      if (name === 'mi' || name === 'mo' || name === 'mn' || name === 'ms' || name === 'mtext') {
        if (isText) return false;
        if (startName !== null && startName !== 'mglyph' && startName !== 'malignmark') return false;
      }
      if (name === 'annotation-xml') {
        if (startName === 'svg') return false;
        if (isHtmlAnnotation(node) && (isText || startName !== null)) return false;
      }
      return true;
    }
    // SVG: foreignObject, desc and title are HTML integration points
    const name = node.localName;
    if ((name === 'foreignobject' || name === 'desc' || name === 'title') && (isText || startName !== null)) return false;
    return true;
  }

  startTag(name: string, attrs: string[] | null, selfClosing: boolean): void {
    if (attrs !== null) {
      for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === 'class') attrs[i + 1] = normaliseClass(attrs[i + 1]);
    }
    if (this.skipNewline) this.skipNewline = false;
    if (this.foreignFor(name, false)) this.foreignStart(name, attrs, selfClosing);
    else this.start(this.mode, name, attrs, selfClosing);
  }

  endTag(name: string): void {
    this.skipNewline = false;
    if (this.foreignFor(null, false)) this.foreignEnd(name);
    else this.end(this.mode, name);
  }

  text(data: string): void {
    if (this.skipNewline) {
      this.skipNewline = false;
      if (data.charCodeAt(0) === 10) data = data.slice(1);
      else if (data.charCodeAt(0) === 13) data = data.slice(data.charCodeAt(1) === 10 ? 2 : 1);
      if (data === '') return;
    }
    if (!this.nulFree && data.includes('\0')) {
      data = data.replace(/\0/g, this.mode === TEXT || this.inForeignContent() ? '\ufffd' : '');
      if (data === '') return;
    }
    if (this.foreignFor(null, true)) {
      if (!isWhitespace(data)) this.framesetOk = false;
      this.insertText(data);
    } else this.chars(this.mode, data);
  }

  comment(data: string): void {
    this.skipNewline = false;
    const mode = this.mode;
    if (mode === IN_TABLE_TEXT) this.flushTableText();
    const m = this.mode;
    if (m === INITIAL || m === BEFORE_HTML || m === AFTER_AFTER_BODY || m === AFTER_AFTER_FRAMESET) {
      this.count(0, 1);
      this.document.append(new Leaf(COMMENT_NODE, data));
    } else if (m === AFTER_BODY) {
      this.count(0, 1);
      this.stack[0].append(new Leaf(COMMENT_NODE, data));
    } else this.insertLeaf(new Leaf(COMMENT_NODE, data));
  }

  doctype(name: string, publicId: string | null, systemId: string | null): void {
    if (this.mode === IN_TABLE_TEXT) this.flushTableText();
    if (this.mode !== INITIAL) return;
    this.count(0, 1);
    this.document.append(new Leaf(DOCUMENT_TYPE_NODE, ''));
    this.quirks = isQuirks(name, publicId, systemId);
    this.mode = BEFORE_HTML;
  }

  private eof(): void {
    for (let guard = 0; guard < 64; guard++) {
      const m = this.mode;
      if (m === IN_TABLE_TEXT) {
        this.flushTableText();
        continue;
      }
      if (m === INITIAL || m === BEFORE_HTML || m === BEFORE_HEAD || m === IN_HEAD || m === AFTER_HEAD) {
        // the implied elements a browser creates for an empty or head-only page
        this.anythingElseBeforeBody(m);
        continue;
      }
      if (m === TEXT) {
        this.stack.pop();
        this.mode = this.originalMode;
        continue;
      }
      if ((m === IN_TEMPLATE || this.templateModes.length > 0) && this.hasOpen('template')) {
        this.popUntil('template');
        this.clearFormattingToMarker();
        this.templateModes.pop();
        this.resetMode();
        continue;
      }
      return;
    }
  }

  /** The "anything else" step of the modes before `<body>`: creates what is missing and moves on. */
  private anythingElseBeforeBody(m: number): void {
    if (m === INITIAL) {
      this.quirks = true;
      this.mode = BEFORE_HTML;
    } else if (m === BEFORE_HTML) {
      this.insertHtmlRoot(null);
    } else if (m === BEFORE_HEAD) {
      this.head = this.insert('head', null);
      this.mode = IN_HEAD;
    } else if (m === IN_HEAD) {
      this.stack.pop();
      this.mode = AFTER_HEAD;
    } else {
      this.insert('body', null);
      this.mode = IN_BODY;
    }
  }

  private insertHtmlRoot(attrs: string[] | null): void {
    const el = this.create('html', attrs, NS_HTML);
    this.document.append(el);
    this.stack.push(el);
    this.mode = BEFORE_HEAD;
  }

  // ---- characters ---------------------------------------------------------------------------------------------------

  private chars(mode: number, data: string): void {
    switch (mode) {
      case INITIAL:
      case BEFORE_HTML:
      case BEFORE_HEAD:
      case IN_HEAD:
      case AFTER_HEAD: {
        const k = leadingSpace(data);
        if (k > 0 && (mode === IN_HEAD || mode === AFTER_HEAD)) this.insertText(data.slice(0, k));
        if (k === data.length) return;
        this.anythingElseBeforeBody(mode);
        this.chars(this.mode, data.slice(k));
        return;
      }
      case IN_BODY:
      case IN_CAPTION:
      case IN_CELL:
      case IN_TEMPLATE:
        this.bodyText(data);
        return;
      case TEXT:
      case IN_SELECT:
      case IN_SELECT_IN_TABLE:
        this.insertText(data);
        return;
      case IN_TABLE:
      case IN_TABLE_BODY:
      case IN_ROW:
        if (TABLE_TAGS.has(this.current().localName) || this.current().localName === 'template') {
          this.pendingTableText = [];
          this.originalMode = mode;
          this.mode = IN_TABLE_TEXT;
          this.pendingTableText.push(data);
        } else this.fosterBodyText(data);
        return;
      case IN_TABLE_TEXT:
        this.pendingTableText.push(data);
        return;
      case IN_COLUMN_GROUP: {
        const k = leadingSpace(data);
        if (k > 0) this.insertText(data.slice(0, k));
        if (k === data.length) return;
        if (this.current().localName !== 'colgroup') return;
        this.stack.pop();
        this.mode = IN_TABLE;
        this.chars(IN_TABLE, data.slice(k));
        return;
      }
      case AFTER_BODY:
      case AFTER_AFTER_BODY: {
        const k = leadingSpace(data);
        if (k === data.length) {
          this.bodyText(data);
          return;
        }
        this.mode = IN_BODY;
        this.bodyText(data);
        return;
      }
      default: {
        // frameset modes keep whitespace only
        const ws = data.replace(/[^\t\n\f\r ]+/g, '');
        if (ws !== '' && (mode === IN_FRAMESET || mode === AFTER_FRAMESET)) this.insertText(ws);
      }
    }
  }

  private bodyText(data: string): void {
    this.reconstructFormatting();
    this.insertText(data);
    if (this.framesetOk && !isWhitespace(data)) this.framesetOk = false;
  }

  private fosterBodyText(data: string): void {
    this.fosterParenting = true;
    this.bodyText(data);
    this.fosterParenting = false;
  }

  private flushTableText(): void {
    const text = this.pendingTableText.join('');
    this.pendingTableText = [];
    this.mode = this.originalMode;
    if (text === '') return;
    if (!isWhitespace(text)) this.fosterBodyText(text);
    else this.insertText(text);
  }

  // ---- start tags ---------------------------------------------------------------------------------------------------

  private start(mode: number, name: string, attrs: string[] | null, selfClosing: boolean): void {
    switch (mode) {
      case INITIAL:
      case BEFORE_HTML:
        if (mode === BEFORE_HTML && name === 'html') {
          this.insertHtmlRoot(attrs);
          return;
        }
        this.anythingElseBeforeBody(mode);
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case BEFORE_HEAD:
        if (name === 'html') return this.bodyStart(name, attrs, selfClosing);
        if (name === 'head') {
          this.head = this.insert('head', attrs);
          this.mode = IN_HEAD;
          return;
        }
        this.anythingElseBeforeBody(mode);
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case IN_HEAD:
        this.headStart(name, attrs, selfClosing);
        return;
      case AFTER_HEAD:
        if (name === 'html') return this.bodyStart(name, attrs, selfClosing);
        if (name === 'body') {
          this.insert('body', attrs);
          this.framesetOk = false;
          this.mode = IN_BODY;
          return;
        }
        if (name === 'frameset') {
          this.insert('frameset', attrs);
          this.mode = IN_FRAMESET;
          return;
        }
        if (HEAD_TAGS.has(name) && this.head !== null) {
          const head = this.head;
          this.stack.push(head);
          this.headStart(name, attrs, selfClosing);
          const at = this.stack.lastIndexOf(head);
          if (at >= 0) this.stack.splice(at, 1);
          return;
        }
        if (name === 'head') return;
        this.anythingElseBeforeBody(mode);
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case IN_BODY:
        this.bodyStart(name, attrs, selfClosing);
        return;
      case TEXT:
        return;
      case IN_TABLE:
        this.tableStart(name, attrs, selfClosing);
        return;
      case IN_TABLE_TEXT:
        this.flushTableText();
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case IN_CAPTION:
        if (CELL_BREAKERS.has(name)) {
          if (!this.inScope('caption', TABLE_SCOPE)) return;
          this.closeCaption();
          this.start(this.mode, name, attrs, selfClosing);
          return;
        }
        this.bodyStart(name, attrs, selfClosing);
        return;
      case IN_COLUMN_GROUP:
        if (name === 'html') return this.bodyStart(name, attrs, selfClosing);
        if (name === 'col') {
          this.insertVoid('col', attrs);
          return;
        }
        if (name === 'template') return this.headStart(name, attrs, selfClosing);
        if (this.current().localName !== 'colgroup') return;
        this.stack.pop();
        this.mode = IN_TABLE;
        this.start(IN_TABLE, name, attrs, selfClosing);
        return;
      case IN_TABLE_BODY:
        if (name === 'tr') {
          this.clearStackTo(TABLE_BODY_CONTEXT);
          this.insert('tr', attrs);
          this.mode = IN_ROW;
          return;
        }
        if (name === 'th' || name === 'td') {
          this.clearStackTo(TABLE_BODY_CONTEXT);
          this.insert('tr', null);
          this.mode = IN_ROW;
          this.start(IN_ROW, name, attrs, selfClosing);
          return;
        }
        if (name === 'caption' || name === 'col' || name === 'colgroup' || TABLE_SECTIONS.has(name)) {
          if (!this.anyInTableScope(TABLE_SECTIONS)) return;
          this.clearStackTo(TABLE_BODY_CONTEXT);
          this.stack.pop();
          this.mode = IN_TABLE;
          this.start(IN_TABLE, name, attrs, selfClosing);
          return;
        }
        this.tableStart(name, attrs, selfClosing);
        return;
      case IN_ROW:
        if (name === 'th' || name === 'td') {
          this.clearStackTo(ROW_CONTEXT);
          this.insert(name, attrs);
          this.mode = IN_CELL;
          this.formatting.push(null);
          return;
        }
        if (name === 'caption' || name === 'col' || name === 'colgroup' || TABLE_SECTIONS.has(name) || name === 'tr') {
          if (!this.inScope('tr', TABLE_SCOPE)) return;
          this.closeRow();
          this.start(this.mode, name, attrs, selfClosing);
          return;
        }
        this.tableStart(name, attrs, selfClosing);
        return;
      case IN_CELL:
        if (CELL_BREAKERS.has(name)) {
          if (!this.inScope('td', TABLE_SCOPE) && !this.inScope('th', TABLE_SCOPE)) return;
          this.closeCell();
          this.start(this.mode, name, attrs, selfClosing);
          return;
        }
        this.bodyStart(name, attrs, selfClosing);
        return;
      case IN_SELECT_IN_TABLE:
        if (name === 'caption' || name === 'table' || TABLE_SECTIONS.has(name) || name === 'tr' || name === 'td' || name === 'th') {
          this.popUntil('select');
          this.resetMode();
          this.start(this.mode, name, attrs, selfClosing);
          return;
        }
        this.selectStart(name, attrs, selfClosing);
        return;
      case IN_SELECT:
        this.selectStart(name, attrs, selfClosing);
        return;
      case IN_TEMPLATE:
        this.templateStart(name, attrs, selfClosing);
        return;
      case AFTER_BODY:
      case AFTER_AFTER_BODY:
        if (name !== 'html') this.mode = IN_BODY;
        this.bodyStart(name, attrs, selfClosing);
        return;
      default:
        // frameset modes
        if (name === 'html') return this.bodyStart(name, attrs, selfClosing);
        if (name === 'noframes') return this.headStart(name, attrs, selfClosing);
        if (mode === IN_FRAMESET) {
          if (name === 'frameset') this.insert('frameset', attrs);
          else if (name === 'frame') this.insertVoid('frame', attrs);
        }
    }
  }

  private headStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    switch (name) {
      case 'html':
        this.bodyStart(name, attrs, selfClosing);
        return;
      case 'base':
      case 'basefont':
      case 'bgsound':
      case 'link':
      case 'meta':
        this.insertVoid(name, attrs);
        return;
      case 'title':
        this.rawElement(name, attrs, RCDATA);
        return;
      case 'noscript':
      case 'noframes':
      case 'style':
        this.rawElement(name, attrs, RAWTEXT);
        return;
      case 'script':
        this.rawElement(name, attrs, SCRIPT_DATA);
        return;
      case 'template':
        this.insert('template', attrs);
        this.formatting.push(null);
        this.framesetOk = false;
        this.mode = IN_TEMPLATE;
        this.templateModes.push(IN_TEMPLATE);
        return;
      case 'head':
        return;
      default:
        this.stack.pop();
        this.mode = AFTER_HEAD;
        this.start(AFTER_HEAD, name, attrs, selfClosing);
    }
  }

  /** An element whose content is text up to its end tag (the tokenizer's RCDATA, RAWTEXT or script data). */
  private rawElement(name: string, attrs: string[] | null, state: number): void {
    const el = this.insert(name, attrs);
    if (name === 'noscript') this.noscripts.push(el);
    this.tokenizer.state = state;
    this.tokenizer.rawName = name;
    this.originalMode = this.mode;
    this.mode = TEXT;
  }

  private bodyStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    if (CLOSES_P.has(name)) {
      this.closePInButtonScope();
      this.insert(name, attrs);
      return;
    }
    if (FORMATTING.has(name)) {
      if (name === 'a') {
        const a = this.formattingAfterMarker('a');
        if (a !== null) {
          this.adoptionAgency('a');
          this.removeFormatting(a);
          const at = this.stack.lastIndexOf(a);
          if (at >= 0) this.stack.splice(at, 1);
        }
      } else if (name === 'nobr') {
        this.reconstructFormatting();
        if (this.inScope('nobr', DEFAULT_SCOPE)) {
          this.adoptionAgency('nobr');
        }
      }
      this.reconstructFormatting();
      this.pushFormatting(this.insert(name, attrs));
      return;
    }
    if (HEADINGS.has(name)) {
      this.closePInButtonScope();
      if (HEADINGS.has(this.current().localName) && this.current().ns === NS_HTML) this.stack.pop();
      this.insert(name, attrs);
      return;
    }
    if (VOID_IN_BODY.has(name)) {
      this.reconstructFormatting();
      this.insertVoid(name, attrs);
      this.framesetOk = false;
      return;
    }
    if (HEAD_TAGS.has(name)) {
      this.headStart(name, attrs, selfClosing);
      return;
    }
    switch (name) {
      case 'html':
        if (this.hasOpen('template') || this.stack.length === 0) return;
        if (attrs !== null) for (let i = 0; i < attrs.length; i += 2) this.stack[0].addAttribute(attrs[i], attrs[i + 1]);
        return;
      case 'body': {
        const body = this.stack[1];
        if (this.stack.length < 2 || body.localName !== 'body' || this.hasOpen('template')) return;
        this.framesetOk = false;
        if (attrs !== null) for (let i = 0; i < attrs.length; i += 2) body.addAttribute(attrs[i], attrs[i + 1]);
        return;
      }
      case 'frameset': {
        const body = this.stack[1];
        if (!this.framesetOk || this.stack.length < 2 || body.localName !== 'body') return;
        body.parentNode?.removeChild(body);
        this.stack.length = 1;
        this.insert('frameset', attrs);
        this.mode = IN_FRAMESET;
        return;
      }
      case 'pre':
      case 'listing':
        this.closePInButtonScope();
        this.insert(name, attrs);
        this.skipNewline = true;
        this.framesetOk = false;
        return;
      case 'form':
        if (this.form !== null && !this.hasOpen('template')) return;
        this.closePInButtonScope();
        {
          const el = this.insert('form', attrs);
          if (!this.hasOpen('template')) this.form = el;
        }
        return;
      case 'li':
      case 'dd':
      case 'dt': {
        this.framesetOk = false;
        for (let i = this.stack.length - 1; i >= 0; i--) {
          const node = this.stack[i];
          const t = node.localName;
          if (node.ns === NS_HTML && (name === 'li' ? t === 'li' : t === 'dd' || t === 'dt')) {
            this.generateImpliedEndTags(t);
            this.popUntil(t);
            break;
          }
          if (isSpecial(node) && !(node.ns === NS_HTML && (t === 'address' || t === 'div' || t === 'p'))) break;
        }
        this.closePInButtonScope();
        this.insert(name, attrs);
        return;
      }
      case 'plaintext':
        this.closePInButtonScope();
        this.insert(name, attrs);
        this.tokenizer.state = PLAINTEXT;
        return;
      case 'button':
        if (this.inScope('button', DEFAULT_SCOPE)) {
          this.generateImpliedEndTags(null);
          this.popUntil('button');
        }
        this.reconstructFormatting();
        this.insert(name, attrs);
        this.framesetOk = false;
        return;
      case 'applet':
      case 'marquee':
      case 'object':
        this.reconstructFormatting();
        this.insert(name, attrs);
        this.formatting.push(null);
        this.framesetOk = false;
        return;
      case 'table':
        if (!this.quirks) this.closePInButtonScope();
        this.insert(name, attrs);
        this.framesetOk = false;
        this.mode = IN_TABLE;
        return;
      case 'input':
        this.reconstructFormatting();
        this.insertVoid(name, attrs);
        if (!isHiddenInput(attrs)) this.framesetOk = false;
        return;
      case 'param':
      case 'source':
      case 'track':
        this.insertVoid(name, attrs);
        return;
      case 'hr':
        this.closePInButtonScope();
        this.insertVoid(name, attrs);
        this.framesetOk = false;
        return;
      case 'image':
        this.bodyStart('img', attrs, selfClosing);
        return;
      case 'textarea':
        this.insert(name, attrs);
        this.skipNewline = true;
        this.tokenizer.state = RCDATA;
        this.tokenizer.rawName = name;
        this.originalMode = this.mode;
        this.framesetOk = false;
        this.mode = TEXT;
        return;
      case 'xmp':
        this.closePInButtonScope();
        this.reconstructFormatting();
        this.framesetOk = false;
        this.rawElement(name, attrs, RAWTEXT);
        return;
      case 'iframe':
        this.framesetOk = false;
        this.rawElement(name, attrs, RAWTEXT);
        return;
      case 'noembed':
      case 'noscript':
        this.rawElement(name, attrs, RAWTEXT);
        return;
      case 'select': {
        this.reconstructFormatting();
        this.insert(name, attrs);
        this.framesetOk = false;
        const m = this.mode;
        this.mode = m === IN_TABLE || m === IN_CAPTION || m === IN_TABLE_BODY || m === IN_ROW || m === IN_CELL ? IN_SELECT_IN_TABLE : IN_SELECT;
        return;
      }
      case 'optgroup':
      case 'option':
        if (this.current().localName === 'option') this.stack.pop();
        this.reconstructFormatting();
        this.insert(name, attrs);
        return;
      case 'rb':
      case 'rtc':
        if (this.inScope('ruby', DEFAULT_SCOPE)) this.generateImpliedEndTags(null);
        this.insert(name, attrs);
        return;
      case 'rp':
      case 'rt':
        if (this.inScope('ruby', DEFAULT_SCOPE)) this.generateImpliedEndTags('rtc');
        this.insert(name, attrs);
        return;
      case 'math':
      case 'svg':
        this.reconstructFormatting();
        this.insertForeign(name, attrs, name === 'svg' ? NS_SVG : NS_MATHML, selfClosing);
        return;
      default:
        if (BODY_IGNORED_START.has(name)) return;
        this.reconstructFormatting();
        this.insert(name, attrs);
    }
  }

  private tableStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    switch (name) {
      case 'caption':
        this.clearStackTo(TABLE_CONTEXT);
        this.formatting.push(null);
        this.insert(name, attrs);
        this.mode = IN_CAPTION;
        return;
      case 'colgroup':
        this.clearStackTo(TABLE_CONTEXT);
        this.insert(name, attrs);
        this.mode = IN_COLUMN_GROUP;
        return;
      case 'col':
        this.clearStackTo(TABLE_CONTEXT);
        this.insert('colgroup', null);
        this.mode = IN_COLUMN_GROUP;
        this.start(IN_COLUMN_GROUP, name, attrs, selfClosing);
        return;
      case 'tbody':
      case 'tfoot':
      case 'thead':
        this.clearStackTo(TABLE_CONTEXT);
        this.insert(name, attrs);
        this.mode = IN_TABLE_BODY;
        return;
      case 'td':
      case 'th':
      case 'tr':
        this.clearStackTo(TABLE_CONTEXT);
        this.insert('tbody', null);
        this.mode = IN_TABLE_BODY;
        this.start(IN_TABLE_BODY, name, attrs, selfClosing);
        return;
      case 'table':
        if (!this.inScope('table', TABLE_SCOPE)) return;
        this.popUntil('table');
        this.resetMode();
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case 'style':
      case 'script':
      case 'template':
        this.headStart(name, attrs, selfClosing);
        return;
      case 'input':
        if (!isHiddenInput(attrs)) break;
        this.insertVoid(name, attrs);
        return;
      case 'form':
        if (this.hasOpen('template') || this.form !== null) return;
        this.form = this.insert(name, attrs);
        this.stack.pop();
        return;
    }
    this.fosterParenting = true;
    this.bodyStart(name, attrs, selfClosing);
    this.fosterParenting = false;
  }

  private selectStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    switch (name) {
      case 'html':
        this.bodyStart(name, attrs, selfClosing);
        return;
      case 'option':
        if (this.current().localName === 'option') this.stack.pop();
        this.insert(name, attrs);
        return;
      case 'optgroup':
        if (this.current().localName === 'option') this.stack.pop();
        if (this.current().localName === 'optgroup') this.stack.pop();
        this.insert(name, attrs);
        return;
      case 'hr':
        if (this.current().localName === 'option') this.stack.pop();
        if (this.current().localName === 'optgroup') this.stack.pop();
        this.insertVoid(name, attrs);
        return;
      case 'select':
        if (!this.inScope('select', SELECT_SCOPE)) return;
        this.popUntil('select');
        this.resetMode();
        return;
      case 'input':
      case 'keygen':
      case 'textarea':
        if (!this.inScope('select', SELECT_SCOPE)) return;
        this.popUntil('select');
        this.resetMode();
        this.start(this.mode, name, attrs, selfClosing);
        return;
      case 'script':
      case 'template':
        this.headStart(name, attrs, selfClosing);
        return;
    }
  }

  private templateStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    if (HEAD_TAGS.has(name)) {
      this.headStart(name, attrs, selfClosing);
      return;
    }
    let next = IN_BODY;
    if (name === 'caption' || name === 'colgroup' || TABLE_SECTIONS.has(name)) next = IN_TABLE;
    else if (name === 'col') next = IN_COLUMN_GROUP;
    else if (name === 'tr') next = IN_TABLE_BODY;
    else if (name === 'td' || name === 'th') next = IN_ROW;
    this.templateModes.pop();
    this.templateModes.push(next);
    this.mode = next;
    this.start(next, name, attrs, selfClosing);
  }

  // ---- end tags -----------------------------------------------------------------------------------------------------

  private end(mode: number, name: string): void {
    switch (mode) {
      case INITIAL:
      case BEFORE_HTML:
      case BEFORE_HEAD:
      case AFTER_HEAD:
        if (name === 'template' && mode === AFTER_HEAD) return this.headEnd(name);
        if (name !== 'head' && name !== 'body' && name !== 'html' && name !== 'br') return;
        if (mode === AFTER_HEAD && name === 'head') return;
        this.anythingElseBeforeBody(mode);
        this.end(this.mode, name);
        return;
      case IN_HEAD:
        this.headEnd(name);
        return;
      case IN_BODY:
        this.bodyEnd(name);
        return;
      case TEXT:
        this.stack.pop();
        this.mode = this.originalMode;
        return;
      case IN_TABLE:
        this.tableEnd(name);
        return;
      case IN_TABLE_TEXT:
        this.flushTableText();
        this.end(this.mode, name);
        return;
      case IN_CAPTION:
        if (name === 'caption' || name === 'table') {
          if (!this.inScope('caption', TABLE_SCOPE)) return;
          this.closeCaption();
          if (name === 'table') this.end(this.mode, name);
          return;
        }
        if (TABLE_IGNORED_END.has(name) && name !== 'caption') return;
        this.bodyEnd(name);
        return;
      case IN_COLUMN_GROUP:
        if (name === 'colgroup') {
          if (this.current().localName !== 'colgroup') return;
          this.stack.pop();
          this.mode = IN_TABLE;
          return;
        }
        if (name === 'col') return;
        if (name === 'template') return this.headEnd(name);
        if (this.current().localName !== 'colgroup') return;
        this.stack.pop();
        this.mode = IN_TABLE;
        this.end(IN_TABLE, name);
        return;
      case IN_TABLE_BODY:
        if (TABLE_SECTIONS.has(name)) {
          if (!this.inScope(name, TABLE_SCOPE)) return;
          this.clearStackTo(TABLE_BODY_CONTEXT);
          this.stack.pop();
          this.mode = IN_TABLE;
          return;
        }
        if (name === 'table') {
          if (!this.anyInTableScope(TABLE_SECTIONS)) return;
          this.clearStackTo(TABLE_BODY_CONTEXT);
          this.stack.pop();
          this.mode = IN_TABLE;
          this.end(IN_TABLE, name);
          return;
        }
        if (name === 'body' || name === 'caption' || name === 'col' || name === 'colgroup' || name === 'html' || name === 'td' || name === 'th' || name === 'tr') return;
        this.tableEnd(name);
        return;
      case IN_ROW:
        if (name === 'tr') {
          if (!this.inScope('tr', TABLE_SCOPE)) return;
          this.closeRow();
          return;
        }
        if (name === 'table') {
          if (!this.inScope('tr', TABLE_SCOPE)) return;
          this.closeRow();
          this.end(this.mode, name);
          return;
        }
        if (TABLE_SECTIONS.has(name)) {
          if (!this.inScope(name, TABLE_SCOPE) || !this.inScope('tr', TABLE_SCOPE)) return;
          this.closeRow();
          this.end(this.mode, name);
          return;
        }
        if (name === 'body' || name === 'caption' || name === 'col' || name === 'colgroup' || name === 'html' || name === 'td' || name === 'th') return;
        this.tableEnd(name);
        return;
      case IN_CELL:
        if (name === 'td' || name === 'th') {
          if (!this.inScope(name, TABLE_SCOPE)) return;
          this.generateImpliedEndTags(null);
          this.popUntil(name);
          this.clearFormattingToMarker();
          this.mode = IN_ROW;
          return;
        }
        if (name === 'body' || name === 'caption' || name === 'col' || name === 'colgroup' || name === 'html') return;
        if (name === 'table' || TABLE_SECTIONS.has(name) || name === 'tr') {
          if (!this.inScope(name, TABLE_SCOPE)) return;
          this.closeCell();
          this.end(this.mode, name);
          return;
        }
        this.bodyEnd(name);
        return;
      case IN_SELECT_IN_TABLE:
        if (name === 'caption' || name === 'table' || TABLE_SECTIONS.has(name) || name === 'tr' || name === 'td' || name === 'th') {
          if (!this.inScope(name, TABLE_SCOPE)) return;
          this.popUntil('select');
          this.resetMode();
          this.end(this.mode, name);
          return;
        }
        this.selectEnd(name);
        return;
      case IN_SELECT:
        this.selectEnd(name);
        return;
      case IN_TEMPLATE:
        if (name === 'template') this.headEnd(name);
        return;
      case AFTER_BODY:
        if (name === 'html') {
          this.mode = AFTER_AFTER_BODY;
          return;
        }
        this.mode = IN_BODY;
        this.bodyEnd(name);
        return;
      case AFTER_AFTER_BODY:
        this.mode = IN_BODY;
        this.bodyEnd(name);
        return;
      case IN_FRAMESET:
        if (name === 'frameset' && this.stack.length > 1) {
          this.stack.pop();
          if (this.current().localName !== 'frameset') this.mode = AFTER_FRAMESET;
        }
        return;
      case AFTER_FRAMESET:
        if (name === 'html') this.mode = AFTER_AFTER_FRAMESET;
        return;
    }
  }

  private headEnd(name: string): void {
    if (name === 'head') {
      this.stack.pop();
      this.mode = AFTER_HEAD;
      return;
    }
    if (name === 'body' || name === 'html' || name === 'br') {
      this.stack.pop();
      this.mode = AFTER_HEAD;
      this.end(AFTER_HEAD, name);
      return;
    }
    if (name !== 'template' || !this.hasOpen('template')) return;
    this.generateImpliedEndTags(null, true);
    this.popUntil('template');
    this.clearFormattingToMarker();
    this.templateModes.pop();
    this.resetMode();
  }

  private bodyEnd(name: string): void {
    if (BLOCK_END.has(name)) {
      if (!this.inScope(name, DEFAULT_SCOPE)) return;
      this.generateImpliedEndTags(null);
      this.popUntil(name);
      return;
    }
    if (FORMATTING.has(name)) {
      this.adoptionAgency(name);
      return;
    }
    if (HEADINGS.has(name)) {
      // any open heading closes, whichever level
      if (!this.anyInScope(HEADINGS)) return;
      this.generateImpliedEndTags(null);
      while (this.stack.length > 1) {
        const el = this.stack.pop()!;
        if (el.ns === NS_HTML && HEADINGS.has(el.localName)) break;
      }
      return;
    }
    switch (name) {
      case 'template':
        this.headEnd(name);
        return;
      case 'body':
      case 'html':
        if (!this.inScope('body', DEFAULT_SCOPE)) return;
        this.mode = AFTER_BODY;
        if (name === 'html') this.end(AFTER_BODY, name);
        return;
      case 'form':
        if (!this.hasOpen('template')) {
          const node = this.form;
          this.form = null;
          if (node === null || !this.inScopeElement(node)) return;
          this.generateImpliedEndTags(null);
          const at = this.stack.lastIndexOf(node);
          if (at >= 0) this.stack.splice(at, 1);
        } else {
          if (!this.inScope('form', DEFAULT_SCOPE)) return;
          this.generateImpliedEndTags(null);
          this.popUntil('form');
        }
        return;
      case 'p':
        if (!this.inScope('p', BUTTON_SCOPE)) this.insert('p', null);
        this.closeP();
        return;
      case 'li':
        if (!this.inScope('li', LIST_SCOPE)) return;
        this.generateImpliedEndTags('li');
        this.popUntil('li');
        return;
      case 'dd':
      case 'dt':
        if (!this.inScope(name, DEFAULT_SCOPE)) return;
        this.generateImpliedEndTags(name);
        this.popUntil(name);
        return;
      case 'applet':
      case 'marquee':
      case 'object':
        if (!this.inScope(name, DEFAULT_SCOPE)) return;
        this.generateImpliedEndTags(null);
        this.popUntil(name);
        this.clearFormattingToMarker();
        return;
      case 'br':
        this.reconstructFormatting();
        this.insertVoid('br', null);
        this.framesetOk = false;
        return;
    }
    this.anyOtherEndTag(name);
  }

  private anyOtherEndTag(name: string): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      if (node.ns === NS_HTML && node.localName === name) {
        this.generateImpliedEndTags(name);
        this.stack.length = i;
        return;
      }
      if (isSpecial(node)) return;
    }
  }

  private tableEnd(name: string): void {
    if (name === 'table') {
      if (!this.inScope('table', TABLE_SCOPE)) return;
      this.popUntil('table');
      this.resetMode();
      return;
    }
    if (TABLE_IGNORED_END.has(name)) return;
    if (name === 'template') return this.headEnd(name);
    this.fosterParenting = true;
    this.bodyEnd(name);
    this.fosterParenting = false;
  }

  private selectEnd(name: string): void {
    const cur = this.current().localName;
    if (name === 'optgroup') {
      if (cur === 'option' && this.stack.length > 1 && this.stack[this.stack.length - 2].localName === 'optgroup') this.stack.pop();
      if (this.current().localName === 'optgroup') this.stack.pop();
    } else if (name === 'option') {
      if (cur === 'option') this.stack.pop();
    } else if (name === 'select') {
      if (!this.inScope('select', SELECT_SCOPE)) return;
      this.popUntil('select');
      this.resetMode();
    } else if (name === 'template') this.headEnd(name);
  }

  // ---- foreign content ---------------------------------------------------------------------------------------------

  private foreignStart(name: string, attrs: string[] | null, selfClosing: boolean): void {
    if (FOREIGN_BREAKOUT.has(name) || (name === 'font' && hasAnyAttribute(attrs, ['color', 'face', 'size']))) {
      while (this.stack.length > 1) {
        const node = this.current();
        if (node.ns === NS_HTML || isMathmlTextIntegration(node) || isHtmlIntegration(node)) break;
        this.stack.pop();
      }
      this.start(this.mode, name, attrs, selfClosing);
      return;
    }
    this.insertForeign(name, attrs, this.current().ns, selfClosing);
  }

  private foreignEnd(name: string): void {
    if (name === 'br' || name === 'p') {
      while (this.stack.length > 1) {
        const node = this.current();
        if (node.ns === NS_HTML || isMathmlTextIntegration(node) || isHtmlIntegration(node)) break;
        this.stack.pop();
      }
      this.end(this.mode, name);
      return;
    }
    for (let i = this.stack.length - 1; i > 0; i--) {
      const node = this.stack[i];
      if (node.ns === NS_HTML) {
        this.end(this.mode, name);
        return;
      }
      if (node.localName === name) {
        this.stack.length = i;
        return;
      }
    }
  }

  private insertForeign(name: string, attrs: string[] | null, ns: number, selfClosing: boolean): void {
    const el = this.create(name, attrs, ns);
    this.insertNode(el);
    if (!selfClosing) this.stack.push(el);
    if (this.stack.length > this.budget.maxDepth) this.stop();
  }

  // ---- the stack and the formatting list -----------------------------------------------------------------------

  private current(): Element {
    return this.stack[this.stack.length - 1];
  }

  private hasOpen(name: string): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i].localName === name && this.stack[i].ns === NS_HTML) return true;
    return false;
  }

  /** Whether an HTML element `name` is in the given scope. */
  private inScope(name: string, scope: number): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      if (node.ns === NS_HTML && node.localName === name) return true;
      if (isScopeBoundary(node, scope)) return false;
    }
    return false;
  }

  private inScopeElement(target: Element): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      if (node === target) return true;
      if (isScopeBoundary(node, DEFAULT_SCOPE)) return false;
    }
    return false;
  }

  private anyInScope(names: ReadonlySet<string>): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      if (node.ns === NS_HTML && names.has(node.localName)) return true;
      if (isScopeBoundary(node, DEFAULT_SCOPE)) return false;
    }
    return false;
  }

  private anyInTableScope(names: ReadonlySet<string>): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      if (node.ns === NS_HTML && names.has(node.localName)) return true;
      if (isScopeBoundary(node, TABLE_SCOPE)) return false;
    }
    return false;
  }

  /** Pops up to and including the nearest open HTML element `name`. */
  private popUntil(name: string): void {
    while (this.stack.length > 1) {
      const el = this.stack.pop()!;
      if (el.localName === name && el.ns === NS_HTML) return;
    }
  }

  private generateImpliedEndTags(except: string | null, thorough = false): void {
    const names = thorough ? IMPLIED_END_THOROUGH : IMPLIED_END;
    while (this.stack.length > 1) {
      const el = this.current();
      if (el.ns !== NS_HTML || !names.has(el.localName) || el.localName === except) return;
      this.stack.pop();
    }
  }

  private closePInButtonScope(): void {
    if (this.inScope('p', BUTTON_SCOPE)) this.closeP();
  }

  private closeP(): void {
    this.generateImpliedEndTags('p');
    this.popUntil('p');
  }

  private clearStackTo(context: ReadonlySet<string>): void {
    while (this.stack.length > 1 && !context.has(this.current().localName)) this.stack.pop();
  }

  private closeCaption(): void {
    this.generateImpliedEndTags(null);
    this.popUntil('caption');
    this.clearFormattingToMarker();
    this.mode = IN_TABLE;
  }

  private closeRow(): void {
    this.clearStackTo(ROW_CONTEXT);
    this.stack.pop();
    this.mode = IN_TABLE_BODY;
  }

  private closeCell(): void {
    this.generateImpliedEndTags(null);
    while (this.stack.length > 1) {
      const el = this.stack.pop()!;
      if (el.ns === NS_HTML && (el.localName === 'td' || el.localName === 'th')) break;
    }
    this.clearFormattingToMarker();
    this.mode = IN_ROW;
  }

  private resetMode(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const node = this.stack[i];
      const last = i === 0;
      const name = last && this.fragment ? 'body' : node.localName;
      if (node.ns !== NS_HTML && !last) continue;
      switch (name) {
        case 'select':
          for (let k = i - 1; k > 0; k--) {
            const a = this.stack[k].localName;
            if (a === 'template') break;
            if (a === 'table') {
              this.mode = IN_SELECT_IN_TABLE;
              return;
            }
          }
          this.mode = IN_SELECT;
          return;
        case 'td':
        case 'th':
          if (!last) {
            this.mode = IN_CELL;
            return;
          }
          break;
        case 'tr':
          this.mode = IN_ROW;
          return;
        case 'tbody':
        case 'thead':
        case 'tfoot':
          this.mode = IN_TABLE_BODY;
          return;
        case 'caption':
          this.mode = IN_CAPTION;
          return;
        case 'colgroup':
          this.mode = IN_COLUMN_GROUP;
          return;
        case 'table':
          this.mode = IN_TABLE;
          return;
        case 'template':
          this.mode = this.templateModes[this.templateModes.length - 1] ?? IN_TEMPLATE;
          return;
        case 'head':
          if (!last) {
            this.mode = IN_HEAD;
            return;
          }
          break;
        case 'body':
          this.mode = IN_BODY;
          return;
        case 'frameset':
          this.mode = IN_FRAMESET;
          return;
        case 'html':
          this.mode = this.head === null ? BEFORE_HEAD : AFTER_HEAD;
          return;
      }
      if (last) {
        this.mode = IN_BODY;
        return;
      }
    }
  }

  private formattingAfterMarker(name: string): Element | null {
    for (let i = this.formatting.length - 1; i >= 0; i--) {
      const e = this.formatting[i];
      if (e === null) return null;
      if (e.localName === name) return e;
    }
    return null;
  }

  private removeFormatting(el: Element): void {
    const at = this.formatting.lastIndexOf(el);
    if (at >= 0) this.formatting.splice(at, 1);
  }

  private clearFormattingToMarker(): void {
    while (this.formatting.length > 0 && this.formatting.pop() !== null);
  }

  /** Pushes a formatting element, keeping at most three equal ones after the last marker (the Noah's Ark clause). */
  private pushFormatting(el: Element): void {
    let same = 0;
    let earliest = -1;
    for (let i = this.formatting.length - 1; i >= 0; i--) {
      const e = this.formatting[i];
      if (e === null) break;
      if (e.localName === el.localName && e.ns === el.ns && sameAttributes(e.attributes, el.attributes)) {
        same++;
        earliest = i;
      }
    }
    if (same >= 3) this.formatting.splice(earliest, 1);
    this.formatting.push(el);
  }

  private reconstructFormatting(): void {
    const list = this.formatting;
    const n = list.length;
    if (n === 0) return;
    const last = list[n - 1];
    if (last === null || this.stack.lastIndexOf(last) >= 0) return;
    let i = n - 1;
    while (i > 0) {
      const e = list[i - 1];
      if (e === null || this.stack.lastIndexOf(e) >= 0) break;
      i--;
    }
    for (; i < n; i++) {
      const e = list[i]!;
      const copy = this.insert(e.localName, e.attributes === null ? null : e.attributes.slice());
      list[i] = copy;
      if (this.tokenizer.stopped) return;
    }
  }

  private adoptionAgency(subject: string): void {
    const cur = this.current();
    if (cur.ns === NS_HTML && cur.localName === subject && this.formatting.lastIndexOf(cur) < 0) {
      this.stack.pop();
      return;
    }
    for (let outer = 0; outer < 8; outer++) {
      const fe = this.formattingAfterMarker(subject);
      if (fe === null) {
        this.anyOtherEndTag(subject);
        return;
      }
      const feIndex = this.stack.lastIndexOf(fe);
      if (feIndex < 0) {
        this.removeFormatting(fe);
        return;
      }
      if (!this.inScopeElement(fe)) return;
      let fbIndex = -1;
      for (let i = feIndex + 1; i < this.stack.length; i++) {
        if (isSpecial(this.stack[i])) {
          fbIndex = i;
          break;
        }
      }
      if (fbIndex < 0) {
        this.stack.length = feIndex;
        this.removeFormatting(fe);
        return;
      }
      const furthest = this.stack[fbIndex];
      const commonAncestor = this.stack[feIndex - 1];
      let bookmark = this.formatting.lastIndexOf(fe);
      let lastNode: Element = furthest;
      let nodeIndex = fbIndex;
      for (let inner = 1; ; inner++) {
        nodeIndex--;
        let node = this.stack[nodeIndex];
        if (node === fe) break;
        let fi = this.formatting.lastIndexOf(node);
        if (inner > 3 && fi >= 0) {
          this.formatting.splice(fi, 1);
          if (fi < bookmark) bookmark--;
          fi = -1;
        }
        if (fi < 0) {
          this.stack.splice(nodeIndex, 1);
          continue;
        }
        const copy = this.create(node.localName, node.attributes === null ? null : node.attributes.slice(), node.ns);
        this.formatting[fi] = copy;
        this.stack[nodeIndex] = copy;
        node = copy;
        if (lastNode === furthest) bookmark = fi + 1;
        lastNode.parentNode?.removeChild(lastNode);
        node.append(lastNode);
        lastNode = node;
      }
      lastNode.parentNode?.removeChild(lastNode);
      this.insertNode(lastNode, commonAncestor);
      const copy = this.create(fe.localName, fe.attributes === null ? null : fe.attributes.slice(), fe.ns);
      // the furthest block's children move into the copy, which becomes its only child
      for (let c = furthest.firstChild; c !== null; ) {
        const next = c.nextSibling;
        furthest.removeChild(c);
        copy.append(c);
        c = next;
      }
      furthest.append(copy);
      const at = this.formatting.lastIndexOf(fe);
      if (at >= 0) {
        this.formatting.splice(at, 1);
        if (at < bookmark) bookmark--;
      }
      this.formatting.splice(Math.min(bookmark, this.formatting.length), 0, copy);
      const si = this.stack.lastIndexOf(fe);
      if (si >= 0) this.stack.splice(si, 1);
      this.stack.splice(this.stack.lastIndexOf(furthest) + 1, 0, copy);
      if (this.tokenizer.stopped) return;
    }
  }

  // ---- inserting ----------------------------------------------------------------------------------------------------

  private create(name: string, attrs: string[] | null, ns: number): Element {
    this.count(1, attrs === null ? 1 : 1 + attrs.length / 2);
    return new Element(name, attrs, ns);
  }

  /** Inserts an HTML element at the appropriate place and pushes it. */
  private insert(name: string, attrs: string[] | null): Element {
    const el = this.create(name, attrs, NS_HTML);
    this.insertNode(el);
    this.stack.push(el);
    if (this.stack.length > this.budget.maxDepth) this.stop();
    return el;
  }

  private insertVoid(name: string, attrs: string[] | null): void {
    this.insertNode(this.create(name, attrs, NS_HTML));
  }

  /** The appropriate place for inserting a node (foster parenting included), then inserts `node` there. */
  private insertNode(node: Child, target: Element = this.current()): void {
    if (this.fosterParenting && TABLE_TAGS.has(target.localName) && target.ns === NS_HTML) {
      this.fosterInsert(node);
      return;
    }
    target.append(node);
  }

  private fosterInsert(node: Child): void {
    let tableIndex = -1;
    let templateIndex = -1;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const t = this.stack[i].localName;
      if (t === 'table' && tableIndex < 0) tableIndex = i;
      if (t === 'template' && templateIndex < 0) templateIndex = i;
    }
    if (templateIndex >= 0 && (tableIndex < 0 || templateIndex > tableIndex)) {
      this.appendOrMerge(this.stack[templateIndex], node);
      return;
    }
    if (tableIndex < 0) {
      this.appendOrMerge(this.stack[0], node);
      return;
    }
    const table = this.stack[tableIndex];
    const parent = table.parentNode;
    if (parent !== null) {
      const prev = table.previousSibling;
      if (node.nodeType === TEXT_NODE && prev !== null && prev.nodeType === TEXT_NODE) {
        (prev as Leaf).data += (node as Leaf).data;
        return;
      }
      parent.insertBefore(node, table);
      return;
    }
    this.appendOrMerge(this.stack[tableIndex - 1], node);
  }

  private appendOrMerge(parent: ParentNode, node: Child): void {
    const last = parent.lastChild;
    if (node.nodeType === TEXT_NODE && last !== null && last.nodeType === TEXT_NODE) {
      (last as Leaf).data += (node as Leaf).data;
      return;
    }
    parent.append(node);
  }

  private insertText(data: string): void {
    const target = this.stack[this.stack.length - 1] ?? this.document;
    if (this.fosterParenting && target instanceof Element && TABLE_TAGS.has(target.localName) && target.ns === NS_HTML) {
      this.count(0, 1);
      this.fosterInsert(new Leaf(TEXT_NODE, data));
      return;
    }
    const last = target.lastChild;
    if (last !== null && last.nodeType === TEXT_NODE) {
      (last as Leaf).data += data;
      return;
    }
    this.count(0, 1);
    target.append(new Leaf(TEXT_NODE, data));
  }

  private insertLeaf(leaf: Leaf): void {
    this.count(0, 1);
    const target = this.stack[this.stack.length - 1];
    if (target === undefined) this.document.append(leaf);
    else this.insertNode(leaf, target);
  }
}

const DEFAULT_SCOPE = 0;
const LIST_SCOPE = 1;
const BUTTON_SCOPE = 2;
const TABLE_SCOPE = 3;
const SELECT_SCOPE = 4;
const TABLE_CONTEXT = set('table template html');
const TABLE_BODY_CONTEXT = set('tbody tfoot thead template html');
const ROW_CONTEXT = set('tr template html');

function isScopeBoundary(node: Element, scope: number): boolean {
  const t = node.localName;
  if (node.ns === NS_HTML) {
    if (scope === TABLE_SCOPE) return t === 'html' || t === 'table' || t === 'template';
    if (scope === SELECT_SCOPE) return t !== 'optgroup' && t !== 'option';
    if (SCOPE.has(t)) return true;
    if (scope === LIST_SCOPE) return t === 'ol' || t === 'ul';
    if (scope === BUTTON_SCOPE) return t === 'button';
    return false;
  }
  if (scope === TABLE_SCOPE) return false;
  if (scope === SELECT_SCOPE) return true;
  return node.ns === NS_MATHML ? SPECIAL_MATHML.has(t) : SPECIAL_SVG.has(t);
}

function isSpecial(node: Element): boolean {
  const t = node.localName;
  if (node.ns === NS_HTML) return SPECIAL.has(t);
  return node.ns === NS_MATHML ? SPECIAL_MATHML.has(t) : SPECIAL_SVG.has(t);
}

function isMathmlTextIntegration(node: Element): boolean {
  if (node.ns !== NS_MATHML) return false;
  const t = node.localName;
  return t === 'mi' || t === 'mo' || t === 'mn' || t === 'ms' || t === 'mtext';
}

function isHtmlAnnotation(node: Element): boolean {
  const enc = node.getAttribute('encoding');
  if (enc === null) return false;
  const e = enc.toLowerCase();
  return e === 'text/html' || e === 'application/xhtml+xml';
}

function isHtmlIntegration(node: Element): boolean {
  const t = node.localName;
  if (node.ns === NS_MATHML) return t === 'annotation-xml' && isHtmlAnnotation(node);
  return node.ns === NS_SVG && (t === 'foreignobject' || t === 'desc' || t === 'title');
}

function isHiddenInput(attrs: string[] | null): boolean {
  if (attrs === null) return false;
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === 'type') return attrs[i + 1].toLowerCase() === 'hidden';
  return false;
}

function hasAnyAttribute(attrs: string[] | null, names: string[]): boolean {
  if (attrs === null) return false;
  for (let i = 0; i < attrs.length; i += 2) if (names.includes(attrs[i])) return true;
  return false;
}

function isQuirks(name: string, publicId: string | null, systemId: string | null): boolean {
  if (name !== 'html') return true;
  const pub = publicId?.toLowerCase() ?? null;
  const sys = systemId?.toLowerCase() ?? null;
  if (sys === 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd') return true;
  if (pub === null) return false;
  if (pub === '-//w3o//dtd w3 html strict 3.0//en//' || pub === '-/w3c/dtd html 4.0 transitional/en' || pub === 'html') return true;
  if (sys === null && (pub.startsWith('-//w3c//dtd html 4.01 frameset//') || pub.startsWith('-//w3c//dtd html 4.01 transitional//'))) return true;
  return QUIRKS_PUBLIC_PREFIXES.some((p) => pub.startsWith(p));
}

/** Builds the document tree of `html`, stopping (and recording where in `document.cutAt`) past the budget. */
/** `nulFree`: the caller knows `html` holds no U+0000, so text is not searched for it (see TreeBuilder.text). */
export function buildDocument(html: string, budget: BuildBudget, nulFree = false): Document {
  const counts: Counts = { elements: 0, nodes: 0 };
  const b = new TreeBuilder(html, budget, counts, null, nulFree);
  b.build();
  if (!b.tokenizer.stopped) fillNoscripts(b.noscripts, budget, counts, nulFree);
  return b.document;
}

/** Each `<noscript>`'s raw text parsed as a fragment into its children (what a browser without scripts would show). */
function fillNoscripts(noscripts: Element[], budget: BuildBudget, counts: Counts, nulFree: boolean): void {
  for (const el of noscripts) {
    const text = el.firstChild;
    if (text === null || text.nodeType !== TEXT_NODE || text.nextSibling !== null) continue;
    const data = (text as Leaf).data;
    if (!data.includes('<') && !data.includes('&')) continue;
    el.removeChild(text);
    const b = new TreeBuilder(data, budget, counts, el, nulFree);
    b.build();
    if (b.tokenizer.stopped) return;
  }
}

