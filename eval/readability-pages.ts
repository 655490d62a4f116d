// The Readability.js test pages' split (the pages and their loader: dev/readability-pages.ts).
//
//   npx tsx eval/readability-pages.ts split     writes eval/readability-split.json (committed; seeded, by site)

import { writeFileSync } from 'node:fs';
import { READABILITY_SPLIT_PATH, listReadabilitySlugs, makeReadabilitySplit } from '../dev/readability-pages.js';

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] !== 'split') {
    process.stderr.write('usage: npx tsx eval/readability-pages.ts split\n');
    process.exit(2);
  }
  const split = makeReadabilitySplit(listReadabilitySlugs());
  writeFileSync(READABILITY_SPLIT_PATH, JSON.stringify(split, null, 1) + '\n');
  process.stdout.write(`wrote ${READABILITY_SPLIT_PATH}: ${split.val.length} val, ${split.train.length} train pages\n`);
}
