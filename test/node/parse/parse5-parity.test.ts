// pith's DOM places text where a browser does: the same text in the same elements as parse5's tree (the WHATWG
// reference; dev/parse5-parity.ts defines the comparison), on one minimal case per tree-construction rule and on the
// fixture pages. `npm run parity:parse5` runs the same comparison over every WCXB dev and Readability page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstParityDifference, parse5Placements, pithPlacements } from '../../../dev/parse5-parity.js';
import { FIXTURES_DIR } from '../../../dev/fixtures.js';
import { parsePage } from '../../../src/core/blocks/page.js';

const LONG = 'This paragraph is the article body and it goes on for a while so that it reads as main content. '.repeat(4);

// Each of these placed text elsewhere with the htmlparser2 tree rules pith used before.
const rules: Array<[string, string]> = [
  ['`<![CDATA[` in HTML content is a bogus comment ending at the first `>`', '<div><![CDATA[ if (a > b) ]]> shown</div><p>after</p>'],
  ['content after `</body></html>` stays in the body', `<html><body><nav><a href="/">Home</a></nav></body></html><article><h1>T</h1><p>${LONG}</p></article>`],
  ['an end tag without a match is ignored, implied ends close what they must', '<div><span>a</div>b</span><ul><li>c<li>d</ul>'],
  ['`<p>` is closed by a block start', '<p>one<div>two</div>three</p>'],
  ['`<li>` closes an open `<p>` and the previous `<li>`', '<ul><li><p>a<li>b</ul>'],
  ['tables get an implied `<tbody>`', '<table><tr><td>cell</td></tr></table>'],
  ['text inside a table but outside cells is foster-parented before it', '<table>stray text<tr><td>cell</td></tr></table>'],
  ['formatting elements are reconstructed after a block (adoption agency)', '<p><b>bold<p>still bold</b> plain</p>'],
  ['misnested formatting and blocks', '<b>1<div>2</b>3</div>'],
  ['a second `<a>` closes the first', '<a href="/x">one<div>two<a href="/y">three</a></div></a>'],
  ['`<template>` content stays in the template', '<template><p>inert</p></template><p>shown</p>'],
  ['`<noscript>` is raw text with scripting on: its end is the first `</noscript>`', '<noscript><p>a</div></noscript><p>b</p>'],
  ['`<plaintext>` makes the rest text', '<p>x</p><plaintext><b>not bold</b></plaintext>'],
  ['`<textarea>` is RCDATA and drops its first newline', '<textarea>\n<b>x</b> &amp; y</textarea>'],
  ['raw-text elements: xmp, iframe, noembed, noframes', '<xmp><b>x</b></xmp><iframe><p>y</p></iframe><noembed><i>z</i></noembed><noframes><u>w</u></noframes>'],
  ['`<title>` is RCDATA; `<script>` keeps `<!--` escapes', '<title>a &amp; <b>b</b></title><script><!-- document.write("<script>x</script>") --></script><p>c</p>'],
  ['`<head>` content after body content moves into the body', '<div>early</div><head><title>T</title></head><p>later</p>'],
  ['`<select>` keeps only options', '<select><option>a<div>b</div><option>c</select>'],
  ['SVG: CDATA sections, `<title>` is not raw text, HTML breaks out', '<svg><![CDATA[x<y]]><title><b>t</b></title><p>out</p></svg>'],
];

describe("pith's DOM places text as parse5 does", () => {
  for (const [name, html] of rules) {
    it(name, () => {
      expect(pithPlacements(html)).toEqual(parse5Placements(html));
    });
  }

  it('on every fixture page', () => {
    const names = readdirSync(FIXTURES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const html = readFileSync(join(FIXTURES_DIR, name, 'source.html'), 'utf8');
      expect({ name, difference: firstParityDifference(html) }).toEqual({ name, difference: null });
    }
  });

  it('the comparison sees a moved text run', () => {
    expect(firstParityDifference('<p>a</p>')).toBeNull();
    const moved = pithPlacements('<div><p>a</p></div>');
    expect(moved).not.toEqual(parse5Placements('<div><p>a</p>b</div>'));
    expect(moved).not.toEqual(parse5Placements('<div></div><p>a</p>'));
  });

  it('an article after an early </body></html> is extracted', () => {
    const page = parsePage(`<html><body><nav><a href="/">Home</a></nav></body></html><article><h1>T</h1><p>${LONG}</p></article>`);
    expect(page.blocks.some((b) => b.text.includes('This paragraph is the article body'))).toBe(true);
  });
});
