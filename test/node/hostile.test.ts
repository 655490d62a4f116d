// The hostile corpus (test/hostile/cases.ts) against the library in Node: every `html` case through extract()
// must resolve ('ok') or throw a PithError with the expected code, within its budget; right after it an ordinary
// page must still extract (the library's "/health"). `upstream` and `request` cases need the Worker: they run in
// test/workers/hostile.test.ts.

import { beforeAll, describe, expect, it } from 'vitest';
import { extract, PithError } from '../../src/hosts/node/lib.js';
import { articlePage, CASES, expectedOutcomes, type Result } from '../hostile/cases.js';

const ORDINARY = articlePage();

describe('hostile corpus against the library', () => {
  beforeAll(async () => {
    await extract(ORDINARY); // loads the model once, so the first case's time is its own
  });

  for (const c of CASES) {
    if (c.input.kind !== 'html') continue;
    const make = c.input.html;
    const expected = expectedOutcomes(c, 'library');
    it(`${c.name}: ${expected.join(' or ')} within ${c.budgetMs} ms, then an ordinary page extracts`, async () => {
      const html = make();
      const started = performance.now();
      let outcome = 'ok';
      let result: Result | undefined;
      try {
        const extraction = await extract(html, { format: 'json' });
        result = { text: extraction.text, markdown: extraction.markdown, html: extraction.html };
        if (extraction.text.trim() === '') outcome = 'no_content'; // what the hosts answer for an empty extraction
      } catch (err) {
        if (!(err instanceof PithError)) throw err; // a plain Error/RangeError is a failure of its own
        outcome = err.code;
      }
      const elapsedMs = performance.now() - started;
      expect(expected).toContain(outcome);
      expect(elapsedMs, `${c.name} took ${Math.round(elapsedMs)} ms`).toBeLessThan(c.budgetMs);
      if (outcome === 'ok' && result !== undefined && c.check !== undefined) expect(c.check(result)).toBeUndefined();
      const after = await extract(ORDINARY);
      expect(after.text).toContain('tram line to the harbour');
    });
  }
});
