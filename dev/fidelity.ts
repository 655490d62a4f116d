// Fidelity: what the reader sees, beyond a bag of words. Two parts:
//  1. per element kind, against the expected article HTML of the Readability.js test pages (validation part):
//     headings, list items, code blocks (exact text), table cells, images, links, blockquotes: the share of the
//     expected ones the output has as the same kind (multiset match on whitespace-normalised text; images by file
//     name, another `srcset` rendition of an expected image counting as it; headings without their permalink anchors, `<a href="#…">¶</a>`), and how many extra ones it adds (per
//     expected one);
//  2. over the WCXB dev pages: pages whose output repeats a paragraph (p, h1-h6, dd, dt, figcaption, blockquote)
//     of 80+ characters more often than the ground truth has it, pages that come out empty although the ground truth is not, and `<pre>` blocks kept partly
//     (some of their lines in the output, others not).
// pith's HTML output and Readability.js's article HTML are read the same way.
//
//   npx tsx dev/fidelity.ts [--dev-pages all|val]      (also run by `npm run eval`)
import { type DomElement, type DomNode, isElement, isText, parseHtmlDocument } from '../src/core/parse/dom.js';
import { preformattedText } from '../src/core/blocks/units.js';
import { PERMALINK_MARK } from '../src/core/blocks/whole.js';

export const KINDS = ['headings', 'list items', 'code blocks', 'table cells', 'images', 'links', 'blockquotes'] as const;
export type Kind = (typeof KINDS)[number];

const SPACES = /\s+/g;
const norm = (s: string): string => s.replace(SPACES, ' ').trim();

/** A heading's permalink anchor: a link within the page whose whole text is one mark (`<a href="#x">¶</a>`). It
 *  is navigation, not heading text (the issue asks for it to be dropped), so headings compare without it. */
function isPermalink(el: DomElement): boolean {
  return el.localName === 'a' && (el.getAttribute('href') ?? '').startsWith('#') && PERMALINK_MARK.test(textIn(el));
}

/** Elements that a reader sees apart from their neighbours: their text is set off by a space (table cells and rows,
 *  paragraphs, list items, line breaks), as it is on the page, whether or not the markup has whitespace there. */
const SEPARATED = /^(?:br|td|th|tr|p|div|li|dd|dt|h[1-6]|blockquote|pre|table|caption|figcaption|ul|ol|dl|section)$/;

/** Text of an element's subtree: script and style left out, and the elements `skip` names. */
function textIn(root: DomNode, skip?: (el: DomElement) => boolean): string {
  let s = '';
  const todo: Array<DomNode | ' '> = [root];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (n === ' ') s += ' ';
    else if (isText(n)) s += n.data;
    else if (isElement(n) && (n.localName === 'script' || n.localName === 'style')) continue;
    else if (skip !== undefined && isElement(n) && skip(n)) continue;
    else {
      const separated = n !== root && isElement(n) && SEPARATED.test(n.localName);
      if (separated) {
        s += ' ';
        todo.push(' ');
      }
      const kids: DomNode[] = [];
      for (let c = n.firstChild; c !== null; c = c.nextSibling) kids.push(c);
      for (let i = kids.length - 1; i >= 0; i--) todo.push(kids[i]);
    }
  }
  return s;
}

function elements(root: DomNode): DomElement[] {
  const out: DomElement[] = [];
  const todo: DomNode[] = [root];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (isElement(n)) out.push(n);
    const kids: DomNode[] = [];
    for (let c = n.firstChild; c !== null; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) todo.push(kids[i]);
  }
  return out;
}

const fileName = (src: string): string => {
  const path = src.split(/[?#]/)[0];
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)).toLowerCase();
};

/** The elements of each kind in an HTML fragment, as comparable keys. */
export function elementKeys(html: string): Record<Kind, string[]> {
  const keys = Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<Kind, string[]>;
  for (const el of elements(parseHtmlDocument(html))) {
    const tag = el.localName;
    if (/^h[1-6]$/.test(tag)) keys.headings.push(norm(textIn(el, isPermalink)));
    else if (tag === 'li') keys['list items'].push(norm(textIn(el)));
    else if (tag === 'pre') keys['code blocks'].push(preformattedText(el).replace(/[ \t]+$/gm, ''));
    else if (tag === 'td' || tag === 'th') keys['table cells'].push(norm(textIn(el)));
    else if (tag === 'img') {
      const src = el.getAttribute('src');
      if (src) keys.images.push(fileName(src));
    } else if (tag === 'a' && el.getAttribute('href') !== null) keys.links.push(norm(textIn(el)));
    else if (tag === 'blockquote') keys.blockquotes.push(norm(textIn(el)));
  }
  for (const k of KINDS) keys[k] = keys[k].filter((x) => x !== '');
  return keys;
}

export interface KindCount {
  expected: number;
  found: number;
  extra: number;
}

/** The other renditions of each expected image: the file name of every `srcset` candidate -> its `src`'s file name.
 *  pith writes one URL per image, the largest candidate; the same picture at another width is the same image. */
function imageRenditions(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of elements(parseHtmlDocument(html))) {
    if (el.localName !== 'img') continue;
    const src = el.getAttribute('src');
    const set = el.getAttribute('srcset');
    if (!src || !set) continue;
    const own = fileName(src);
    for (const candidate of set.split(',')) {
      const url = candidate.trim().split(/\s+/)[0];
      if (url) out.set(fileName(url), own);
    }
  }
  return out;
}

