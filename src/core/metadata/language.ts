// The page's language: a language tag from the markup, normalised, or a light guess from the text.

import { STOPWORDS_BY_LANGUAGE } from '../parse/stopwords.js';

const LANG_TAG = /^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{2}|\d{3}))?(?:[-_].*)?$/;

/** "en_us" -> "en-US"; null for what is not a language tag. */
export function normaliseLanguage(raw: string | null): string | null {
  if (raw === null) return null;
  const first = raw.split(/[,;\s]/)[0];
  const m = LANG_TAG.exec(first);
  if (!m) return null;
  const lang = m[1].toLowerCase();
  return m[2] ? `${lang}-${m[2].toUpperCase()}` : lang;
}

const SCRIPTS: Array<[RegExp, string]> = [
  [/[\u3040-\u30ff]/g, 'ja'],
  [/[\uac00-\ud7af]/g, 'ko'],
  [/[\u4e00-\u9fff]/g, 'zh'],
  [/[\u0400-\u04ff]/g, 'ru'],
  [/[\u0600-\u06ff]/g, 'ar'],
  [/[\u0590-\u05ff]/g, 'he'],
  [/[\u0370-\u03ff]/g, 'el'],
  [/[\u0e00-\u0e7f]/g, 'th'],
  [/[\u0900-\u097f]/g, 'hi'],
];
/** Languages told apart by their stop words (stopwords.ts), in this order on a tie. */
const STOPWORD_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
const STOPWORDS: Array<[string, ReadonlySet<string>]> = STOPWORD_LANGUAGES.map((lang) => [lang, STOPWORDS_BY_LANGUAGE[lang]]);
const LATIN_WORD = /[\p{L}']+/gu;

/** A light guess from the writing system, then from stop words; null when the sample is too small to tell. */
export function detectLanguage(sample: string): string | null {
  const text = sample.slice(0, 5000);
  if (text.length < 20) return null;
  let bestScript: string | null = null;
  let bestCount = 0;
  for (const [re, lang] of SCRIPTS) {
    re.lastIndex = 0;
    const n = text.match(re)?.length ?? 0;
    if (n > bestCount) {
      bestCount = n;
      bestScript = lang;
    }
  }
  if (bestScript !== null && bestCount >= 10) {
    // kana decides Japanese even when Han characters outnumber it
    if (bestScript === 'zh' && (text.match(SCRIPTS[0][0])?.length ?? 0) >= 5) return 'ja';
    return bestScript;
  }
  const words = text.toLowerCase().match(LATIN_WORD) ?? [];
  if (words.length < 10) return null;
  let best: string | null = null;
  let bestHits = 0;
  for (const [lang, stop] of STOPWORDS) {
    let hits = 0;
    for (const w of words) if (stop.has(w)) hits++;
    if (hits > bestHits) {
      bestHits = hits;
      best = lang;
    }
  }
  return bestHits >= Math.max(3, words.length * 0.05) ? best : null;
}
