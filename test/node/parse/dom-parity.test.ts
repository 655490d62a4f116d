// pith's own DOM (src/core/parse/dom.ts) must build the tree linkedom built from the same HTML, as the pipeline reads it:
// then extractions are what they were with linkedom. Here on the fixture pages and on markup chosen for the corners
// (doctypes anywhere, repeated and odd attributes, class normalisation, implied and stray tags, CDATA, foreign
// content); `npx tsx eval/dom-parity.ts` runs the same check over the 1,497 WCXB dev pages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { domSignature, firstDomDifference, linkedomDocument } from '../../../dev/dom-parity.js';
import { FIXTURES_DIR } from '../../../dev/fixtures.js';
import { parseHtmlDocument } from '../../../src/core/parse/dom.js';

const corners: [string, string][] = [
  ['doctype first', '<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p></body></html>'],
  ['text and a comment before the doctype', '\n<!-- c --><!doctype html>\n<html><body>x</body></html>'],
  ['two doctypes', '<!DOCTYPE html><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"><html><body>x</body></html>'],
  ['a doctype that is not one', '<!DOCTYPE><!doctype 123><p>x</p>'],
  ['no html element (a fragment)', 'lead text<p>a</p><!DOCTYPE html><div>b</div>tail'],
  ['repeated and upper-case attribute names', '<div id="a" ID="b" id="c" Class="X" class="  b  a b " data-x data-y="">t</div>'],
  ['names that read as integers and odd names', '<img 10="" 2023 src="a.png" __proto__="p" constructor="c" hasOwnProperty="h">'],
  ['character references split text', '<p>AT&amp;T &lt;b&gt; &copy; &#169; &unknown; &amp</p>'],
  ['implied and stray tags', '<p>one<p>two</br></p></p><li>a<li>b<table><tr><td>c<td>d</table></span>'],
  ['CDATA and foreign content', '<svg><![CDATA[x<y]]><foreignObject><p>z</p></foreignObject><linearGradient/></svg><math><mi>a</mi></math>'],
  ['script, style, template, textarea', '<script>if (a < b) { x = "</div>"; }</script><style>p>a{}</style><template><p>t</p></template><textarea><b>x</b></textarea>'],
  ['unclosed everything', '<html><body><div><span><a href="x">link'],
  ['processing instruction and bogus comments', '<?xml version="1.0"?><! bogus><p>x</p><!--->'],
  ['empty', ''],
];

describe("pith's DOM builds linkedom's tree", () => {
  for (const [name, html] of corners) {
    it(name, () => {
      expect(domSignature(parseHtmlDocument(html))).toEqual(domSignature(linkedomDocument(html)));
    });
  }

  it('on every fixture page', () => {
    const names = readdirSync(FIXTURES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const html = readFileSync(join(FIXTURES_DIR, name, 'source.html'), 'utf8');
      expect({ name, difference: firstDomDifference(html) }).toEqual({ name, difference: null });
    }
  });

  it('the signature sees a difference (a changed attribute, a dropped text node)', () => {
    const a = domSignature(parseHtmlDocument('<p class="a">x</p>'));
    expect(domSignature(linkedomDocument('<p class="b">x</p>'))).not.toEqual(a);
    expect(domSignature(linkedomDocument('<p class="a"></p>'))).not.toEqual(a);
  });

  it('keeps one element with 100,000 attributes linear (the first of a repeated name counts)', () => {
    const attrs = Array.from({ length: 100_000 }, (_, i) => ` a${i % 50_000}="${i}"`).join('');
    const doc = parseHtmlDocument(`<div${attrs}>x</div>`);
    const div = doc.documentElement as unknown as { getAttribute(n: string): string | null };
    expect(div.getAttribute('a49999')).toBe('49999');
    expect(div.getAttribute('a0')).toBe('0');
    expect(div.getAttribute('a50000')).toBeNull();
  });
});
