// Block labels by aligning the ground-truth main content with the page's block texts.
//
// The reference's label alignment (docs/design.md, Labels), adapted from "clean text vs raw HTML" to "clean text vs block texts":
//
// * Both sides are compared without whitespace. Every whitespace character (and zero-width characters, soft
//   hyphens, BOM) is dropped, so "para one\n\npara two" in the ground truth and the blocks "para one", "para two"
//   meet as "paraoneparatwo". Block boundaries are whitespace in the ground truth, so the block texts are simply
//   concatenated, with no separator: an anchor may span two blocks, which is what the ground truth says.
//   A block's share of aligned characters is counted over its non-whitespace characters.
// * Characters are folded for matching (lower case when it stays one UTF-16 unit, typographic quotes and dashes
//   to ASCII), both sides are NFC-normalised first. DP match scores still see the original case (the reference's scores: +3 for an
//   exact letter/digit, +1 for a case-insensitive or punctuation match).
// * Anchors: 10-character windows that occur exactly once in the clean text and once in the source (or up to
//   `maxSourceRepeats` times: some pages carry two copies of the article, or repeat a phrase in header and footer;
//   each occurrence becomes a candidate), extended right and left while the folded characters agree. The anchors that keep both orders are chosen as
//   the heaviest chain (weighted by length), not by the greedy pass with its two-segment pop (the reference's, which can
//   throw and drops good anchors after one spurious one). Anchors off the chain of at least 2k characters whose
//   clean and source ranges are both still free are accepted too: this is text the page shows in another order
//   than the ground truth (e.g. a byline above the title).
// * Gaps between chain anchors are aligned by the reference's dynamic programme over the characters not yet claimed.
//   Fixed quirks: row/column initialisation uses the move costs (S[0][j] = -6j, S[i][0] = -2) instead of -j and 0.
//   A gap larger than `maxGapCells` cells, or past the page budget `maxPageCells`, is left unaligned and counted.
//   DP runs shorter than `minRun` characters are dropped: a DP over a long gap otherwise scatters the clean
//   characters one by one over unrelated boilerplate (a +3 match minus a -2 gap open still pays).
// * Label 1 iff the aligned non-whitespace characters of a block exceed ⌊2n/3⌋ (the reference's integer threshold),
//   n = its non-whitespace characters; blocks with n = 0 are 0.
// * coverage = aligned clean characters / non-whitespace clean characters (0 for an empty ground truth).

export interface AlignOptions {
  /** Anchor window length in characters. */
  k: number;
  /** A window may occur up to this many times in the source and still seed candidate anchors. */
  maxSourceRepeats: number;
  /** Shortest DP match run (consecutive diagonal matches) that counts as aligned. */
  minRun: number;
  /** Largest DP matrix of one gap, in cells; larger gaps stay unaligned. */
  maxGapCells: number;
  /** DP budget of one page, in cells; gaps past it stay unaligned. */
  maxPageCells: number;
}

export const DEFAULT_ALIGN_OPTIONS: Readonly<AlignOptions> = Object.freeze({
  k: 10,
  maxSourceRepeats: 3,
  minRun: 4,
  maxGapCells: 4_000_000,
  maxPageCells: 40_000_000,
});

export interface AlignStats {
  /** Non-whitespace characters of the clean text and of the blocks. */
  cleanChars: number;
  sourceChars: number;
  /** Clean characters aligned by anchors (in order / out of order) and by the DP. */
  anchorChars: number;
  reorderedChars: number;
  dpChars: number;
  /** Gaps with characters on both sides; those left unaligned because of the cell limits. */
  gaps: number;
  gapsSkipped: number;
  dpCells: number;
}

export interface AlignResult {
  /** [nBlocks] 1 = content, 0 = boilerplate. */
  labels: Uint8Array;
  /** Share of non-whitespace ground-truth characters that were aligned, in [0, 1]. */
  coverage: number;
  stats: AlignStats;
}

// ---- character tables (built once) ----

