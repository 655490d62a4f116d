// Plain-text output from labelled blocks (docs/design.md, Text output): kept blocks in order, a blank line at block breaks.

export interface TextBlock {
  text: string;
  blockBreakAfter: boolean;
}

// Runs of [ \t\u00a0] become one space. Written to match only runs that change (two or more characters, or a tab or
// no-break space alone): a lone ' ' is left alone, so a text without such runs is returned as is, not copied.
const SPACE_RUN = /[ \t\u00a0]{2,}|[\t\u00a0]/g;
const EDGE_SPACES = /^ +| +$/gm;
const BLANK_RUNS = /\n{3,}/g;

const ENDS_WITH_SPACE = /\s$/;
const STARTS_WITH_SPACE = /^\s/;

/**
 * Joins kept blocks: untrimmed texts concatenate (inline pieces stay joined), "\n\n" after a block break.
 * `spaceBetween(a, b)` says whether the page shows a word boundary between consecutive blocks a and b = a + 1
 * (src/render/spacing.ts); without it, blocks join as the reference joins them. Kept blocks with dropped blocks
 * between them are always separated.
 */
export function renderText(
  blocks: readonly TextBlock[],
  labels: ArrayLike<number>,
  spaceBetween?: (a: number, b: number) => boolean,
): string {
  let out = '';
  // Whether `out` ends with whitespace, kept from the last non-empty piece appended: testing `out` itself would
  // flatten the growing rope string on every kept block.
  let outEndsWithSpace = false;
  let broken = true;
  let lastKept = -1;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (labels[i] === 1) {
      if (
        !broken &&
        spaceBetween !== undefined &&
        !outEndsWithSpace &&
        !STARTS_WITH_SPACE.test(block.text) &&
        (lastKept !== i - 1 || spaceBetween(lastKept, i))
      ) {
        out += ' ';
        outEndsWithSpace = true;
      }
      out += block.text;
      if (block.text.length > 0) outEndsWithSpace = ENDS_WITH_SPACE.test(block.text);
      lastKept = i;
      broken = false;
      if (block.blockBreakAfter) {
        out += '\n\n';
        outEndsWithSpace = true;
        broken = true;
      }
    } else if (block.blockBreakAfter && !broken) {
      out += '\n\n';
      outEndsWithSpace = true;
      broken = true;
    }
  }
  return out.replace(SPACE_RUN, ' ').replace(EDGE_SPACES, '').replace(BLANK_RUNS, '\n\n').trim();
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
