// The pre-parse scan estimates the tree the parser builds, the builder keeps its budgets, and parsePage must refuse,
// before parsing, the hostile pages that passed the old depth estimate or had no bound at all (issue 11).
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/config.js';
import { PithError } from '../../../src/errors.js';
import { type DomNode, isElement, parseHtmlDocument, topLevelNodes } from '../../../src/core/parse/dom.js';
import { scanMarkup } from '../../../src/core/parse/markup-scan.js';
import { parsePage } from '../../../src/core/blocks/page.js';
import { mulberry32 as rng } from '../../../dev/rng.js';

const UNBOUNDED = { maxDepth: Infinity, maxElements: Infinity, maxNodes: Infinity, maxStackSteps: Infinity, maxClassTokens: Infinity };

/** Deepest element, element count and node count (attributes included) of the tree. */
function treeOf(html: string, budget = { maxNodes: Infinity, maxElements: Infinity, maxDepth: Infinity }): { maxDepth: number; elements: number; nodes: number } {
  const doc = parseHtmlDocument(html, budget);
  let maxDepth = 0;
  let elements = 0;
  let nodes = 0;
  const todo: Array<[DomNode, number]> = topLevelNodes(doc).map((n) => [n, 1]);
  while (todo.length > 0) {
    const [n, depth] = todo.pop()!;
    nodes++;
    if (!isElement(n)) continue;
    elements++;
    nodes += ((n as unknown as { attributes: string[] | null }).attributes?.length ?? 0) / 2; // names and values
    if (depth > maxDepth) maxDepth = depth;
    for (let c = n.firstChild; c; c = c.nextSibling) todo.push([c, depth + 1]);
  }
  return { maxDepth, elements, nodes };
}

// Tag soup made of what decides nesting: implied ends, void and self-closing tags, foreign content,
// raw text, quoted `>` and `<` in attributes, odd end tags, comments, CDATA, declarations, references.
const NAMES = [
  'div', 'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'table', 'select',
  'input', 'br', 'img', 'svg', 'math', 'title', 'script', 'style', 'textarea', 'xmp', 'mi', 'desc', 'foreignObject',
  'h1', 'ul', 'body', 'head', 'html', 'a', 'span', 'DIV', 'Script', 'x', 'rt', 'rp', 'button', 'form', 'hr', 'link',
  'P', 'LI', 'sCrIpT', 'TITLE', 'lin\u212A', 'p\u0130',
];
const ATTRS = [' a=1', ' b="x>y"', " c='<div>'", ' d', ' class="a b  c"', ' e=x/', ' /f', ' =g', ' h="&amp;"', ` i='"'`, ' j = "<script>"'];
const MARKUP = [
  '<!-- c -->', '<!-->', '<!--->', '<!-- <div> -->', '<![CDATA[ <div> ]]>', '<!doctype html>', '<!>', '<!-x>', '<?pi>',
  '</>', '</1>', '< div>', '<svg/>', '<p/>', '</p>', '</br>', '</svg>', '</math>', '</script>', '</style >',
  '</title>', '</textarea>', '</xmp>', '</script/>', '<script/>', '<title/>',
];
const TEXT = ['text', ' ', 'a&amp;b', '&lt;', '&notit;', '&#x41;', '&', 'x < y', '<3', '\n'];
const UNFINISHED = ['<', '</', '</ ', '<!', '<!-', '<!--', '<![CDATA[', '<?x', '<div', '<div a', '<div a="', '</div', '</script'];

function tagSoup(next: () => number): { html: string; unfinished: boolean } {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)];
  let html = '';
  const n = 1 + Math.floor(next() * 60);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.35) {
      html += '<' + pick(NAMES);
      while (next() < 0.3) html += pick(ATTRS);
      if (next() < 0.2) html += pick(['/', ' /', '/ ']);
      html += '>';
    } else if (r < 0.6) html += pick(['</', '</ ']) + pick(NAMES) + pick(['>', ' >', '/>', ' x>']);
    else if (r < 0.75) html += pick(TEXT);
    else html += pick(MARKUP);
  }
  const unfinished = next() < 0.2;
  if (unfinished) html += pick(UNFINISHED);
  return { html, unfinished };
}

