// Plain-text output from labelled blocks (spec §10): kept blocks in order, a blank line at block breaks.

export interface TextBlock {
  text: string;
  blockBreakAfter: boolean;
}

const SPACE_RUN = /[ \t\u00a0]+/g;
const EDGE_SPACES = /^ +| +$/gm;
const BLANK_RUNS = /\n{3,}/g;

/** Joins kept blocks: untrimmed texts concatenate (inline pieces stay joined), "\n\n" after a block break. */
export function renderText(blocks: readonly TextBlock[], labels: ArrayLike<number>): string {
  let out = '';
  let broken = true;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (labels[i] === 1) {
      out += block.text;
      broken = false;
      if (block.blockBreakAfter) {
        out += '\n\n';
        broken = true;
      }
    } else if (block.blockBreakAfter && !broken) {
      out += '\n\n';
      broken = true;
    }
  }
  return out.replace(SPACE_RUN, ' ').replace(EDGE_SPACES, '').replace(BLANK_RUNS, '\n\n').trim();
}

const WORD = /[\p{L}\p{N}_]+/gu;

/** Number of `\w+` words (Unicode letters, digits, underscore), the benchmark's token. */
export function countWords(text: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
}
