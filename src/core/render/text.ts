// Plain-text output from labelled blocks (docs/design.md, Text output): kept blocks in order, a blank line at block breaks.

export interface TextBlock {
  text: string;
  blockBreakAfter: boolean;
}

/** How kept blocks are joined beyond the block breaks (src/core/render/spacing.ts computes it from the page). */
export interface TextLayout {
  /** Between consecutive blocks a and b = a + 1 with no block break: '' (one word), ' ', or verbatim whitespace. */
  gap(a: number, b: number): string;
  /** Between kept blocks a < b that are both preformatted: the whitespace the page shows ('\n\n' across blocks). */
  verbatimGap(a: number, b: number): string | null;
  /** Between kept blocks a < b in table cells: '\t' (same row), '\n' (next row), ' ' (same cell), or null (not a data table). */
  cell(a: number, b: number): '\t' | '\n' | ' ' | null;
  /** Whether consecutive blocks a and b = a + 1 are two lines of one paragraph (one `<br>` alone between them). */
  lineBreak(a: number, b: number): boolean;
  /** The block's text as shown when it is preformatted (`<pre>`: line breaks and indentation kept), else undefined. */
  verbatim(i: number): string | undefined;
}

/** Characters that show nothing and only break searching and word counts: soft hyphen, zero-width space, word
 *  joiner, BOM / zero-width no-break space. ZWJ and ZWNJ stay: they change how emoji and scripts render. */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;

/** `text` without soft hyphens, zero-width spaces, word joiners and BOMs (plain-text and markdown output). */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}
const LEADING_BLANK_LINES = /^(?:[ \t]*\n)+/;
const SPACE = 32;

/**
 * Joins kept blocks. Block texts come whitespace-normalised (single spaces); inline pieces run on, kept blocks are
 * separated by "\n\n" at a block break ("\n" at a lone `<br>`), by a space when dropped blocks lie between them, and else by what `layout`
 * says the page shows between them (without a layout, blocks join as the reference joins them). Table cells become
 * one row per line with tab-separated cells; `<pre>` text keeps its lines. No line starts or ends with a space.
 */
export function renderText(blocks: readonly TextBlock[], labels: ArrayLike<number>, layout?: TextLayout): string {
  let out = '';
  let lastKept = -1;
  /** A block break lies between the last kept block and the next one. */
  let pendingBreak = false;
  /** The last piece ended with a space, not yet written (dropped at a line end). */
  let pendingSpace = false;
  /** Trailing whitespace of the last verbatim piece, not yet written (dropped at a line end). */
  let pendingTail = '';
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (labels[i] !== 1) {
      if (block.blockBreakAfter && lastKept >= 0) pendingBreak = true;
      continue;
    }
    const verbatim = layout?.verbatim(i);
    let text = stripInvisible(verbatim ?? block.text);
    if (text.trim().length === 0) {
      // shows nothing (a lone soft hyphen or zero-width space): only its block break counts
      if (block.blockBreakAfter && lastKept >= 0) pendingBreak = true;
      continue;
    }
    let separator = '';
    let lineStart = out.length === 0;
    if (lastKept >= 0) {
      const cellGap = layout?.cell(lastKept, i) ?? null;
      const cell = cellGap === ' ' ? null : cellGap;
      const pre = verbatim !== undefined && pendingBreak && lastKept === i - 1 ? (layout?.verbatimGap(lastKept, i) ?? null) : null;
      if (pre !== null && pre !== '\n\n') separator = pre; // a <br> inside one <pre>: its line break
      else if (cellGap === ' ' && pendingBreak) separator = ' '; // lines of one table cell: the row stays on one line
      else if (cell !== null || pendingBreak) {
        // two lines of one paragraph (one <br> between them): a line break, not a paragraph break
        separator = cell ?? (lastKept === i - 1 && verbatim === undefined && layout?.lineBreak(lastKept, i) === true ? '\n' : '\n\n');
        lineStart = true;
      } else if (lastKept !== i - 1) separator = ' ';
      else if (layout !== undefined && (verbatim !== undefined || !(pendingSpace || text.charCodeAt(0) === SPACE))) {
        separator = layout.gap(lastKept, i); // a DOM walk: only when the texts themselves do not already say ' '
      }
    }
    if (lineStart) {
      out += separator;
    } else {
      const hadTail = pendingTail !== '';
      out += pendingTail;
      if (separator !== '' && separator !== ' ') out += separator; // verbatim whitespace between pieces of a <pre>
      else if (!hadTail && (separator === ' ' || pendingSpace || (verbatim === undefined && text.charCodeAt(0) === SPACE))) out += ' ';
    }
    pendingSpace = false;
    pendingTail = '';
    if (verbatim === undefined) {
      const trailing = text.charCodeAt(text.length - 1) === SPACE;
      out += text.trim();
      pendingSpace = trailing;
    } else {
      if (lineStart) text = text.replace(LEADING_BLANK_LINES, '');
      let end = text.length;
      while (end > 0 && text.charCodeAt(end - 1) <= SPACE) end--;
      pendingTail = text.slice(end);
      out += text.slice(0, end);
    }
    lastKept = i;
    pendingBreak = block.blockBreakAfter;
  }
  return out;
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/**
 * Number of `\w+` words (runs of Unicode letters, digits and underscore: the benchmark's token, as
 * `/[\p{L}\p{N}_]+/gu` counts them). A char loop: ASCII is decided inline, only other characters meet the regex.
 */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let isWordChar: boolean;
    if (c < 128) {
      isWordChar = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      isWordChar = WORD_CHAR.test(text.slice(i, i + 2)); // a surrogate pair: one code point
      i++;
    } else {
      isWordChar = WORD_CHAR.test(text[i]);
    }
    if (isWordChar && !inWord) n++;
    inWord = isWordChar;
  }
  return n;
}
