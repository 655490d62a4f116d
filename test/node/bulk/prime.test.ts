// The warm-up of `pith batch` workers (src/hosts/node/batch-prime.ts): its page extracts in every format the batch offers, and
// extracting it leaves what later pages give unchanged.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRIME_PAGE, primeExtraction } from '../../../src/hosts/node/batch-prime.js';
import { extract } from '../../../src/hosts/node/lib.js';
import { BATCH_FORMATS } from '../../../src/hosts/node/batch.js';

const PAGES = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'pages'));
const FORMATS = BATCH_FORMATS;

describe('the batch warm-up', () => {
  it('its page extracts with both models: the story kept, in every format', async () => {
    for (const featureSet of ['pith', 'paper'] as const) {
      for (const format of FORMATS) await primeExtraction(featureSet, format); // throws if the text is empty
      const result = await extract(PRIME_PAGE, { featureSet, format: 'markdown' });
      expect(result.text, featureSet).toContain('Residents gathered on Tuesday & Wednesday');
      expect(result.markdown, featureSet).toContain('Residents gathered');
      expect(result.metadata.title, featureSet).toBe('Library opens late & early');
    }
  }, 120_000);

  it('leaves the results of the pages after it as they were', async () => {
    const names = readdirSync(PAGES).filter((n) => !n.endsWith('.md'));
    expect(names.length).toBeGreaterThan(5);
    const htmlOf = (name: string): string => readFileSync(join(PAGES, name, 'source.html'), 'utf8');
    const resultsOf = async (): Promise<string[]> => {
      const out: string[] = [];
      for (const name of names) {
        const { timings: _timings, ...rest } = await extract(htmlOf(name), { fingerprint: true, format: 'html' });
        out.push(JSON.stringify(rest));
      }
      return out;
    };
    const before = await resultsOf();
    await primeExtraction(undefined, 'text');
    await primeExtraction(undefined, 'json');
    expect(await resultsOf()).toEqual(before);
  }, 180_000);
});
