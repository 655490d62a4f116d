// A long-running process (the Worker's isolate, `pith batch`, the eval) must not keep the pages it has extracted.
// Each page here is 2 MB of HTML whose class and id attributes are all distinct: anything that remembers an
// attribute as V8 hands it over (a slice of the page) keeps the whole page alive (src/parse/string-memo.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/lib.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

/** A 2 MB article page whose every class and id is new (page `k` of the run). */
function page(k: number): string {
  const parts: string[] = ['<html><head><title>Page</title></head><body><article>'];
  for (let i = 0; parts.length < 5_000; i++) {
    parts.push(`<div class="section-${k}-${i} teaser-block-wrapper" id="block-identifier-${k}-${i}"><p>`);
    parts.push(`Paragraph ${i} of page ${k} has a sentence or two of ordinary text in it. `.repeat(4));
    parts.push('</p></div>');
  }
  parts.push('</article></body></html>');
  return parts.join('');
}

describe('memory across extractions', () => {
  it('keeps none of the pages it has extracted', async () => {
    await extract(page(0)); // models, JIT and memos warmed up
    const before = heapMb();
    let html = 0;
    for (let k = 1; k <= 6; k++) {
      const h = page(k);
      html += h.length;
      await extract(h);
    }
    const grown = heapMb() - before;
    expect(html).toBeGreaterThan(6 * 1.5e6);
    expect(grown, `heap grew by ${grown.toFixed(1)} MB over ${(html / 1e6).toFixed(1)} MB of HTML`).toBeLessThan(3);
  }, 120_000);
});
