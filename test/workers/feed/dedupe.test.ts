// dedupe=1 of the feed proxy, inside workerd: near-duplicate items (same article under another link, or the same
// title and description when there is no article) are dropped, the first one kept, and counted in X-Pith-Items.

import { beforeAll, describe, expect, it } from 'vitest';
import { MIN_DEDUPE_WORDS, nearDuplicateItems, textOfHtml } from '../../../src/hosts/worker/feed/dedupe';
import { errorOf } from '../server/helpers';
import { BLOG_SENTENCE, call, feedPath, feedUrl, parseXml, textOf, uniqueId } from './helpers';

/** X-Pith-Items with the dropped count dedupe=1 adds. */
function countsOf(response: Response): { filled: number; kept: number; timedOut: number; dropped: number | null } {
  const header = response.headers.get('x-pith-items') ?? '';
  const m = /^filled=(\d+); kept=(\d+); timed-out=(\d+)(?:; dropped=(\d+))?$/.exec(header);
  if (m === null) throw new Error(`X-Pith-Items is "${header}"`);
  return { filled: Number(m[1]), kept: Number(m[2]), timedOut: Number(m[3]), dropped: m[4] === undefined ? null : Number(m[4]) };
}

const guidsOf = (xml: string): string[] => (parseXml(xml).rss.channel.item as Array<Record<string, unknown>>).map((item) => textOf(item.guid));

beforeAll(async () => {
  expect((await call('/health')).status).toBe(200);
});

describe('feed dedupe=1', () => {
  it('drops the same article under another link and a repeated teaser; keeps the first and a same-title other story', async () => {
    const id = uniqueId();
    const url = feedUrl('dedupe.rss', id);

    const plain = await call(feedPath(url));
    expect(plain.status).toBe(200);
    expect(countsOf(plain)).toEqual({ filled: 3, kept: 3, timedOut: 0, dropped: null }); // no dropped= without the option
    const plainXml = await plain.text();
    expect(guidsOf(plainXml)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `dedupe-${id}-${n}`));

    const deduped = await call(feedPath(url, '&dedupe=1'));
    expect(deduped.status).toBe(200);
    expect(deduped.headers.get('x-cache')).toBe('MISS'); // dedupe is part of the cache key
    // Item 3 repeats item 1's article (another URL, another teaser); item 5 repeats item 4's title and
    // description (no article: the link is a 404); item 6 shares only the title with 4 and stays.
    expect(countsOf(deduped)).toEqual({ filled: 2, kept: 2, timedOut: 0, dropped: 2 });
    const xml = await deduped.text();
    expect(guidsOf(xml)).toEqual([1, 2, 4, 6].map((n) => `dedupe-${id}-${n}`));
    const items = parseXml(xml).rss.channel.item as Array<Record<string, any>>;
    expect(items[0]['content:encoded'][0]).toContain(BLOG_SENTENCE); // the first copy keeps its article
    expect(items[3].description).toContain('day buses are slower');
    // Nothing else changes: the answer is the plain one without the two items and their lines.
    const withoutDropped = plainXml.replace(new RegExp(`\\n[ \\t]*<item>(?:(?!</item>)[\\s\\S])*dedupe-${id}-[35]<(?:(?!</item>)[\\s\\S])*</item>`, 'g'), '');
    expect(withoutDropped).not.toBe(plainXml);
    expect(xml).toBe(withoutDropped);

    // Cached under its own key: the second dedupe request is a HIT with the same header.
    const again = await call(feedPath(url, '&dedupe=1'));
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.headers.get('x-pith-items')).toBe(deduped.headers.get('x-pith-items'));
  });

  it('the prefix form takes dedupe=1 and pith_dedupe=1; dedupe=0 keeps every item; a bad value is a 400', async () => {
    const url = feedUrl('dedupe.rss', uniqueId());
    expect(countsOf(await call(`/feed/${url}&dedupe=1`)).dropped).toBe(2);
    expect(countsOf(await call(`/feed/${url}&pith_dedupe=1&nocache=1`)).dropped).toBe(2);
    const off = await call(feedPath(url, '&dedupe=0'));
    expect(countsOf(off)).toEqual({ filled: 3, kept: 3, timedOut: 0, dropped: null });
    const bad = await call(feedPath(url, '&dedupe=maybe'));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/dedupe=1/);
  });
});

describe('nearDuplicateItems', () => {
  const article = (extra: string): string =>
    `<h1>Averly bridge reopens</h1><p>The river town of Averly rebuilt its stone bridge this spring after the winter floods carried away two of its arches.</p><p>${extra}</p>`;

  it('compares articles when both items have one, teasers otherwise, and keeps the first', () => {
    const teaser = 'Daily notes\nWhat happened in the town council today, in short, for busy readers.';
    expect(
      nearDuplicateItems([
        { article: article('Engineers worked for eleven weeks.'), teaser },
        // Same teaser, another article: not a duplicate (articles decide).
        { article: '<p>The school choir won the regional contest with a programme of old folk songs from the valley.</p>', teaser },
        // The first article with other markup and entities: a duplicate of item 0.
        { article: article('Engineers worked for eleven weeks.').replaceAll('<p>', '<p class="x">').replace('Averly', 'Aver&#108;y'), teaser: 'other' },
        // No article: compared by teaser with the kept items, so a duplicate of item 0 (same teaser).
        { article: null, teaser },
      ]),
    ).toEqual(new Set([2, 3]));
  });

  it('never drops on texts shorter than MIN_DEDUPE_WORDS words, nor unrelated items', () => {
    const short = Array.from({ length: MIN_DEDUPE_WORDS - 1 }, (_, i) => `word${i}`).join(' ');
    expect(nearDuplicateItems([{ article: null, teaser: short }, { article: null, teaser: short }])).toEqual(new Set());
    const long = `${short} word${MIN_DEDUPE_WORDS}`;
    expect(nearDuplicateItems([{ article: null, teaser: long }, { article: null, teaser: long }])).toEqual(new Set([1]));
    expect(
      nearDuplicateItems([
        { article: article('One.'), teaser: 'a' },
        { article: '<p>Entirely different words about a harbour, its ferries, the fishermen and the weather at sea.</p>', teaser: 'a' },
      ]),
    ).toEqual(new Set());
  });

  it('textOfHtml drops tags and decodes character references', () => {
    expect(textOfHtml('<p>Fish &amp; chips&#33; caf&eacute; &#x263A;</p>')).toBe(' Fish & chips! caf  ☺ ');
  });
});