/** 1 for characters that are dropped before alignment (whitespace, zero-width, soft hyphen, BOM). */
const DROP = new Uint8Array(65536);
/** Folded code unit of each code unit. */
const FOLD = new Uint16Array(65536);
/** 1 for letters and digits (the +3 match class). */
const ALNUM = new Uint8Array(65536);
{
  const ws = /\s/u;
  const alnum = /[\p{L}\p{N}]/u;
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    if (ws.test(ch)) DROP[c] = 1;
    if (c >= 0xd800 && c <= 0xdfff) {
      FOLD[c] = c; // lone surrogate halves compare exactly
      continue;
    }
    if (alnum.test(ch)) ALNUM[c] = 1;
    const lower = ch.toLowerCase();
    FOLD[c] = lower.length === 1 ? lower.charCodeAt(0) : c;
  }
  for (const c of [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad]) DROP[c] = 1;
  for (const c of [0x2018, 0x2019, 0x201a, 0x201b, 0x2032, 0x00b4, 0x0060]) FOLD[c] = 0x27; // '
  for (const c of [0x201c, 0x201d, 0x201e, 0x201f, 0x2033, 0x00ab, 0x00bb]) FOLD[c] = 0x22; // "
  for (const c of [0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212]) FOLD[c] = 0x2d; // -
}

/** Append the kept characters of `text` to `orig`/`fold` from `at`; returns the new end. */
function appendKept(text: string, orig: Uint16Array, fold: Uint16Array, at: number): number {
  const s = text.normalize('NFC');
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (DROP[c]) continue;
    orig[at] = c;
    fold[at] = FOLD[c];
    at++;
  }
  return at;
}

// ---- anchors ----

const P1 = 67108859; // primes below 2^26: a window key h1 * 2^26 + h2 stays an exact double
const P2 = 67108837;
const B1 = 65599;
const B2 = 40503;

/** Window hash keys: keys[i] = hash of fold[i, i+k). Length max(0, n-k+1). */
function windowKeys(fold: Uint16Array, n: number, k: number): Float64Array {
  const count = Math.max(0, n - k + 1);
  const keys = new Float64Array(count);
  if (count === 0) return keys;
  let pow1 = 1;
  let pow2 = 1;
  for (let i = 0; i < k; i++) {
    pow1 = (pow1 * B1) % P1;
    pow2 = (pow2 * B2) % P2;
  }
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < n; i++) {
    h1 = (h1 * B1 + fold[i]) % P1;
    h2 = (h2 * B2 + fold[i]) % P2;
    if (i >= k) {
      // remove fold[i-k] * B^k
      h1 = (h1 - ((fold[i - k] * pow1) % P1) + P1) % P1;
      h2 = (h2 - ((fold[i - k] * pow2) % P2) + P2) % P2;
    }
    if (i >= k - 1) keys[i - k + 1] = h1 * 67108864 + h2;
  }
  return keys;
}

/** key -> start position if the window occurs once, -1 if more often. */
function uniqueWindows(keys: Float64Array): Map<number, number> {
  const map = new Map<number, number>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    map.set(key, map.has(key) ? -1 : i);
  }
  return map;
}

/** key -> start positions (at most maxOcc; a key seen more often maps to an empty list). */
function windowPositions(keys: Float64Array, maxOcc: number): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const list = map.get(keys[i]);
    if (!list) map.set(keys[i], [i]);
    else if (list.length > 0) {
      if (list.length < maxOcc) list.push(i);
      else list.length = 0;
    }
  }
  return map;
}

interface Segment {
  cs: number; // clean [cs, ce)
  ce: number;
  ss: number; // source [ss, ss + (ce - cs))
}

/**
 * Maximal exact (folded) segments grown from windows that occur once in the clean text and once in the source,
 * or up to `maxOcc` times in the source (pages that carry two copies of the article: every copy becomes a
 * candidate and the chain picks one). In clean order.
 */
