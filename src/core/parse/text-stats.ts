// Word splitting, stop words and the regexes of the block statistics (docs/design.md, Raw statistics), compiled once.
// Two flavours: `paper` reproduces the reference (ASCII words, case-sensitive English stop words);
// `pith` is Unicode-aware (letter/digit runs, one word per CJK character, lower-cased multilingual stop words).

import { STOPWORDS_BY_LANGUAGE } from './stopwords.js';

/** Statistics of one trimmed block text. All counts are integers. */
export interface TextStats {
  nCharacters: number;
  nWords: number;
  nSentences: number;
  nPunctuation: number;
  nNumeric: number;
  nStopwords: number;
  nWordsWithCapital: number;
  totalWordLength: number;
  endsWithPunctuation: boolean;
  endsWithQuestionMark: boolean;
  containsCopyright: boolean;
  containsEmail: boolean;
  containsUrl: boolean;
  containsYear: boolean;
}

/** The pith-only statistics (Unicode words, wider punctuation). */
export interface UnicodeTextStats {
  uWords: number;
  uStopwords: number;
  uWordsWithCapital: number;
  uTotalWordLength: number;
  uPunctuation: number;
  uSentences: number;
  uEndsWithPunctuation: boolean;
}

// ---------------------------------------------------------------- whitespace

const WS_RUN = /[ \t\n\f\r\u00a0]+/g;
/** jsoup `TextNode.text()`: runs of whitespace (incl. NBSP) become one space; not trimmed. */
export function normaliseWhitespace(s: string): string {
  // Most texts need no change (no tab, newline, form feed, CR or NBSP, no double space): skip the regex for them.
  let prevSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (prevSpace) return s.replace(WS_RUN, ' ');
      prevSpace = true;
    } else if (c === 9 || c === 10 || c === 12 || c === 13 || c === 0xa0) {
      return s.replace(WS_RUN, ' ');
    } else {
      prevSpace = false;
    }
  }
  return s;
}

/** Java `String.trim()`: strips code units <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

const NON_EMPTY = /[^\p{Z}\s]/u;
/** Collapsed DOM (docs/design.md): the text is empty when it matches `^[\p{Z}\s]*$` (NBSP-only counts as empty). */
export function isBlankText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || c === 0xa0) continue; // \s and NBSP
    if (c < 0x1680) return false; // below U+1680 only those are \p{Z} or \s
    return !NON_EMPTY.test(s);
  }
  return true;
}

// ---------------------------------------------------------------- paper (reference) statistics

/** The reference's 124 English stop words (case-sensitive, lower case). */
export const PAPER_STOPWORDS: ReadonlySet<string> = new Set(
  ('a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by cannot could did do does doing down during each few for from further had has have having he her here ' +
    'hers herself him himself his how i if in into is it its itself me more most my myself no nor not of off on ' +
    'once only or other ought our ours ourselves out over own same she should so some such than that the their ' +
    'theirs them themselves then there these they this those through to too under until up very was we were what ' +
    'when where which while who whom why with would you your yours yourself yourselves').split(' '),
);

const ASCII_WORD_SPLIT = /[^A-Za-z0-9_]+/;
const SENTENCE_BREAK = /(?<=[.?!;])\s+(?=\p{Lu})/gu;
const DIGIT = /\p{Nd}/gu;
// Java `\w` / `\b` are ASCII: no `u` flag on these three.
const EMAIL = /\b(?=\S+)(?=\w+@[\w.]+)\b/;
const URL = /\b(?:https?|ftp):\/\/[^\s/$.?#].[^\s]*\b/;
const YEAR = /\b\d{4}\b/;

function isPaperPunct(c: number): boolean {
  // . , ? ; : !
  return c === 46 || c === 44 || c === 63 || c === 59 || c === 58 || c === 33;
}

function countMatches(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s) !== null) n++;
  re.lastIndex = 0;
  return n;
}

