// Word-F1 and block F1 of one model for several Viterbi weights (lambda), on a split of the corpus:
//
//   npx tsx eval/sweep-lambda.ts [--set pith|paper] [--split val|train] [--lambdas 0,0.1,0.25,0.5,1] [--limit N]
//
// lambda 0 is the unary argmax. The export picks lambda on block F1; this shows what each choice does to the
// benchmark's word-F1. Choosing lambda on the split you report is optimistic: prefer the training split.

import { parseArgs } from 'node:util';
import { extract } from '../src/hosts/node/lib.js';
import type { FeatureSetName } from '../src/types.js';
import { alignBlocks } from '../dev/align.js';
import { iterateCorpus } from '../dev/corpus.js';
import { readSplits } from '../dev/splits.js';
import { requireModels } from './require-models.js';
import { blockMetrics, countBlocks, emptyBlockCounts, scorePage, summarise, type PageScore } from '../dev/score.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: 'pith' },
      split: { type: 'string', default: 'val' },
      lambdas: { type: 'string', default: '0,0.1,0.25,0.5,1' },
      limit: { type: 'string' },
    },
  });
  const set = values.set as FeatureSetName;
  if (set !== 'pith' && set !== 'paper') throw new Error('--set must be pith or paper');
  if (values.split !== 'val' && values.split !== 'train') throw new Error('--split must be val or train');
  const lambdas = values.lambdas.split(',').map(Number);
  if (lambdas.some((l) => !Number.isFinite(l) || l < 0)) throw new Error('--lambdas takes non-negative numbers');
  requireModels([set], 'sweep-lambda');

  const splits = readSplits();
  const all = values.split === 'val' ? splits.val : splits.train;
  const ids = values.limit ? all.slice(0, Number(values.limit)) : all;
  const scores = lambdas.map(() => [] as PageScore[]);
  const counts = lambdas.map(() => emptyBlockCounts());
  let done = 0;
  for (const page of iterateCorpus(ids)) {
    const ref = {
      id: page.id,
      pageType: page.pageType,
      mainContent: page.groundTruth.mainContent,
      with: page.groundTruth.with,
      without: page.groundTruth.without,
    };
    let gold: Uint8Array | null = null;
    for (let i = 0; i < lambdas.length; i++) {
      const x = await extract(page.html, { url: page.url || undefined, featureSet: set, lambda: lambdas[i] });
      gold ??= alignBlocks(x.blocks.map((b) => b.text), page.groundTruth.mainContent).labels;
      scores[i].push(scorePage(x.text, ref));
      countBlocks(x.blocks.map((b) => b.label), gold, counts[i]);
    }
    if (++done % 50 === 0) process.stderr.write(`  ${done}/${ids.length}\n`);
  }
  process.stdout.write(`model set ${set}, ${values.split} split, ${ids.length} pages\n`);
  process.stdout.write('lambda  word-F1  block F1  with found  without kept  worst page type\n');
  for (let i = 0; i < lambdas.length; i++) {
    const s = summarise(scores[i]);
    const worst = Object.entries(s.byType).sort((a, b) => a[1].f1 - b[1].f1)[0];
    process.stdout.write(
      `${lambdas[i].toString().padEnd(6)}  ${s.f1.toFixed(4)}   ${blockMetrics(counts[i]).f1.toFixed(4)}    ` +
        `${((s.withFound ?? 0) * 100).toFixed(1)}%       ${((s.withoutKept ?? 0) * 100).toFixed(1)}%         ` +
        `${worst ? `${worst[0]} ${worst[1].f1.toFixed(3)}` : ''}\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`sweep-lambda: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
