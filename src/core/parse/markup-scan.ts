// A cheap scan of the markup that predicts what the DOM parse (src/core/parse/dom.ts) will build, before it runs: how deep elements
// nest, how many nodes it creates, how much work its open-element stack does, and the largest `class` attribute.
//
// The DOM is built from htmlparser2's events, one node per event: an element per open tag, a text node per
// text event (text is split at every tag and at every character reference: `a&amp;b` is three text nodes), an
// attribute per attribute (counted as a node: the budget was set when linkedom made each one a node), a comment per
// comment or CDATA section. The tree's shape is htmlparser2's stack of open elements.
// So this scan is a small model of htmlparser2 10's tokenizer (which `<` starts a tag, where a tag ends given its
// quoted attributes, raw-text elements, comments, CDATA, declarations) and of its stack rules (void elements,
// tags that close others when they open, end tags that close everything above their match and are ignored
// without one, `</p>` and `</br>` that create elements, `<x/>` self-closing only inside <svg>/<math>).
// test/node/parse/markup-scan.test.ts fuzzes it against the tree the parser really builds.
//
// Written from reading htmlparser2's Parser.ts and Tokenizer.ts (MIT); the tables below restate its rules.

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

// htmlparser2's `openImpliesClose`: opening the key closes the open elements at the top of the stack while they
// are in the set.
const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['tr', ['tr', 'th', 'td']],
      ['th', ['th']],
      ['td', ['thead', 'th', 'td']],
      ['body', ['head', 'link', 'script']],
      ['li', ['li']],
      ['select', FORM],
      ['input', FORM],
      ['output', FORM],
      ['button', FORM],
      ['datalist', FORM],
      ['textarea', FORM],
      ['option', ['option']],
      ['optgroup', ['optgroup', 'option']],
      ['dd', ['dd', 'dt']],
      ['dt', ['dd', 'dt']],
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
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);
/** Opening these enters foreign content (where `<x/>` closes itself); their end tag leaves it. */
const FOREIGN = new Set(['math', 'svg']);
/** Opening these inside foreign content returns to HTML rules; their end tag leaves them. */
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
/** Raw-text elements: their content is text up to `</name` followed by whitespace or `>` (ASCII case-insensitive). */
const RAW_TEXT_END: ReadonlyMap<string, RegExp> = new Map(
  ['script', 'style', 'title', 'textarea', 'xmp'].map((n) => [n, new RegExp(`</${n}[\\t\\n\\f\\r >]`, 'gi')]),
);

/** What the parser does with a tag name beyond pushing and popping it (names without a rule have none of it). */
interface TagRule {
  /** Opening it first closes the open elements at the top of the stack while they are in this set. */
  closes: ReadonlySet<string> | undefined;
  isVoid: boolean;
  /** Opening it pushes a foreign-content flag (true for svg/math, false for HTML integration points); closing pops one. */
  context: boolean | undefined;
  /** Raw text up to this end tag. */
  rawEnd: RegExp | undefined;
}
/** One lookup per tag instead of one per table. */
const RULES: ReadonlyMap<string, TagRule> = new Map(
  [...new Set([...OPEN_IMPLIES_CLOSE.keys(), ...VOID, ...FOREIGN, ...HTML_INTEGRATION, ...RAW_TEXT_END.keys()])].map((n) => [
    n,
    {
      closes: OPEN_IMPLIES_CLOSE.get(n),
      isVoid: VOID.has(n),
      context: FOREIGN.has(n) ? true : HTML_INTEGRATION.has(n) ? false : undefined,
      rawEnd: RAW_TEXT_END.get(n),
    },
  ]),
);