/** The reference's leaf statistics (docs/design.md, Raw statistics) on an already trimmed text. */
export function paperTextStats(text: string): TextStats {
  const len = text.length;
  let nPunctuation = 0;
  let nNonAscii = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (isPaperPunct(c)) nPunctuation++;
    else if (c > 127) nNonAscii++;
  }
  let nNumeric = 0;
  if (nNonAscii === 0) {
    for (let i = 0; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) nNumeric++;
    }
  } else {
    nNumeric = countMatches(DIGIT, text);
  }
  let nWords = 0;
  let nStopwords = 0;
  let nWordsWithCapital = 0;
  let totalWordLength = 0;
  if (len > 0) {
    const parts = text.split(ASCII_WORD_SPLIT);
    for (const w of parts) {
      if (w.length === 0) continue;
      nWords++;
      totalWordLength += w.length;
      const c0 = w.charCodeAt(0);
      if (c0 >= 65 && c0 <= 90) nWordsWithCapital++;
      if (PAPER_STOPWORDS.has(w)) nStopwords++;
    }
  }
  const last = len > 0 ? text.charCodeAt(len - 1) : -1;
  return {
    nCharacters: Math.max(len, 1),
    nWords,
    nSentences: 1 + countMatches(SENTENCE_BREAK, text),
    nPunctuation,
    nNumeric,
    nStopwords,
    nWordsWithCapital,
    totalWordLength,
    endsWithPunctuation: last >= 0 && isPaperPunct(last),
    endsWithQuestionMark: last === 63,
    containsCopyright: text.includes('\u00a9'),
    containsEmail: text.includes('@') && EMAIL.test(text),
    containsUrl: text.includes('://') && URL.test(text),
    containsYear: YEAR.test(text),
  };
}

// ---------------------------------------------------------------- pith (Unicode) statistics

/** Stop words of the corpus's main languages (stopwords.ts), lower case, one union set. */
export const PITH_STOPWORDS: ReadonlySet<string> = new Set(Object.values(STOPWORDS_BY_LANGUAGE).flatMap((set) => [...set]));

/**
 * The ASCII stop words of a set as an automaton over letters and digits, for the char loop of fillBlockTextStats:
 * it follows a word as its characters come instead of cutting each word out and hashing it. State 0 is dead,
 * state 1 the start; `next[state * WORD_SYMBOLS + symbol]`, `accept[state]` is 1 at the end of a stop word.
 * Upper-case letters take their lower-case letter's symbol: a case-sensitive caller sends them to state 0 itself.
 */
interface StopwordAutomaton {
  next: Uint16Array;
  accept: Uint8Array;
}
/** a-z (and A-Z) are symbols 0-25, 0-9 are 26-35. */
const WORD_SYMBOLS = 36;
function wordSymbol(c: number): number {
  return c >= 97 ? c - 97 : c >= 65 ? c - 65 : c - 22; // c - 48 + 26 for a digit
}
function stopwordAutomaton(words: ReadonlySet<string>): StopwordAutomaton {
  const next: number[] = new Array<number>(2 * WORD_SYMBOLS).fill(0);
  const accept: number[] = [0, 0];
  for (const w of words) {
    if (!/^[a-z0-9]+$/.test(w)) continue; // words with other characters never come through the char loop
    let state = 1;
    for (let i = 0; i < w.length; i++) {
      const k = state * WORD_SYMBOLS + wordSymbol(w.charCodeAt(i));
      if (next[k] === 0) {
        next[k] = accept.length;
        accept.push(0);
        for (let j = 0; j < WORD_SYMBOLS; j++) next.push(0);
      }
      state = next[k];
    }
    accept[state] = 1;
  }
  if (accept.length > 0xffff) throw new Error('stop-word automaton too large for Uint16Array');
  return { next: Uint16Array.from(next), accept: Uint8Array.from(accept) };
}
const PAPER_AUTOMATON = stopwordAutomaton(PAPER_STOPWORDS);
const PITH_AUTOMATON = stopwordAutomaton(PITH_STOPWORDS);

const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const UWORD_SIMPLE = /[\p{L}\p{N}\p{M}]+/gu;
const UWORD_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/gu;
const UPPER_START = /^\p{Lu}/u;
const U_SENTENCE_BREAK = /[.?!;…](?=\s+[\p{Lu}\p{Lt}])|[。！？]+(?=\S)/gu;

