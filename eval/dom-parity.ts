// pith's own DOM against linkedom's on every page of the WCXB dev corpus and the Readability.js test pages: the
// trees must be the same through the interfaces the pipeline reads (dev/dom-parity.ts). Exit 1 on any difference.
//   npx tsx eval/dom-parity.ts
import { firstDomDifference } from '../dev/dom-parity.js';
import { iterateCorpus } from '../dev/corpus.js';

let pages = 0;
let differ = 0;
for (const page of iterateCorpus()) {
  pages++;
  const d = firstDomDifference(page.html);
  if (d !== null) {
    differ++;
    if (differ <= 10) console.log(`${page.id}: line ${d.line}\n  pith:     ${d.pith}\n  linkedom: ${d.linkedom}`);
  }
}
console.log(`${pages} pages, ${differ} with a different tree`);
process.exit(differ === 0 ? 0 : 1);