describe('scanMarkup estimates the tree the parser builds', () => {
  it('on 4,000 random tag soups: never throws, cuts only at a bound, and the builder keeps every budget', () => {
    const next = rng(11);
    const wrong: string[] = [];
    for (let t = 0; t < 4000; t++) {
      const { html } = tagSoup(next);
      const scan = scanMarkup(html, UNBOUNDED);
      if (scan.exceeded !== null || scan.cutAt !== html.length) wrong.push(`${JSON.stringify(html)}: cut without a bound`);
      const maxNodes = 1 + Math.floor(next() * 40);
      const maxElements = 1 + Math.floor(next() * 15);
      const maxDepth = 1 + Math.floor(next() * 8);
      const tree = treeOf(html, { maxNodes, maxElements, maxDepth });
      // the build stops after the token that passed a budget: what that token created (implied <html>, <head> and
      // <body>, its element with its attributes, a void child one level down) is the last in
      if (tree.nodes > maxNodes + 40 || tree.elements > maxElements + 4 || tree.maxDepth > maxDepth + 3) {
        wrong.push(`${JSON.stringify(html)} within ${maxNodes}/${maxElements}/${maxDepth}: ${JSON.stringify(tree)}`);
      }
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('on the nesting rules one by one (the tree adds <html> and <body>, and <tbody> in tables)', () => {
    const cases: Array<[string, number, number]> = [
      ['<div><div><span>a</span></div><div>b</div></div>', 3, 5],
      ['<div></x>'.repeat(50), 50, 52], // an end tag without a match closes nothing
      ['<div/>'.repeat(50), 50, 52], // self-closing syntax is ignored on HTML elements
      ['<svg>' + '<g/>'.repeat(50) + '</svg>', 2, 4], // but honoured in foreign content
      ['<p><li>'.repeat(25), 2, 4], // <li> closes the <p> and the <li> before it
      ['<p>a'.repeat(50), 1, 3], // <p> closes <p>
      ['<ul>' + '<li>a'.repeat(50) + '</ul>', 2, 4],
      ['<table>' + '<tr><td>a'.repeat(50) + '</table>', 3, 6],
      ['<select>' + '<option>a'.repeat(50) + '</select>', 2, 4],
      ['<br>'.repeat(50) + '</br>', 1, 3],
      ['<script>' + '<div>'.repeat(50) + '</script>', 1, 3],
      ['<div x=\'>\'<script>' + '<div>'.repeat(50), 51, 53], // not raw text: `<script>` is an attribute name here
      ['<!-- ' + '<div>'.repeat(50) + ' -->', 0, 2],
      ['<![CDATA[' + '<div>'.repeat(50) + ']]>', 49, 51], // a bogus comment up to the first `>`
      ['<div title="' + '<div>'.repeat(50) + '">', 1, 3],
      ['<plaintext>' + '<div>'.repeat(50), 1, 3],
    ];
    for (const [html, scanDepth, treeDepth] of cases) {
      expect([html.slice(0, 40), scanMarkup(html, UNBOUNDED).maxDepth, treeOf(html).maxDepth]).toEqual([html.slice(0, 40), scanDepth, treeDepth]);
    }
  });

  it('counts one text node for a run with character references, and one node per class name', () => {
    expect(treeOf('a&amp;b').nodes).toBe(4); // html, head, body and the text
    expect(scanMarkup('a&amp;b', UNBOUNDED).nodes).toBe(1);
    expect(scanMarkup('<i class="a b c d">x</i>', UNBOUNDED)).toMatchObject({ elements: 1, maxClassTokens: 4 });
  });

  it('stops at the first bound passed', () => {
    const scan = scanMarkup('<div>'.repeat(1000), { ...UNBOUNDED, maxDepth: 10 });
    expect(scan.exceeded).toBe('maxDepth');
    expect(scan.maxDepth).toBe(11);
  });
});

/** parsePage's error for `html`, or null; and how long it took. */
function refusal(html: string): { error: PithError | null; ms: number } {
  const t = performance.now();
  try {
    parsePage(html);
    return { error: null, ms: performance.now() - t };
  } catch (e) {
    if (!(e instanceof PithError)) throw e;
    return { error: e, ms: performance.now() - t };
  }
}

describe('parsePage refuses hostile markup before parsing it (issue 11)', () => {
  // Each took seconds to minutes in linkedom, or hundreds of MB, or threw a RangeError; refused, each costs one
  // linear scan. The generous budget guards against a hang, not a speed target.
  const hostile: Array<[string, () => string, string]> = [
    ['end tags that close nothing (263 s before)', () => '<div></x>'.repeat(200_000), 'maxNestingDepth'],
    ['self-closing syntax on divs (16 s)', () => '<div/>'.repeat(100_000), 'maxNestingDepth'],
    ['deep nesting then unmatched end tags', () => '<div>'.repeat(4_000) + '</x>'.repeat(500_000), 'maxParseSteps'],
    ['self-closing <svg> inside <svg>', () => '<svg>'.repeat(2) + '<svg/>'.repeat(300_000), 'maxParseSteps'],
    ['a class attribute with 150,000 names (a RangeError in linkedom)', () => '<div class="' + 'c '.repeat(150_000) + '">x</div>', 'maxClassNames'],
  ];
  for (const [name, make, limit] of hostile) {
    it(`refuses ${name}`, { timeout: 20_000 }, () => {
      const { error } = refusal(make());
      expect(error?.code).toBe('input_too_large');
      expect(error?.message).toContain(limit);
    });
  }

  // Pages that are only long are cut where the budget runs out, parsed, and marked truncated.
  const long: Array<[string, () => string, string]> = [
    ['a million paragraphs (9-29 s, 0.7-1.1 GB before)', () => '<p>a'.repeat(1_000_000), 'maxParseElements'],
    ['a million <br> (13.6 s, 650 MB)', () => '<br>'.repeat(1_000_000), 'maxParseElements'],
    ['one element with 300,000 attributes', () => '<p>first</p><div' + ' a'.repeat(300_000) + '>x</div>', 'maxParseNodes'],
    ['many elements with many class names', () => ('<i class="' + 'c '.repeat(5_000) + '">x</i>').repeat(100), 'maxParseNodes'],
  ];
  for (const [name, make, limit] of long) {
    it(`cuts ${name}`, { timeout: 20_000 }, () => {
      const page = parsePage(make());
      expect(page.truncated).toBe(true);
      expect(page.truncatedReason).toContain(limit);
    });
  }

  it('accepts the same shapes at sizes real pages have', () => {
    const ok = [
      '<div></x>'.repeat(1_000),
      '<div/>'.repeat(1_000),
      '<p><li>'.repeat(500),
      '<p>a'.repeat(7_000),
      '<div class="' + 'c '.repeat(4_000) + '">x</div>',
    ];
    for (const html of ok) expect(parsePage(html).truncated).toBe(false);
  });

  it('honours lower and higher limits', () => {
    const html = '<div></x>'.repeat(1_000);
    expect(() => parsePage(html, { limits: { maxNestingDepth: 999 } })).toThrow(/limits\.maxNestingDepth/);
    const cut = parsePage('<p>a'.repeat(1_000), { limits: { maxParseNodes: 1_999 } });
    expect([cut.truncated, cut.blocks.length]).toEqual([true, 998]); // <html>, <head> and <body> count too
    const whole = parsePage('<p>a'.repeat(1_000), { limits: { maxParseNodes: 2_003 } });
    expect([whole.truncated, whole.blocks.length]).toEqual([false, 1_000]);
    expect(DEFAULT_LIMITS.maxParseNodes).toBeGreaterThan(2_000);
  });
});