/** Per kind: expected elements, how many the output has (multiset match), how many it has beyond them. */
export function compareKinds(expectedHtml: string, outputHtml: string): Record<Kind, KindCount> {
  const want = elementKeys(expectedHtml);
  const got = elementKeys(outputHtml);
  const renditions = imageRenditions(expectedHtml);
  got.images = got.images.map((f) => renditions.get(f) ?? f);
  const out = {} as Record<Kind, KindCount>;
  for (const k of KINDS) {
    const pool = new Map<string, number>();
    for (const x of got[k]) pool.set(x, (pool.get(x) ?? 0) + 1);
    let found = 0;
    for (const x of want[k]) {
      const n = pool.get(x) ?? 0;
      if (n > 0) {
        found++;
        pool.set(x, n - 1);
      }
    }
    out[k] = { expected: want[k].length, found, extra: got[k].length - found };
  }
  return out;
}

/** Paragraph-like elements (list items, cells and code blocks repeat on purpose: a price list in two tabs). */
const PARAGRAPH_TAGS = /^(?:p|h[1-6]|dd|dt|figcaption|blockquote)$/;

/** Texts of an HTML output's paragraphs, as a reader sees them one after another. A paragraph element holding
 *  another one (`<blockquote><p>…</p></blockquote>`) is not a paragraph of its own: its inner ones are (counting both
 *  would show one quoted paragraph as a repeat). */
function paragraphsOfHtml(html: string): string[] {
  const out: string[] = [];
  const holds = new Set<DomNode>();
  const all = elements(parseHtmlDocument(html));
  for (const el of all) {
    if (!PARAGRAPH_TAGS.test(el.localName)) continue;
    for (let a = el.parentNode; a !== null; a = a.parentNode) {
      if (isElement(a) && PARAGRAPH_TAGS.test(a.localName)) holds.add(a);
    }
  }
  for (const el of all) {
    if (PARAGRAPH_TAGS.test(el.localName) && !holds.has(el)) out.push(norm(textIn(el)));
  }
  return out;
}

/** Minimum length of a paragraph counted by `repeatsParagraph`. */
export const REPEAT_MIN_CHARS = 80;

/** The paragraphs of 80+ characters the output shows more often than the reference text has them: [text, times in
 *  the output, times in the reference]. */
export function repeatedParagraphs(outputHtml: string, reference: string): [string, number, number][] {
  const counts = new Map<string, [string, number]>();
  for (const p of paragraphsOfHtml(outputHtml)) {
    if (p.length < REPEAT_MIN_CHARS) continue;
    const key = p.replace(SPACES, '');
    const c = counts.get(key);
    if (c === undefined) counts.set(key, [p, 1]);
    else c[1]++;
  }
  const ref = reference.replace(SPACES, '');
  const out: [string, number, number][] = [];
  for (const [key, [text, n]] of counts) {
    if (n < 2) continue;
    let inRef = 0;
    for (let i = ref.indexOf(key); i >= 0; i = ref.indexOf(key, i + key.length)) inRef++;
    if (n > Math.max(1, inRef)) out.push([text, n, inRef]);
  }
  return out;
}

/** Whether the output shows some paragraph of 80+ characters more often than the reference text has it. */
export function repeatsParagraph(outputHtml: string, reference: string): boolean {
  return repeatedParagraphs(outputHtml, reference).length > 0;
}

/** Whitespace and the invisible characters the text output leaves out (soft hyphen, zero-width space, word joiner,
 *  BOM: src/core/render/text.ts), removed before a code line is looked for. */
const SPACES_AND_INVISIBLE = /[\s\u00ad\u200b\u2060\ufeff]+/g;

/** Occurrences of `needle` in `hay`, at most 2. */
function occurrences(hay: string, needle: string): number {
  const first = hay.indexOf(needle);
  if (first < 0) return 0;
  return hay.indexOf(needle, first + 1) < 0 ? 1 : 2;
}

/**
 * `<pre>` blocks of the source page of which the output text has some lines but not all: [partly, with 2+ lines].
 * A line the page has elsewhere too, in its prose (a command quoted in the text, `nvm install`) or in another code
 * block (a tutorial's growing listing), says nothing about this block and is not looked at; a block with fewer than
 * two such lines of its own is not counted.
 */
export function preKeptPartly(sourceHtml: string, outputText: string): [number, number] {
  const text = outputText.replace(SPACES_AND_INVISIBLE, '');
  const doc = parseHtmlDocument(sourceHtml);
  const outside = textIn(doc, (el) => el.localName === 'pre').replace(SPACES_AND_INVISIBLE, '');
  const blocks = elements(doc)
    .filter((el) => el.localName === 'pre')
    .map((el) => preformattedText(el).split('\n').map((l) => l.replace(SPACES_AND_INVISIBLE, '')).filter((l) => l.length >= 4));
  const allCode = blocks.map((lines) => lines.join('\n')).join('\n');
  let partly = 0;
  let counted = 0;
  for (const block of blocks) {
    const lines = block.filter((l) => !outside.includes(l) && occurrences(allCode, l) === 1);
    if (lines.length < 2) continue;
    counted++;
    let found = 0;
    for (const l of lines) if (text.includes(l)) found++;
    if (found > 0 && found < lines.length) partly++;
  }
  return [partly, counted];
}