/** htmlparser2's whitespace: space, \n, \t, \f, \r. */
function isSpace(c: number): boolean {
  return c <= 32 && (c === 32 || c === 10 || c === 9 || c === 12 || c === 13);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** A separator for `String.prototype.split(/\s+/)` (which the DOM applies to `class`, as linkedom did) or a `&` (a reference may decode to one). */
function isClassSeparator(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13) || c === 38;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** html[start, end) as htmlparser2 names a tag: lower-cased (fully, as `toLowerCase` does, only when needed). */
function tagName(html: string, start: number, end: number): string {
  const s = html.slice(start, end);
  for (let i = start; i < end; i++) {
    const c = html.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return s.toLowerCase();
  }
  return s;
}

/**
 * Scans `html` as the DOM's parser (htmlparser2 in HTML mode) would tokenise it and simulates its stack of open
 * elements. Linear in the input; stops at the first bound passed.
 */
export function scanMarkup(html: string, bounds: ScanBounds): MarkupScan {
  const len = html.length;
  // The parser's stack of open elements (top = last) and of foreign-content flags (htmlparser2's `foreignContext`).
  const stack: string[] = [];
  const foreign: boolean[] = [false];
  let maxDepth = 0;
  let elements = 0;
  let nodes = 0;
  let stackSteps = 0;
  let maxClassTokens = 0;
  let exceeded: MarkupScan['exceeded'] = null;
  let cutAt = len;

  /** Whether a bound is passed; the first time, records it and cuts at `unitStart`. */
  const overBounds = (unitStart: number): boolean => {
    if (exceeded !== null) return true;
    if (maxDepth > bounds.maxDepth) exceeded = 'maxDepth';
    else if (maxClassTokens > bounds.maxClassTokens) exceeded = 'maxClassTokens';
    else if (stackSteps > bounds.maxStackSteps) exceeded = 'maxStackSteps';
    else if (elements > bounds.maxElements) exceeded = 'maxElements';
    else if (nodes > bounds.maxNodes) exceeded = 'maxNodes';
    else return false;
    cutAt = unitStart;
    return true;
  };

  // Text events: a text run is one node, and each `&` in it can split off two more (the text before it and the
  // decoded character). `nextAmp` is the next `&` at or after the cursor, found lazily (keeps the scan linear).
  let nextAmp = -2;
  // Returns whether a bound was passed.
  const countText = (start: number, end: number): boolean => {
    if (end <= start) return false;
    nodes++;
    if (overBounds(start)) return true;
    if (nextAmp !== -1 && nextAmp < start) nextAmp = html.indexOf('&', start);
    while (nextAmp !== -1 && nextAmp < end) {
      nodes += 2;
      if (overBounds(nextAmp)) return true;
      nextAmp = html.indexOf('&', nextAmp + 1);
    }
    return false;
  };

  const pop = (): void => {
    stackSteps += stack.length;
    stack.pop();
  };

  /** htmlparser2's emitOpenTag (and the element the DOM creates for it). Returns whether the element stays open. */
  const openTag = (name: string, rule: TagRule | undefined): boolean => {
    elements++;
    nodes++;
    if (rule !== undefined) {
      const closes = rule.closes;
      if (closes !== undefined) {
        while (stack.length > 0 && closes.has(stack[stack.length - 1])) pop();
      }
      if (rule.isVoid) {
        if (stack.length >= maxDepth) maxDepth = stack.length + 1;
        return false;
      }
    }
    stackSteps += stack.length;
    stack.push(name);
    if (stack.length > maxDepth) maxDepth = stack.length;
    if (rule !== undefined && rule.context !== undefined) {
      stackSteps += foreign.length;
      foreign.push(rule.context);
    }
    return true;
  };

  /** htmlparser2's onclosetag. */
  const closeTag = (name: string): void => {
    const rule = RULES.get(name);
    if (rule !== undefined) {
      if (rule.context !== undefined) {
        stackSteps += foreign.length;
        foreign.pop();
      }
      if (rule.isVoid) {
        if (name === 'br') openTag('br', rule);
        return;
      }
    }
    let at = stack.length - 1;
    while (at >= 0 && stack[at] !== name) at--;
    stackSteps += stack.length - at;
    if (at >= 0) {
      while (stack.length > at) pop();
    } else if (name === 'p') {
      // `</p>` without an open <p>: an empty <p> is created and closed.
      openTag('p', RULES.get('p'));
      pop();
    }
  };


  let textStart = 0; // start of the pending text run
  let from = 0; // where to look for the next `<`
  let unitStart = 0; // start of the last tag or markup counted
  scan: while (from < len) {
    if (overBounds(unitStart)) break;
    const lt = html.indexOf('<', from);
    if (lt < 0) break;
    const p = lt + 1;
    const c = p < len ? html.charCodeAt(p) : -1;

    if (isAsciiAlpha(c)) {
      // An open tag: its name runs to whitespace, `/` or `>`.
      if (countText(textStart, lt)) break;
      unitStart = lt;
      textStart = len; // no text pending while in the tag (an unfinished tag at the end is dropped)
      let k = p + 1;
      while (k < len) {
        const d = html.charCodeAt(k);
        if (d === 62 || d === 47 || isSpace(d)) break;
        k++;
      }
      if (k >= len) break;
      const name = tagName(html, p, k);
      const rule = RULES.get(name);
      const stays = openTag(name, rule);
      // Attributes, up to the `>` that ends the tag (htmlparser2's attribute states, quotes respected).
      let i = k;
      let selfClosing = false;
      for (;;) {
        if (i >= len) break scan; // unfinished tag
        let d = html.charCodeAt(i);
        if (d === 62) break;
        if (d === 47) {
          // `/`: self-closing if `>` follows (whitespace allowed); anything else starts an attribute name.
          i++;
          while (i < len && isSpace(html.charCodeAt(i))) i++;
          if (i >= len) break scan;
          if (html.charCodeAt(i) === 62) {
            selfClosing = true;
            break;
          }
          continue;
        }
        if (isSpace(d)) {
          i++;
          continue;
        }
        // An attribute name: to `=`, whitespace, `/` or `>` (its first character may be `=`).
        const nameStart = i;
        i++;
        while (i < len) {
          d = html.charCodeAt(i);
          if (d === 61 || d === 62 || d === 47 || isSpace(d)) break;
          i++;
        }
        const isClass = i - nameStart === 5 && isClassName(html, nameStart);
        nodes++;
        while (i < len && isSpace(html.charCodeAt(i))) i++;
        if (i >= len) break scan;
        if (html.charCodeAt(i) !== 61) continue; // no value
        i++;
        while (i < len && isSpace(html.charCodeAt(i))) i++;
        if (i >= len) break scan;
        d = html.charCodeAt(i);
        let valueStart: number;
        let valueEnd: number;
        if (d === 34 || d === 39) {
          valueStart = i + 1;
          valueEnd = html.indexOf(d === 34 ? '"' : "'", valueStart);
          if (valueEnd < 0) break scan;
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
        if (isClass) {
          let tokens = 1;
          for (let x = valueStart; x < valueEnd; x++) {
            const e = html.charCodeAt(x);
            if ((e <= 38 || e >= 0xa0) && isClassSeparator(e)) tokens++;
          }
          if (tokens > maxClassTokens) maxClassTokens = tokens;
          nodes += tokens; // each class name counted as a node (linkedom kept each in a Set; the budget dates from then)
        }
      }
      // i is at the `>` that ends the tag.
      if (selfClosing && stays && foreign[foreign.length - 1] === true) {
        if (stack[stack.length - 1] === name) pop(); // `<x/>` in foreign content closes x
        textStart = from = i + 1;
        continue;
      }
      const rawEnd = selfClosing || rule === undefined ? undefined : rule.rawEnd;
      if (rawEnd === undefined || !isAscii(html, p, p + name.length)) {
        textStart = from = i + 1;
        continue;
      }
      // Raw text up to its end tag: one text node (split at `&` in <title>, whose references are decoded).
      rawEnd.lastIndex = i + 1;
      const m = rawEnd.exec(html);
      const textEnd = m === null ? len : m.index;
      if (name === 'title') {
        if (countText(i + 1, textEnd)) cutAt = lt; // cut before the tag, not inside its text
      }
      else if (textEnd > i + 1) nodes++;
      if (m === null) {
        textStart = from = len;
        break;
      }
      closeTag(tagName(html, m.index + 2, m.index + 2 + name.length));
      const gt = html.indexOf('>', m.index + 2 + name.length);
      if (gt < 0) {
        textStart = from = len;
        break;
      }
      textStart = from = gt + 1;
      continue;
    }

    if (c === 47) {
      // `</`: whitespace is skipped, then `>` (nothing), a letter (an end tag named up to whitespace or `>`), or
      // anything else (a comment up to `>`).
      if (countText(textStart, lt)) break;
      unitStart = lt;
      let k = p + 1;
      while (k < len && isSpace(html.charCodeAt(k))) k++;
      if (k >= len) {
        textStart = lt; // `</` and whitespace at the end: text
        break;
      }
      const d = html.charCodeAt(k);
      if (d === 62) {
        // `</>` is dropped but stays in the text: the text event runs on from the `<`.
        textStart = lt;
        from = k + 1;
        continue;
      }
      if (isAsciiAlpha(d)) {
        let e = k + 1;
        while (e < len) {
          const x = html.charCodeAt(e);
          if (x === 62 || isSpace(x)) break;
          e++;
        }
        if (e >= len) {
          textStart = from = len;
          break;
        }
        closeTag(tagName(html, k, e));
        const gt = html.charCodeAt(e) === 62 ? e : html.indexOf('>', e);
        if (gt < 0) {
          textStart = from = len;
          break;
        }
        textStart = from = gt + 1;
        continue;
      }
      nodes++;
      const gt = html.indexOf('>', k);
      if (gt < 0) {
        textStart = from = len;
        break;
      }
      textStart = from = gt + 1;
      continue;
    }

    if (c === 33) {
      // `<!`: a comment (`<!--` to the first `-->`, which may share the opening dashes), CDATA (`<![CDATA[` to
      // `]]>`, a comment in HTML), or a declaration such as a doctype (to the next `>`, never a node). The character
      // after `<!` (and after `<!-` when it is not a second dash) is consumed before any `>` can end it.
      if (countText(textStart, lt)) break;
      unitStart = lt;
      let end: number;
      let after: number;
      if (html.startsWith('--', p + 1)) {
        nodes++;
        end = html.indexOf('-->', p + 1);
        after = end + 3;
      } else if (html.startsWith('[CDATA[', p + 1)) {
        nodes++;
        end = html.indexOf(']]>', p + 8);
        after = end + 3;
      } else {
        nodes++; // a doctype node, or text when unfinished
        end = html.indexOf('>', html.charCodeAt(p + 1) === 45 ? p + 3 : p + 2);
        after = end + 1;
      }
      if (end < 0) {
        textStart = from = len;
        break;
      }
      textStart = from = after;
      continue;
    }

    if (c === 63) {
      // `<?`: a processing instruction up to `>`; never a node.
      if (countText(textStart, lt)) break;
      unitStart = lt;
      const gt = html.indexOf('>', p + 1);
      if (gt < 0) {
        nodes++;
        textStart = from = len;
        break;
      }
      textStart = from = gt + 1;
      continue;
    }

    // A `<` that starts nothing is text, but it ends the text event before it.
    if (countText(textStart, lt)) break;
    textStart = lt;
    from = lt + 1;
  }
  if (exceeded === null && !countText(textStart, len)) overBounds(unitStart);
  return { maxDepth, elements, nodes, stackSteps, maxClassTokens, exceeded, cutAt };
}

/** Whether the 5 characters at html[i] spell `class`, ASCII case-insensitively. */
function isClassName(html: string, i: number): boolean {
  return (html.charCodeAt(i) | 0x20) === 99 && (html.charCodeAt(i + 1) | 0x20) === 108 && (html.charCodeAt(i + 2) | 0x20) === 97 &&
    (html.charCodeAt(i + 3) | 0x20) === 115 && (html.charCodeAt(i + 4) | 0x20) === 115;
}

/** Whether html[start, end) is ASCII (htmlparser2's tokenizer recognises raw-text names by ASCII letters only). */
function isAscii(html: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (html.charCodeAt(i) >= 128) return false;
  return true;
}

// Priming. scanMarkup is one large function, and V8 compiles it for the branches it has seen run: each page that
// then takes a branch no earlier page took (a CDATA section, an unquoted attribute, a bound passed) throws the
// compiled code away and it is compiled again. Over the 1,497 WCXB dev pages that happened 23 times per process, a
// quarter of all the optimising compiler's time; after a run over markup that takes nearly every branch, when the
// module loads, 8 times (README, Bulk extraction, Numbers). The scan is pure, so this changes no result; it costs
// well under a millisecond.
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