function findAnchors(
  srcFold: Uint16Array,
  n: number,
  cleanFold: Uint16Array,
  m: number,
  k: number,
  maxOcc: number,
): Segment[] {
  const segments: Segment[] = [];
  if (n < k || m < k) return segments;
  const srcPositions = windowPositions(windowKeys(srcFold, n, k), maxOcc);
  const cleanKeys = windowKeys(cleanFold, m, k);
  const cleanUnique = uniqueWindows(cleanKeys);
  let lastCleanEnd = 0;
  let i = 0;
  while (i + k <= m) {
    const key = cleanKeys[i];
    const positions = srcPositions.get(key);
    if (!positions || positions.length === 0 || cleanUnique.get(key) !== i) {
      i++;
      continue;
    }
    let minRight = Infinity;
    for (const sp of positions) {
      let ok = true;
      for (let t = 0; t < k; t++) {
        if (srcFold[sp + t] !== cleanFold[i + t]) {
          ok = false; // hash collision
          break;
        }
      }
      if (!ok) continue;
      let right = k;
      while (i + right < m && sp + right < n && cleanFold[i + right] === srcFold[sp + right]) right++;
      let left = 0;
      while (i - left > lastCleanEnd && sp - left > 0 && cleanFold[i - left - 1] === srcFold[sp - left - 1]) left++;
      segments.push({ cs: i - left, ce: i + right, ss: sp - left });
      minRight = Math.min(minRight, right);
    }
    if (minRight === Infinity) {
      i++;
      continue;
    }
    lastCleanEnd = i + minRight;
    i += minRight;
  }
  return segments;
}

/**
 * Heaviest chain of segments increasing in both clean and source (weight = length). Returns indices in order.
 * Sweep in clean-start order; a segment becomes a possible predecessor once the sweep passes its clean end;
 * a Fenwick tree over source end positions answers "best chain ending at or before this source position".
 */
function heaviestChain(segments: Segment[], n: number): number[] {
  const S = segments.length;
  if (S === 0) return [];
  const byStart = Array.from({ length: S }, (_, j) => j).sort(
    (a, b) => segments[a].cs - segments[b].cs || segments[a].ss - segments[b].ss,
  );
  const byEnd = Array.from({ length: S }, (_, j) => j).sort((a, b) => segments[a].ce - segments[b].ce);
  const treeW = new Float64Array(n + 2);
  const treeI = new Int32Array(n + 2).fill(-1);
  const best = new Float64Array(S);
  const prev = new Int32Array(S).fill(-1);
  const query = (pos: number): number => {
    let w = 0;
    let idx = -1;
    for (let p = pos + 1; p > 0; p -= p & -p) {
      if (treeW[p] > w) {
        w = treeW[p];
        idx = treeI[p];
      }
    }
    return idx;
  };
  const update = (pos: number, w: number, idx: number): void => {
    for (let p = pos + 1; p <= n + 1; p += p & -p) {
      if (w > treeW[p]) {
        treeW[p] = w;
        treeI[p] = idx;
      }
    }
  };
  let top = -1;
  let e = 0;
  for (const j of byStart) {
    const seg = segments[j];
    while (e < S && segments[byEnd[e]].ce <= seg.cs) {
      const q = byEnd[e++];
      update(segments[q].ss + segments[q].ce - segments[q].cs, best[q], q);
    }
    const p = query(seg.ss);
    best[j] = seg.ce - seg.cs + (p >= 0 ? best[p] : 0);
    prev[j] = p;
    if (top < 0 || best[j] > best[top]) top = j;
  }
  const chain: number[] = [];
  for (let j = top; j >= 0; j = prev[j]) chain.push(j);
  return chain.reverse();
}

// ---- DP over one gap ----

const SKIP_SOURCE = 1;
const SKIP_CLEAN = 2;
const MATCH = 3;

/**
 * Align source positions `sIdx` with clean positions `cIdx` (both increasing, already compacted to unclaimed
 * characters). Marks matched characters in runs of at least `minRun` diagonal steps. Returns matched clean chars.
 */
