// training/reports/alignment.md: how well the ground truth aligned with the blocks, and which pages were excluded.
// Written by the full dataset dump (training/dump-dataset.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AlignStats } from '../dev/align.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ALIGNMENT_REPORT_PATH = join(REPO_ROOT, 'training', 'reports', 'alignment.md');

export interface PageRecord {
  id: string;
  url: string;
  pageType: string;
  split: string;
  nBlocks: number;
  nContent: number;
  coverage: number;
  stats: AlignStats | null;
  reason: string | null;
  groundTruthChars: number;
}

export interface ReportContext {
  minCoverage: number;
  set: string;
  code: { commit: string; parseCodeDirty: boolean };
  totals: AlignStats;
  seconds: { total: number; parse: number; features: number; align: number };
}

const pct = (x: number, digits = 1): string => `${(100 * x).toFixed(digits)}%`;
const quantile = (sorted: number[], q: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export function writeAlignmentReport(records: PageRecord[], ctx: ReportContext, path = ALIGNMENT_REPORT_PATH): string {
  const aligned = records.filter((r) => r.stats !== null && r.groundTruthChars > 0);
  const covs = aligned.map((r) => r.coverage).sort((a, b) => a - b);
  const lines: string[] = [];
  const date = new Date().toISOString().slice(0, 10);
  lines.push('# Alignment report', '');
  lines.push(
    `Generated ${date} by \`npm run dump -- --set ${ctx.set}\` (training/dump-dataset.ts, dev/align.ts). ` +
      'Block labels come from aligning `ground_truth.main_content` with the block texts of `parsePage` ' +
      '(docs/design.md, Labels; details at the top of dev/align.ts). The labels do not depend on ' +
      `the feature set. Code: commit ${ctx.code.commit.slice(0, 10)}` +
      (ctx.code.parseCodeDirty ? ' with uncommitted changes in src/core.' : '.'),
    '',
  );
  lines.push(
    '**coverage** = share of the non-whitespace ground-truth characters that were aligned to block text. ' +
      `Pages below **${ctx.minCoverage}** are split \`excluded\` in the dump (not used for training or model ` +
      'selection); pages with an empty ground truth are excluded by training/splits.json.',
    '',
  );

  const n = records.length;
  const count = (s: string): number => records.filter((r) => r.split === s).length;
  let blocks = 0;
  let content = 0;
  for (const r of records) {
    blocks += r.nBlocks;
    content += r.nContent;
  }
  lines.push('## Summary', '');
  lines.push('| | |', '|---|---|');
  lines.push(`| pages | ${n} |`);
  lines.push(`| train / val / excluded | ${count('train')} / ${count('val')} / ${count('excluded')} |`);
  lines.push(`| pages aligned (non-empty ground truth, parsed) | ${aligned.length} |`);
  lines.push(`| coverage median / p10 / p25 / mean | ${quantile(covs, 0.5).toFixed(3)} / ${quantile(covs, 0.1).toFixed(3)} / ${quantile(covs, 0.25).toFixed(3)} / ${(covs.reduce((a, b) => a + b, 0) / Math.max(covs.length, 1)).toFixed(3)} |`);
  lines.push(`| blocks / content blocks | ${blocks} / ${content} (${pct(content / Math.max(blocks, 1))}) |`);
  const t = ctx.totals;
  lines.push(`| aligned ground-truth characters: anchors / reordered anchors / DP | ${pct(t.anchorChars / Math.max(t.cleanChars, 1))} / ${pct(t.reorderedChars / Math.max(t.cleanChars, 1), 2)} / ${pct(t.dpChars / Math.max(t.cleanChars, 1))} |`);
  lines.push(`| DP gaps / left unaligned by the cell limits | ${t.gaps} / ${t.gapsSkipped} |`);
  lines.push(`| DP cells | ${(t.dpCells / 1e6).toFixed(0)} M |`);
  lines.push(`| time (whole dump / parse / features / align) | ${ctx.seconds.total.toFixed(0)} s / ${ctx.seconds.parse.toFixed(0)} s / ${ctx.seconds.features.toFixed(0)} s / ${ctx.seconds.align.toFixed(0)} s |`);
  lines.push('');

  const zeroBlocks = records.filter((r) => r.nBlocks === 0 && r.groundTruthChars > 0);
  const zeroByType = new Map<string, number>();
  for (const r of zeroBlocks) zeroByType.set(r.pageType, (zeroByType.get(r.pageType) ?? 0) + 1);
  const low = covs.filter((c) => c < ctx.minCoverage).length;
  const mid = covs.filter((c) => c >= 0.2 && c < 0.8).length;
  lines.push('## Threshold', '');
  lines.push(
    `The distribution is bimodal: ${pct(covs.filter((c) => c >= 0.9).length / Math.max(covs.length, 1))} of the aligned pages ` +
      `reach 0.9 or more, ${covs.filter((c) => c < 0.2).length} pages are below 0.2 (the blocks hold almost none of the ground ` +
      `truth), and only ${mid} pages lie between 0.2 and 0.8. Below ${ctx.minCoverage} (${low} pages) the content ` +
      'the annotators saw is mostly not in the parsed blocks (rendered by script, kept in <noscript>, a consent or ' +
      'bot wall, or a ground truth written from another version of the page), so the page would teach "content is ' +
      'boilerplate". Between 0.5 and 0.8 the pages still align their main text and miss parts the ground truth ' +
      'adds (repeated lines, text from images or widgets); their labels are usable. ' +
      `Pages with a non-empty ground truth but no blocks at all: ${zeroBlocks.length}` +
      (zeroBlocks.length ? ` (${[...zeroByType].map(([t, k]) => `${t} ${k}`).join(', ')})` : '') +
      '.',
    '',
  );

  lines.push('## Coverage histogram', '');
  lines.push('| coverage | pages | |', '|---|---:|---|');
  const bins = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0000001];
  for (let b = 0; b + 1 < bins.length; b++) {
    const lo = bins[b];
    const hi = bins[b + 1];
    const k = covs.filter((c) => c >= lo && c < hi).length;
    const label = hi > 1 ? `[${lo}, 1]` : `[${lo}, ${hi})`;
    lines.push(`| ${label} | ${k} | ${'#'.repeat(Math.ceil((60 * k) / Math.max(covs.length, 1)))} |`);
  }
  lines.push('');

  lines.push('## By page type', '');
  lines.push('| page type | pages | excluded | coverage median | content blocks |', '|---|---:|---:|---:|---:|');
  const types = [...new Set(records.map((r) => r.pageType))].sort();
  for (const type of types) {
    const rs = records.filter((r) => r.pageType === type);
    const c = rs.filter((r) => r.stats && r.groundTruthChars > 0).map((r) => r.coverage).sort((a, b) => a - b);
    let b = 0;
    let k = 0;
    for (const r of rs) {
      b += r.nBlocks;
      k += r.nContent;
    }
    lines.push(`| ${type} | ${rs.length} | ${rs.filter((r) => r.split === 'excluded').length} | ${quantile(c, 0.5).toFixed(3)} | ${pct(k / Math.max(b, 1))} |`);
  }
  lines.push('');

  const excluded = records.filter((r) => r.split === 'excluded').sort((a, b) => a.coverage - b.coverage || (a.id < b.id ? -1 : 1));
  lines.push(`## Excluded pages (${excluded.length})`, '');
  lines.push('| id | type | blocks | coverage | reason | url |', '|---|---|---:|---:|---|---|');
  for (const r of excluded) {
    lines.push(`| ${r.id} | ${r.pageType} | ${r.nBlocks} | ${r.coverage.toFixed(3)} | ${r.reason ?? ''} | ${r.url.slice(0, 90)} |`);
  }
  lines.push('');

  const worstKept = aligned.filter((r) => r.split !== 'excluded').sort((a, b) => a.coverage - b.coverage).slice(0, 20);
  lines.push('## Lowest coverage among kept pages', '');
  lines.push('| id | type | split | blocks | content blocks | coverage | url |', '|---|---|---|---:|---:|---:|---|');
  for (const r of worstKept) {
    lines.push(`| ${r.id} | ${r.pageType} | ${r.split} | ${r.nBlocks} | ${r.nContent} | ${r.coverage.toFixed(3)} | ${r.url.slice(0, 90)} |`);
  }
  lines.push('');

  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join('\n'));
  return path;
}
