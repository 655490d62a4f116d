// The page-level second stage in extract(): on by default when the model has one, `stage: 'block'` skips it.
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/hosts/node/lib.js';

const STORY = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of the story tells what happened in the town council meeting on Monday evening, and why it matters.</p>`).join('');
const HTML =
  '<!DOCTYPE html><html><head><title>Council votes on the new bridge</title></head><body>' +
  '<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>' +
  `<main><article><h1>Council votes on the new bridge</h1>${STORY}</article></main>` +
  '<aside><h2>Most read</h2><ul>' +
  Array.from({ length: 6 }, (_, i) => `<li class="teaser"><a href="/s${i}">Another headline number ${i + 1} about local news</a></li>`).join('') +
  '</ul></aside><footer><p>© 2026 The Town Paper</p></footer></body></html>';

describe('page stage', () => {
  it('runs by default, reports its time, and keeps the story', async () => {
    const x = await extract(HTML);
    expect(x.modelVersion).toMatch(/\+page-/);
    expect(x.timings.pageMs).toBeGreaterThan(0);
    expect(x.text).toContain('Paragraph 1 of the story');
    expect(x.text).toContain('Paragraph 8 of the story');
  });

  it("is skipped with stage: 'block' (the first stage alone)", async () => {
    const x = await extract(HTML, { stage: 'block' });
    expect(x.timings.pageMs).toBe(0);
    expect(x.text).toContain('Paragraph 1 of the story');
  });

  it('gives block probabilities of the stage that decoded', async () => {
    const page = await extract(HTML);
    const block = await extract(HTML, { stage: 'block' });
    expect(page.blocks.length).toBe(block.blocks.length);
    expect(page.blocks.some((b, i) => b.probability !== block.blocks[i].probability)).toBe(true);
  });

  it('refuses an unknown stage with invalid_input', async () => {
    await expect(extract(HTML, { stage: 'both' as never })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