function dpAlign(
  srcOrig: Uint16Array,
  srcFold: Uint16Array,
  sIdx: Int32Array,
  cleanOrig: Uint16Array,
  cleanFold: Uint16Array,
  cIdx: Int32Array,
  minRun: number,
  srcMatched: Uint8Array,
  cleanMatched: Uint8Array,
): number {
  const n = sIdx.length;
  const m = cIdx.length;
  const W = m + 1;
  const decision = new Uint8Array((n + 1) * W); // [n+1, m+1] row-major
  let prevS = new Float64Array(W);
  let curS = new Float64Array(W);
  let prevGap = new Uint8Array(W);
  let curGap = new Uint8Array(W);
  // Row 0: only clean characters consumed.
  prevGap[0] = 1;
  for (let j = 1; j <= m; j++) {
    prevS[j] = -6 * j;
    prevGap[j] = 1;
    decision[j] = SKIP_CLEAN;
  }
  for (let i = 1; i <= n; i++) {
    const sc = srcFold[sIdx[i - 1]];
    const so = srcOrig[sIdx[i - 1]];
    const exactScore = ALNUM[so] ? 3 : 1;
    const row = i * W;
    curS[0] = -2;
    curGap[0] = 1;
    decision[row] = SKIP_SOURCE;
    for (let j = 1; j <= m; j++) {
      const skipClean = curS[j - 1] - 6;
      const skipSource = prevS[j] + (prevGap[j] ? 0 : -2);
      let score: number;
      let d: number;
      let gap: number;
      if (skipClean > skipSource) {
        score = skipClean;
        d = SKIP_CLEAN;
        gap = curGap[j - 1];
      } else {
        score = skipSource;
        d = SKIP_SOURCE;
        gap = 1;
      }
      const cj = cIdx[j - 1];
      if (cleanFold[cj] === sc) {
        const match = prevS[j - 1] + (cleanOrig[cj] === so ? exactScore : 1);
        if (match > score) {
          score = match;
          d = MATCH;
          gap = 0;
        }
      }
      curS[j] = score;
      curGap[j] = gap;
      decision[row + j] = d;
    }
    const tS = prevS;
    prevS = curS;
    curS = tS;
    const tG = prevGap;
    prevGap = curGap;
    curGap = tG;
  }
  // Traceback; collect diagonal runs and keep those of at least minRun characters.
  let i = n;
  let j = m;
  let runLen = 0;
  let matched = 0;
  const flush = (): void => {
    if (runLen >= minRun) {
      // the run covers (i, j) .. (i + runLen - 1, j + runLen - 1) in 0-based compacted indices
      for (let t = 0; t < runLen; t++) {
        srcMatched[sIdx[i + t]] = 1;
        cleanMatched[cIdx[j + t]] = 1;
      }
      matched += runLen;
    }
    runLen = 0;
  };
  while (i > 0 || j > 0) {
    const d = decision[i * W + j];
    if (d === MATCH) {
      i--;
      j--;
      runLen++;
    } else {
      flush();
      if (d === SKIP_SOURCE) i--;
      else j--;
    }
  }
  flush();
  return matched;
}

// ---- main entry ----

/**
 * Label blocks by aligning `mainContent` (the ground truth) with the blocks' texts.
 * Deterministic, never throws for any input strings.
 */
