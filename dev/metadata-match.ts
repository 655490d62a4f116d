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
