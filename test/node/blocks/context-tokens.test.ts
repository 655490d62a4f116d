import { describe, expect, it } from 'vitest';
import { CLASS_TOKEN_INDEX, CLASS_WORDS, COMMENT_TOKENS, classWordsOf, namesComment } from '../../../src/core/blocks/context.js';

// The reference: tokens as the regex split gives them (context.ts scans them out with a char loop instead).
const TOKEN_SPLIT = /[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/;

function referenceWords(s: string): number[] {
  const out: number[] = [];
  for (const tok of s.split(TOKEN_SPLIT)) {
    const i = tok.length >= 2 ? CLASS_TOKEN_INDEX.get(tok.toLowerCase()) : undefined;
    if (i !== undefined && !out.includes(i)) out.push(i);
  }
  return out;
}

function referenceComment(s: string): boolean {
  return s.split(TOKEN_SPLIT).some((tok) => tok.length >= 5 && COMMENT_TOKENS.has(tok.toLowerCase()));
}

const PARTS = ['nav', 'Nav', 'NAV', 'comment', 'Comments', 'post', 'x', 'é', '-', '_', ' ', '1', 'fooBar', 'aB', 'Ab',
  'reply', 'DISQUS', 'sidebar', 'footer', 'ad', 'Ad', 'content', '\u00a0', '🙂', 'respond', 'entryTitle', 'aside',
  'recirculation', 'Recirculationx', 'ZZ'];

describe('class and id tokens', () => {
  it('are the pieces of the split at separators and camelCase boundaries', () => {
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 5000; k++) {
      let s = '';
      for (let n = Math.floor(rand() * 8); n > 0; n--) s += PARTS[Math.floor(rand() * PARTS.length)];
      expect(classWordsOf(s)).toEqual(referenceWords(s));
      expect(namesComment(s)).toBe(referenceComment(s));
    }
    const i = (w: string): number => CLASS_WORDS.indexOf(w);
    expect(classWordsOf('mainNav sidebar-Widget')).toEqual([i('main'), i('nav'), i('sidebar'), i('widget')]);
    expect(namesComment('fooCommentsBar')).toBe(true);
    expect(namesComment('nocomment')).toBe(false);
  });
});
