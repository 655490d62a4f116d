// Scoring of extractions against the WCXB ground truth. Pure: no I/O, no DOM.
//
// Word-F1 follows the benchmark's evaluate.py (see ../shared/data/README.md, "The metric"):
// - tokens are `\w+` runs of the lower-cased text. Python's `re` is Unicode-aware on str: `\w` is every
//   character for which str.isalnum() is true (Unicode letters L*, numbers N*) plus "_". The JS equivalent
//   is /[\p{L}\p{N}_]+/gu. Like Python, combining marks (M*) are NOT word characters, so e.g. a Devanagari
//   vowel sign splits a word; we reproduce that rather than "fix" it, to stay comparable to published scores.
//   Lower-casing is String.prototype.toLowerCase (full Unicode default case mapping, as Python's str.lower()).
// - precision and recall come from the multiset overlap (sum over tokens of min(count_pred, count_ref));
// - empty reference: (1, 1, 1) when the prediction is empty too, else (0, 0, 0);
//   empty prediction with a non-empty reference: (0, 0, 0);
// - page scores are averaged over pages (macro), overall and per page type.
//
// Snippets (`with` must be found, `without` must not be kept) are case-insensitive substring tests on the
// raw text (String.toLowerCase on both sides, no whitespace normalisation), as in evaluate.py. One deliberate
// difference: evaluate.py scores a page with no snippets as 1.0 for both lists, which counts pages with an
// empty `without` list as "100% boilerplate kept". Here a page without snippets of a kind has no share (null)
// and is left out of that average; the averages are macro over the pages that have snippets.
//
// Block-level metrics (docs/design.md, Evaluation metrics) are pooled over all blocks of all pages (micro), positive class = content (1);
// a metric whose denominator is 0 is 0 (as the reference's PerformanceStatistics.scala).

const WORD_RE = /[\p{L}\p{N}_]+/gu;

/** `\w+` tokens of the lower-cased text (Unicode-aware, as Python's re). */
export function tokenize(text: string): string[] {
  if (!text) return [];
  return text.toLowerCase().match(WORD_RE) ?? [];
}

export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

function countTokens(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Word-level precision, recall and F1 of one page (multiset overlap of tokens). */
export function wordF1(predicted: string, reference: string): PrecisionRecallF1 {
  const pred = tokenize(predicted);
  const ref = tokenize(reference);
  if (ref.length === 0) {
    const v = pred.length === 0 ? 1 : 0;
    return { precision: v, recall: v, f1: v };
  }
  if (pred.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const refCounts = countTokens(ref);
  let overlap = 0;
  for (const [token, n] of countTokens(pred)) overlap += Math.min(n, refCounts.get(token) ?? 0);
  const precision = overlap / pred.length;
  const recall = overlap / ref.length;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** Share of snippets that occur in the text (case-insensitive substring); null when there are no snippets. */
export function snippetShare(text: string, snippets: readonly string[]): number | null {
  if (snippets.length === 0) return null;
  const haystack = text.toLowerCase();
  let found = 0;
  for (const s of snippets) if (haystack.includes(s.toLowerCase())) found++;
  return found / snippets.length;
}

export interface PageReference {
  id: string;
  pageType: string;
  mainContent: string;
  with: readonly string[];
  without: readonly string[];
}

export interface PageScore extends PrecisionRecallF1 {
  id: string;
  pageType: string;
  /** Share of `with` snippets found; null when the page has none. */
  withFound: number | null;
  /** Share of `without` snippets wrongly kept; null when the page has none. */
  withoutKept: number | null;
}

/** Score one predicted text against a page's ground truth. */
export function scorePage(predicted: string, ref: PageReference): PageScore {
  return {
    id: ref.id,
    pageType: ref.pageType,
    ...wordF1(predicted, ref.mainContent),
    withFound: snippetShare(predicted, ref.with),
    withoutKept: snippetShare(predicted, ref.without),
  };
}

/** Confusion counts of block labels, positive class = content (1). */
export interface BlockCounts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export function emptyBlockCounts(): BlockCounts {
  return { tp: 0, fp: 0, tn: 0, fn: 0 };
}

/** Count one page's predicted labels against gold labels (same length, values 0/1). Adds to `into` when given. */
export function countBlocks(
  predicted: ArrayLike<number>,
  gold: ArrayLike<number>,
  into: BlockCounts = emptyBlockCounts(),
): BlockCounts {
  if (predicted.length !== gold.length) {
    throw new Error(`block label lengths differ: ${predicted.length} predicted vs ${gold.length} gold`);
  }
  for (let i = 0; i < gold.length; i++) {
    const p = predicted[i] === 1;
    const g = gold[i] === 1;
    if (p && g) into.tp++;
    else if (p) into.fp++;
    else if (g) into.fn++;
    else into.tn++;
  }
  return into;
}

export interface BlockMetrics extends PrecisionRecallF1 {
  accuracy: number;
  /** Number of blocks counted. */
  n: number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);

/** Accuracy, precision, recall and F1 from pooled counts (0 where a denominator is 0). */
export function blockMetrics(c: BlockCounts): BlockMetrics {
  const n = c.tp + c.fp + c.tn + c.fn;
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  return {
    n,
    accuracy: ratio(c.tp + c.tn, n),
    precision,
    recall,
    f1: ratio(2 * precision * recall, precision + recall),
  };
}

export interface GroupSummary extends PrecisionRecallF1 {
  /** Number of pages. */
  n: number;
  /** Mean share of `with` snippets found over pages that have some (null when none has). */
  withFound: number | null;
  /** Mean share of `without` snippets kept over pages that have some (null when none has). */
  withoutKept: number | null;
}

export interface Summary extends GroupSummary {
  /** Macro scores per page type, keys sorted. */
  byType: Record<string, GroupSummary>;
}

function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

function summariseGroup(pages: readonly PageScore[]): GroupSummary {
  const nonNull = (vs: (number | null)[]): number[] => vs.filter((v): v is number => v !== null);
  return {
    n: pages.length,
    precision: mean(pages.map((p) => p.precision)) ?? 0,
    recall: mean(pages.map((p) => p.recall)) ?? 0,
    f1: mean(pages.map((p) => p.f1)) ?? 0,
    withFound: mean(nonNull(pages.map((p) => p.withFound))),
    withoutKept: mean(nonNull(pages.map((p) => p.withoutKept))),
  };
}

/** Macro averages over pages, overall and per page type. */
export function summarise(pages: readonly PageScore[]): Summary {
  const groups = new Map<string, PageScore[]>();
  for (const p of pages) {
    const g = groups.get(p.pageType);
    if (g) g.push(p);
    else groups.set(p.pageType, [p]);
  }
  const byType: Record<string, GroupSummary> = {};
  for (const type of [...groups.keys()].sort()) byType[type] = summariseGroup(groups.get(type) ?? []);
  return { ...summariseGroup(pages), byType };
}
