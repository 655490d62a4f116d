// When an extracted metadata field counts as the ground truth's (eval/metadata-eval.ts and the fixture pages):
//   title  — equal after normalisation (lower-case, \w tokens), or token F1 >= 0.9;
//   author — one contains the other, case-insensitive, after normalisation;
//   date   — the same day (YYYY-MM-DD).
// Pure: runs in Node and in workerd.

import { normaliseDate } from '../src/core/metadata/dates.js';

const TOKEN = /[\p{L}\p{N}_]+/gu;

function tokens(s: string): string[] {
  return s.toLowerCase().match(TOKEN) ?? [];
}

export function titleMatches(predicted: string | null, truth: string): boolean {
  if (predicted === null) return false;
  const a = tokens(predicted);
  const b = tokens(truth);
  if (a.join(' ') === b.join(' ')) return true;
  if (a.length === 0 || b.length === 0) return false;
  const counts = new Map<string, number>();
  for (const t of b) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of a) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  const precision = common / a.length;
  const recall = common / b.length;
  return precision + recall > 0 && (2 * precision * recall) / (precision + recall) >= 0.9;
}

export function authorMatches(predicted: string | null, truth: string): boolean {
  if (predicted === null) return false;
  const a = tokens(predicted).join(' ');
  const b = tokens(truth).join(' ');
  return a !== '' && b !== '' && (a.includes(b) || b.includes(a));
}

export function dateMatches(predicted: string | null, truth: string): boolean {
  return predicted !== null && predicted === normaliseDate(truth);
}

/** Where a title's parts meet: " | ", " - ", " · ", " — ", " – ", " » ", "::", "_", brackets "[…]", "【…】", "（…）". */
const TITLE_PART_SEPARATOR = /\s+[|\-–—·•»]+\s+|\s*::\s*|\s*_\s*|\s*[[\]【】（）]\s*/u;

/**
 * `titleMatches`, or the truth with site, section or author parts cut off its ends matches: "Mozilla - Wikipedia"
 * is matched by "Mozilla", "Samantha and The Great Big Lie - John C. Welch - Medium" by its first part. A part cut
 * off the end has at most as many words as what is left, one cut off the start fewer, or it is the page's site
 * name; so neither a site name alone ("Wikipedia" for "Mozilla - Wikipedia") nor a part from the middle counts. For pages whose expected titles keep the site name
 * (Readability.js's own), which pith leaves out on purpose.
 */
export function titleMatchesWithoutSite(predicted: string | null, truth: string, siteName: string | null = null): boolean {
  if (titleMatches(predicted, truth)) return true;
  if (predicted === null) return false;
  const parts = truth.split(TITLE_PART_SEPARATOR).filter((p) => tokens(p).length > 0);
  if (parts.length < 2) return false;
  const site = siteName === null ? '' : tokens(siteName).join(' ');
  for (let start = 0; start < parts.length; start++) {
    for (let end = parts.length; end > start; end--) {
      if (start === 0 && end === parts.length) continue;
      const kept = parts.slice(start, end).join(' ');
      const words = tokens(kept).length;
      const isSite = (p: string) => site !== '' && tokens(p).join(' ') === site;
      const leadingOk = parts.slice(0, start).every((p) => tokens(p).length < words || isSite(p));
      const trailingOk = parts.slice(end).every((p) => tokens(p).length <= words || isSite(p));
      if (leadingOk && trailingOk && titleMatches(predicted, kept)) return true;
    }
  }
  return false;
}