function isUnicodePunct(c: number): boolean {
  if (c < 128) return isPaperPunct(c);
  // 。，？！：；、… ¿ ¡ ؟ ، ।
  return (
    c === 0x3002 || c === 0xff0c || c === 0xff1f || c === 0xff01 || c === 0xff1a || c === 0xff1b ||
    c === 0x3001 || c === 0x2026 || c === 0xbf || c === 0xa1 || c === 0x061f || c === 0x060c || c === 0x0964
  );
}

/** Unicode words of a trimmed text: letter/digit runs, each CJK character a word of its own. */
export function unicodeWords(text: string): string[] {
  const re = CJK_CHAR.test(text) ? UWORD_CJK : UWORD_SIMPLE;
  return text.match(re) ?? [];
}

/** pith statistics on an already trimmed text. */
export function unicodeTextStats(text: string): UnicodeTextStats {
  const len = text.length;
  let uPunctuation = 0;
  let nonAscii = false;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) nonAscii = true;
    if (isUnicodePunct(c)) uPunctuation++;
  }
  const words = nonAscii ? unicodeWords(text) : text.match(UWORD_SIMPLE) ?? [];
  let uStopwords = 0;
  let uWordsWithCapital = 0;
  let uTotalWordLength = 0;
  for (const w of words) {
    uTotalWordLength += w.length;
    const c0 = w.charCodeAt(0);
    if (c0 < 128 ? c0 >= 65 && c0 <= 90 : UPPER_START.test(w)) uWordsWithCapital++;
    if (PITH_STOPWORDS.has(w.toLowerCase())) uStopwords++;
  }
  const last = len > 0 ? text.charCodeAt(len - 1) : -1;
  return {
    uWords: words.length,
    uStopwords,
    uWordsWithCapital,
    uTotalWordLength,
    uPunctuation,
    uSentences: 1 + countMatches(U_SENTENCE_BREAK, text),
    uEndsWithPunctuation: last >= 0 && isUnicodePunct(last),
  };
}

/** Lower-cased Unicode words, for title overlap. */
export function lowerWords(text: string): string[] {
  return unicodeWords(text.toLowerCase());
}

// ---------------------------------------------------------------- both at once, with an ASCII fast path

const isAsciiWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/**
 * paperTextStats and unicodeTextStats of one trimmed text. Texts that are ASCII but for plain separators (most
 * blocks) take one hand-written pass that gives exactly what the regexes give; other texts go through the regexes.
 */
export function blockTextStats(text: string): { paper: TextStats; unicode: UnicodeTextStats } {
  const out = {} as TextStats & UnicodeTextStats;
  fillBlockTextStats(text, out);
  const { uWords, uStopwords, uWordsWithCapital, uTotalWordLength, uPunctuation, uSentences, uEndsWithPunctuation,
    ...paper } = out;
  return {
    paper,
    unicode: { uWords, uStopwords, uWordsWithCapital, uTotalWordLength, uPunctuation, uSentences, uEndsWithPunctuation },
  };
}

/**
 * A non-ASCII character that the char loop below cannot treat as a plain separator: a letter, digit or mark (part
 * of a word in one flavour), a Unicode space (`\s` of the sentence regex), or pith punctuation. Other non-ASCII
 * characters (curly quotes, dashes, symbols, emoji) separate words in both flavours and count for nothing else.
 */
const NOT_A_PLAIN_SEPARATOR = /(?![\x00-\x7f])[\p{L}\p{N}\p{M}\s\u2026\u3002\uff0c\uff1f\uff01\uff1a\uff1b\u3001\u00bf\u00a1\u061f\u060c\u0964]/u;