export function alignBlocks(
  blockTexts: string[],
  mainContent: string,
  options: Partial<AlignOptions> = {},
): AlignResult {
  const opt: AlignOptions = { ...DEFAULT_ALIGN_OPTIONS, ...options };
  const nBlocks = blockTexts.length;
  const labels = new Uint8Array(nBlocks);

  // Source: kept characters of all blocks, block b at [blockStart[b], blockStart[b + 1]).
  let total = 0;
  for (const t of blockTexts) total += t.length * 2; // NFC can lengthen; generous bound
  const srcOrig = new Uint16Array(total);
  const srcFold = new Uint16Array(total);
  const blockStart = new Int32Array(nBlocks + 1);
  let n = 0;
  for (let b = 0; b < nBlocks; b++) {
    blockStart[b] = n;
    n = appendKept(blockTexts[b], srcOrig, srcFold, n);
  }
  blockStart[nBlocks] = n;

  const cleanOrig = new Uint16Array(mainContent.length * 2);
  const cleanFold = new Uint16Array(mainContent.length * 2);
  const m = appendKept(mainContent, cleanOrig, cleanFold, 0);

  const stats: AlignStats = {
    cleanChars: m,
    sourceChars: n,
    anchorChars: 0,
    reorderedChars: 0,
    dpChars: 0,
    gaps: 0,
    gapsSkipped: 0,
    dpCells: 0,
  };
  if (m === 0 || n === 0) return { labels, coverage: 0, stats };

  const srcMatched = new Uint8Array(n);
  const cleanMatched = new Uint8Array(m);

  // 1. Anchors and the chain that keeps both orders.
  const segments = findAnchors(srcFold, n, cleanFold, m, opt.k, opt.maxSourceRepeats);
  const chainIdx = heaviestChain(segments, n);
  const onChain = new Uint8Array(segments.length);
  for (const j of chainIdx) {
    onChain[j] = 1;
    const s = segments[j];
    for (let t = 0; t < s.ce - s.cs; t++) {
      srcMatched[s.ss + t] = 1;
      cleanMatched[s.cs + t] = 1;
    }
    stats.anchorChars += s.ce - s.cs;
  }

  // 2. Reordered text: long off-chain anchors whose both ranges are still free.
  const offChain = segments
    .map((s, j) => ({ s, j }))
    .filter(({ s, j }) => !onChain[j] && s.ce - s.cs >= 2 * opt.k)
    .sort((a, b) => b.s.ce - b.s.cs - (a.s.ce - a.s.cs) || a.j - b.j);
  for (const { s } of offChain) {
    const len = s.ce - s.cs;
    let free = true;
    for (let t = 0; t < len && free; t++) if (srcMatched[s.ss + t] || cleanMatched[s.cs + t]) free = false;
    if (!free) continue;
    for (let t = 0; t < len; t++) {
      srcMatched[s.ss + t] = 1;
      cleanMatched[s.cs + t] = 1;
    }
    stats.reorderedChars += len;
  }

  // 3. DP over the gaps between chain anchors (head and tail included), on unclaimed characters only.
  const bounds: [number, number, number, number][] = []; // [srcFrom, srcTo, cleanFrom, cleanTo)
  let sPrev = 0;
  let cPrev = 0;
  for (const j of chainIdx) {
    const s = segments[j];
    bounds.push([sPrev, s.ss, cPrev, s.cs]);
    sPrev = s.ss + s.ce - s.cs;
    cPrev = s.ce;
  }
  bounds.push([sPrev, n, cPrev, m]);
  let budget = opt.maxPageCells;
  for (const [s0, s1, c0, c1] of bounds) {
    const sIdx = freePositions(srcMatched, s0, s1);
    const cIdx = freePositions(cleanMatched, c0, c1);
    if (sIdx.length === 0 || cIdx.length === 0) continue;
    stats.gaps++;
    const cells = (sIdx.length + 1) * (cIdx.length + 1);
    if (cells > opt.maxGapCells || cells > budget) {
      stats.gapsSkipped++;
      continue;
    }
    budget -= cells;
    stats.dpCells += cells;
    stats.dpChars += dpAlign(srcOrig, srcFold, sIdx, cleanOrig, cleanFold, cIdx, opt.minRun, srcMatched, cleanMatched);
  }

  // 4. Labels and coverage.
  for (let b = 0; b < nBlocks; b++) {
    const s = blockStart[b];
    const e = blockStart[b + 1];
    const nChars = e - s;
    if (nChars === 0) continue;
    let found = 0;
    for (let p = s; p < e; p++) found += srcMatched[p];
    if (found > Math.floor((2 * nChars) / 3)) labels[b] = 1;
  }
  let matchedClean = 0;
  for (let p = 0; p < m; p++) matchedClean += cleanMatched[p];
  return { labels, coverage: matchedClean / m, stats };
}

function freePositions(matched: Uint8Array, from: number, to: number): Int32Array {
  let count = 0;
  for (let p = from; p < to; p++) if (!matched[p]) count++;
  const out = new Int32Array(count);
  let k = 0;
  for (let p = from; p < to; p++) if (!matched[p]) out[k++] = p;
  return out;
}
