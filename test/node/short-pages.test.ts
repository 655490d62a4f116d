// Pages with hardly any text, through the real pipeline and the shipped model: what a reader sees on the page is
// the answer, and a page with nothing to read says so (empty text, decoder 'none').
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/hosts/node/lib.js';

const doc = (body: string) => `<!DOCTYPE html><html><head><title>Note</title></head><body>${body}</body></html>`;

describe('short pages', () => {
  it('a page whose only text is one short paragraph returns that paragraph', async () => {
    const note = 'The meeting moved to Thursday at ten in room four.'; // 10 words
    const r = await extract(doc(`<p>${note}</p>`));
    expect(r.text).toBe(note);
    expect(r.decoder).not.toBe('none');
    const withLinks = await extract(doc(`<nav><a href="/">Home</a> <a href="/about">About</a></nav><p>${note}</p>`));
    expect(withLinks.text).toBe(note);
  });

  it('an empty page and a page of links only have no main content, and the decoder says none', async () => {
    for (const html of [doc(''), doc('<nav><a href="/">Home</a> <a href="/a">About us</a> <a href="/c">Contact the team</a></nav>'), '']) {
      const r = await extract(html);
      expect(r.text, html).toBe('');
      expect(r.decoder, html).toBe('none');
    }
  });
});
