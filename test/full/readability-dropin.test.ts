// Needs the Readability test pages (../shared/data/readability-test-pages or PITH_READABILITY_DIR).
// The Readability drop-in against Readability.js itself on the Readability test pages: every field present and of
// the same type (nullable fields: string or null on both sides), from a linkedom Document and from the HTML string.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Readability as MozReadability, isProbablyReaderable as mozReaderable } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { Readability, isProbablyReaderable } from '../../src/hosts/node/lib.js';

const FIELDS = ['title', 'content', 'textContent', 'length', 'excerpt', 'byline', 'dir', 'siteName', 'lang', 'publishedTime'] as const;
/** Readability.js's declared type of each field. */
const TYPES: Record<(typeof FIELDS)[number], readonly string[]> = {
  title: ['string'],
  content: ['string'],
  textContent: ['string'],
  length: ['number'],
  excerpt: ['string', 'null'],
  byline: ['string', 'null'],
  dir: ['string', 'null'],
  siteName: ['string', 'null'],
  lang: ['string', 'null'],
  publishedTime: ['string', 'null'],
};

const typeOf = (v: unknown): string => (v === null || v === undefined ? 'null' : typeof v);

/** $PITH_READABILITY_DIR, else ../shared/data/readability-test-pages beside the repository (as eval/ finds them). */
function readabilityDir(): string {
  const dir = process.env.PITH_READABILITY_DIR ?? resolve(new URL('../../', import.meta.url).pathname, '..', 'shared', 'data', 'readability-test-pages');
  if (!existsSync(join(dir, 'README.md'))) throw new Error(`Readability test pages not found at ${dir}: set PITH_READABILITY_DIR or see eval/readability-pages.ts`);
  return dir;
}

function pages(): Array<{ name: string; html: string }> {
  const dir = readabilityDir();
  const slugs = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'source.html.gz'))).map((d) => d.name).sort();
  return slugs.map((name) => ({ name, html: gunzipSync(readFileSync(join(dir, name, 'source.html.gz'))).toString('utf8') }));
}

describe('Readability drop-in', () => {
  it('gives Readability.js field set and types on every Readability test page', async () => {
    const all = pages();
    expect(all.length).toBeGreaterThanOrEqual(130);
    const complaints: string[] = [];
    let compared = 0;
    for (const { name, html } of all) {
      const url = `https://readability.test/${name}/`;
      const moz = new MozReadability(parseHTML(html).document as unknown as Document).parse();
      const ours = await new Readability(parseHTML(html).document, { url }).parse();
      if (moz === null || ours === null) {
        console.log(`${name}: Readability.js ${moz === null ? 'null' : `${(moz.textContent ?? '').length} chars`}, pith ${ours === null ? 'null' : `${ours.textContent.length} chars`}`);
        if (ours === null && moz !== null && (moz.textContent ?? '').trim().length > 200) complaints.push(`${name}: pith found nothing, Readability ${(moz.textContent ?? '').length} chars`);
        continue;
      }
      compared++;
      expect(Object.keys(ours).sort()).toEqual([...FIELDS].sort());
      for (const field of FIELDS) {
        const theirs = typeOf((moz as Record<string, unknown>)[field]);
        const mine = typeOf(ours[field]);
        if (!TYPES[field].includes(theirs)) complaints.push(`${name}: Readability.js gave ${field} as ${theirs}`);
        if (!TYPES[field].includes(mine)) complaints.push(`${name}: pith gave ${field} as ${mine}`);
        if (TYPES[field].length === 1 && mine !== theirs) complaints.push(`${name}: ${field} ${mine} vs ${theirs}`);
      }
      expect(ours.length).toBe(ours.textContent.length);
      expect(ours.content.startsWith('<div id="readability-page-1" class="page"')).toBe(true);
    }
    console.log(`Readability drop-in: ${compared} of ${all.length} pages compared field by field`);
    expect(complaints).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(120);
  }, 600_000);

  it('isProbablyReaderable agrees with Readability.js on most test pages', () => {
    const all = pages();
    let agree = 0;
    for (const { html } of all) {
      const doc = parseHTML(html).document as unknown as Document;
      if (isProbablyReaderable(html) === mozReaderable(doc)) agree++;
    }
    console.log(`isProbablyReaderable: pith agrees with Readability.js on ${agree} of ${all.length} pages`);
    expect(agree / all.length).toBeGreaterThan(0.9);
    expect(isProbablyReaderable('<p>short</p>')).toBe(false);
  });
});
