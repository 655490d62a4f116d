// The Readability drop-in on small pages: a string and a Document give the same article; links resolve against url;
// no content is null (test/full/readability-dropin.test.ts compares it with Readability.js on the Readability pages).
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { Readability, isProbablyReaderable } from '../../../src/hosts/node/lib.js';

describe('Readability drop-in', () => {
  it('takes an HTML string like a Document and resolves links against url', async () => {
    const html = '<html lang="en" dir="ltr"><head><title>Night trains | Rail</title><meta name="author" content="Ada Lovelace"></head><body><nav><a href="/">Home</a></nav><article><h1>Night trains are back</h1>' +
      '<p>The night train from the capital to the coast runs again from this spring, after a break of twelve years, and tickets sold out within a day of going on sale to the public.</p>' +
      '<p>Operators say the sleeper cars were rebuilt with <a href="/cars">new compartments</a> and that more routes are planned for the coming winter season across the region.</p></article></body></html>';
    const fromString = await new Readability(html, { url: 'https://rail.example/night' }).parse();
    const fromDocument = await new Readability(parseHTML(html).document, { url: 'https://rail.example/night' }).parse();
    expect(fromString).not.toBeNull();
    expect(fromDocument).toEqual(fromString);
    expect(fromString!.content).toContain('href="https://rail.example/cars"');
    expect(fromString!.byline).toBe('Ada Lovelace');
    expect(fromString!.lang).toBe('en');
    expect(fromString!.dir).toBe('ltr');
    expect(fromString!.textContent).toContain('sleeper cars');
    expect(fromString!.textContent).not.toContain('Home');
  });

  it('answers null for a page with no content, and refuses what is not a page', async () => {
    expect(await new Readability('<html><body></body></html>').parse()).toBeNull();
    expect(() => new Readability(42 as unknown as string)).toThrow(/HTML string or a DOM Document/);
  });

  it('reads a Document by walking it: a script holding <!-- and <script> does not swallow the page; JSON-LD stays', async () => {
    const para = `<p>${'The sleeper cars were rebuilt with new compartments for the long night route to the coast. '.repeat(3)}</p>`;
    const html = `<html><head><title>T</title><script type="application/ld+json">{"@type":"NewsArticle","headline":"Night trains","author":{"@type":"Person","name":"Ada </script-like> Lovelace"}}</script></head>` +
      `<body><script>\n<!--\nx\n<script src="a.js"></script>\n-->\n</script><article><h1>Night trains</h1>${para}${para}</article></body></html>`;
    const article = await new Readability(parseHTML(html).document, { url: 'https://rail.example/' }).parse();
    expect(article).not.toBeNull();
    expect(article!.textContent).toContain('sleeper cars were rebuilt');
    expect(article!.byline).toBe('Ada </script-like> Lovelace');
  });

  it('isProbablyReaderable: long paragraphs yes, a short one or a hidden article no', () => {
    const para = `<p>${'A sentence of an article that goes on for a while. '.repeat(12)}</p>`;
    expect(isProbablyReaderable(`<html><body>${para.repeat(3)}</body></html>`)).toBe(true);
    expect(isProbablyReaderable(parseHTML(`<html><body>${para.repeat(3)}</body></html>`).document)).toBe(true);
    expect(isProbablyReaderable('<p>short</p>')).toBe(false);
    expect(isProbablyReaderable(`<div hidden>${para.repeat(3)}</div>`)).toBe(false);
    expect(isProbablyReaderable(para.replaceAll('<p>', '<p class="sidebar">').repeat(3))).toBe(false);
  });
});
