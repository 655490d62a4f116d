import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../src/core/blocks/page.js';
import { PithError } from '../../../src/errors.js';
import { ROOT_CONTEXT } from '../../../src/core/blocks/context.js';
import { type DomElement, parseHtmlDocument } from '../../../src/core/parse/dom.js';

describe('parsePage limits and robustness', () => {
  it('throws input_too_large past maxInputChars', () => {
    const html = '<p>' + 'x'.repeat(100) + '</p>';
    expect(() => parsePage(html, { limits: { maxInputChars: 50 } })).toThrow(PithError);
    try {
      parsePage(html, { limits: { maxInputChars: 50 } });
    } catch (e) {
      expect((e as PithError).code).toBe('input_too_large');
    }
    expect(parsePage(html, { limits: { maxInputChars: 200 } }).blocks).toHaveLength(1);
  });

  it('truncates at maxBlocks and says why', () => {
    const page = parsePage('<body><p>a</p><p>b</p><p>c</p></body>', { limits: { maxBlocks: 2 } });
    expect(page.blocks.map((b) => b.text)).toEqual(['a', 'b']);
    expect(page.truncated).toBe(true);
    expect(page.truncatedReason).toMatch(/maxBlocks/);
    const full = parsePage('<body><p>a</p><p>b</p></body>', { limits: { maxBlocks: 2 } });
    expect(full.truncated).toBe(false);
  });

  it('truncates at maxDomNodes', () => {
    const page = parsePage('<body><p>a</p><p>b</p><p>c</p><p>d</p></body>', { limits: { maxDomNodes: 2 } });
    expect(page.truncated).toBe(true);
    expect(page.truncatedReason).toMatch(/maxDomNodes/);
    expect(page.blocks.length).toBeLessThan(4);
  });

  it('joins text that linkedom splits at character references', () => {
    const page = parsePage('<body><p>AT&amp;T &lt;3 caf&eacute;&nbsp; </p></body>');
    expect(page.blocks.map((b) => b.text)).toEqual(['AT&T <3 café ']);
  });

  it('falls back to <noscript> content when the page has no other text', () => {
    const page = parsePage('<html><body><div id="app"></div><noscript><p>Server text</p><p>More</p></noscript><script>x()</script></body></html>');
    expect(page.blocks.map((b) => b.text)).toEqual(['Server text', 'More']);
    expect(page.fallback).toBe('noscript');
    const normal = parsePage('<body><p>Visible</p><noscript><p>Enable JS</p></noscript></body>');
    expect(normal.blocks.map((b) => b.text)).toEqual(['Visible']);
    expect(normal.fallback).toBeUndefined();
  });

  it('falls back to <noscript> content when the rest is a loading shell (Discourse)', () => {
    const post = 'I am in need of a new laptop as my power connector is completely shot and I would like advice on which to buy. ';
    const shell = '<html><body><section id="d-splash"><p>Loading</p></section><header><a href="/">Return to the forum</a></header>';
    const page = parsePage(`${shell}<noscript data-path="/t/1"><div class="post"><p>${post.repeat(6)}</p><p>${post.repeat(3)}</p></div></noscript></body></html>`);
    expect(page.fallback).toBe('noscript');
    expect(page.blocks.some((b) => b.text.includes(post.repeat(6).trim()))).toBe(true);
    // A page with text of its own keeps it alone, however long its <noscript> is.
    const own = parsePage(`<body><p>${'Visible words of the page itself. '.repeat(8)}</p><noscript><p>${post.repeat(9)}</p></noscript></body>`);
    expect(own.fallback).toBeUndefined();
    expect(own.blocks).toHaveLength(1);
    // A thin page whose <noscript> only asks for JavaScript is not read through it.
    const ask = parsePage('<body><p>Loading</p><noscript><p>Please enable JavaScript to use this site.</p></noscript></body>');
    expect(ask.fallback).toBeUndefined();
    expect(ask.blocks.map((b) => b.text)).toEqual(['Loading']);
  });

  // V8 gives objects with other fields, or fields in another order, or frozen ones, hidden classes of their own; the
  // code that reads them is then compiled again whenever the rarer kind turns up (CHANGELOG.md).
  it('gives every page the same fields in the same order, truncated, fallback or not', () => {
    const kinds = [
      parsePage('<body><p>a</p></body>'),
      parsePage('<body><p>a</p><p>b</p><p>c</p></body>', { limits: { maxBlocks: 2 } }),
      parsePage('<html><body><div id="app"></div><noscript><p>Server text</p></noscript></body></html>'),
    ];
    expect(kinds[1].truncatedReason).toBeDefined();
    expect(kinds[2].fallback).toBe('noscript');
    for (const page of kinds) expect(Object.keys(page)).toEqual(Object.keys(kinds[0]));
  });

  it('gives the root ancestor context the shape of every other context', () => {
    const page = parsePage('<body><main><a href="/x">link text</a></main></body>');
    const derived = page.leafInfo[0].context;
    expect(derived).not.toBe(ROOT_CONTEXT);
    expect(Object.keys(ROOT_CONTEXT)).toEqual(Object.keys(derived));
    expect(Object.isFrozen(ROOT_CONTEXT)).toBe(Object.isFrozen(derived));
  });

  it('does not throw on broken markup', () => {
    for (const h of ['<', '<<<>>>', '<div', '</p></div>text', '<table><td>x<tr>y', '<html><html><body><body>z', '\u0000\ufffd']) {
      expect(() => parsePage(h)).not.toThrow();
    }
  });
});

describe('class attributes in the DOM', () => {
  const classOf = (value: string): string | null => {
    const body = parseHtmlDocument(`<body><p class="${value}">x</p></body>`).documentElement!.firstChild!.nextSibling!;
    return (body.firstChild as DomElement).getAttribute('class');
  };

  it('are their distinct tokens between single spaces', () => {
    expect(classOf('a b c')).toBe('a b c');
    expect(classOf('')).toBe('');
    expect(classOf(' a  b\tc\n')).toBe('a b c');
    expect(classOf('a b a')).toBe('a b');
    expect(classOf('a\u00a0b')).toBe('a b');
    expect(classOf('ab a b abc ab')).toBe('ab a b abc');
    const many = Array.from({ length: 40 }, (_, i) => `c${i % 30}`).join(' ');
    expect(classOf(many)).toBe(Array.from({ length: 30 }, (_, i) => `c${i}`).join(' '));
  });
});