/** blockTextStats written straight into `out` (a leaf's props): no intermediate objects on the hot path. */
export function fillBlockTextStats(text: string, out: TextStats & UnicodeTextStats): void {
  const len = text.length;
  let nonAscii = false; // set at the first non-ASCII character, once the text is known to take this loop
  let nPunctuation = 0, nNumeric = 0, nSentences = 1;
  let nWords = 0, nStopwords = 0, nWordsWithCapital = 0, totalWordLength = 0;
  let uWords = 0, uStopwords = 0, uWordsWithCapital = 0, uTotalWordLength = 0;
  let pStart = -1; // start of the current paper word ([A-Za-z0-9_] run)
  let uStart = -1; // start of the current pith word ([A-Za-z0-9] run)
  // Where each word is in its flavour's stop-word automaton (0: no stop word starts so).
  const pNext = PAPER_AUTOMATON.next;
  const uNext = PITH_AUTOMATON.next;
  let pState = 0;
  let uState = 0;
  for (let i = 0; i <= len; i++) {
    const c = i < len ? text.charCodeAt(i) : 32;
    if (c > 127 && !nonAscii) {
      // A text with a non-ASCII letter, digit, mark, space or pith punctuation goes through the regexes (nothing is
      // written to `out` before the end of the loop); other non-ASCII characters only separate words.
      if (NOT_A_PLAIN_SEPARATOR.test(text)) {
        Object.assign(out, paperTextStats(text), unicodeTextStats(text));
        return;
      }
      nonAscii = true;
    }
    const uw = isAsciiWordChar(c);
    const pw = uw || c === 95;
    if (uw) {
      if (uStart < 0) {
        uStart = i;
        uState = c >= 65 ? 1 : 0; // a run that starts with a digit is no stop word
      }
      if (uState !== 0) uState = uNext[uState * WORD_SYMBOLS + wordSymbol(c)]; // lower-cased: A and a alike
      if (c >= 48 && c <= 57) nNumeric++;
    } else if (uStart >= 0) {
      const wLen = i - uStart;
      uWords++;
      uTotalWordLength += wLen;
      const c0 = text.charCodeAt(uStart);
      if (c0 >= 65 && c0 <= 90) uWordsWithCapital++;
      if (PITH_AUTOMATON.accept[uState] === 1) uStopwords++;
      uStart = -1;
    }
    if (pw) {
      if (pStart < 0) {
        pStart = i;
        pState = 1;
      }
      // Paper stop words are case-sensitive lower case letters: an upper-case letter or `_` ends the match.
      if (pState !== 0) pState = c >= 97 || (c >= 48 && c <= 57) ? pNext[pState * WORD_SYMBOLS + wordSymbol(c)] : 0;
    } else if (pStart >= 0) {
      const wLen = i - pStart;
      nWords++;
      totalWordLength += wLen;
      const c0 = text.charCodeAt(pStart);
      if (c0 >= 65 && c0 <= 90) nWordsWithCapital++;
      if (PAPER_AUTOMATON.accept[pState] === 1) nStopwords++;
      pStart = -1;
    }
    if (c <= 63 && i < len && isPaperPunct(c)) { // the six marks are all below 64: letters skip the six tests
      nPunctuation++;
      // (?<=[.?!;])\s+(?=\p{Lu}): a whitespace run after . ? ! ; followed by an upper-case letter.
      if (c !== 44 && c !== 58) {
        let j = i + 1;
        while (j < len && isJavaSpace(text.charCodeAt(j))) j++;
        if (j > i + 1 && j < len) {
          const d = text.charCodeAt(j);
          if (d >= 65 && d <= 90) nSentences++;
        }
      }
    }
  }
  const last = len > 0 ? text.charCodeAt(len - 1) : -1;
  const endsWithPunctuation = last >= 0 && isPaperPunct(last);
  out.nCharacters = Math.max(len, 1);
  out.nWords = nWords;
  out.nSentences = nSentences;
  out.nPunctuation = nPunctuation;
  out.nNumeric = nNumeric;
  out.nStopwords = nStopwords;
  out.nWordsWithCapital = nWordsWithCapital;
  out.totalWordLength = totalWordLength;
  out.endsWithPunctuation = endsWithPunctuation;
  out.endsWithQuestionMark = last === 63;
  out.containsCopyright = nonAscii && text.includes('\u00a9');
  out.containsEmail = text.includes('@') && EMAIL.test(text);
  out.containsUrl = text.includes('://') && URL.test(text);
  out.containsYear = nNumeric >= 4 && YEAR.test(text);
  out.uWords = uWords;
  out.uStopwords = uStopwords;
  out.uWordsWithCapital = uWordsWithCapital;
  out.uTotalWordLength = uTotalWordLength;
  out.uPunctuation = nPunctuation;
  out.uSentences = nSentences;
  out.uEndsWithPunctuation = endsWithPunctuation;
}

/** Java regex `\s` without UNICODE_CHARACTER_CLASS: [ \t\n\x0B\f\r]. */
function isJavaSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
