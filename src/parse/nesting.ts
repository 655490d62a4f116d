// A cheap scan of the tags that estimates how deep elements nest, before linkedom parses the page.

// Elements that never hold children, and elements whose end tag is optional (an unclosed <p> or <li> closes
// itself at the next sibling): neither deepens the tree, so neither is counted.
const NOT_NESTING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'rp', 'rt',
  'html', 'head', 'body',
]);
// Raw-text elements: their content is skipped, not scanned for tags.
// (A Map, not an object: a tag named `constructor` must not find Object's.)
const RAW_TEXT_END: ReadonlyMap<string, RegExp> = new Map([
  ['script', /<\/script/gi],
  ['style', /<\/style/gi],
  ['textarea', /<\/textarea/gi],
  ['title', /<\/title/gi],
]);
const COMMENT_END = /-->/g;

/** A tag name the scan treats specially: not nesting, or raw text (with the regex that finds its end). */
interface SpecialName {
  name: string;
  rawEnd: RegExp | undefined;
}
/** The special names by length (all are at most 8 characters): a tag name is compared in place, not sliced. */
const SPECIAL_BY_LENGTH: SpecialName[][] = [];
for (const name of [...NOT_NESTING, ...RAW_TEXT_END.keys()]) {
  (SPECIAL_BY_LENGTH[name.length] ??= []).push({ name, rawEnd: NOT_NESTING.has(name) ? undefined : RAW_TEXT_END.get(name) });
}

/** The special name equal to html[j, k) lower-cased (ASCII), or null: the same as looking up `html.slice(j, k).toLowerCase()`. */
function specialName(html: string, j: number, k: number): SpecialName | null {
  const list = SPECIAL_BY_LENGTH[k - j];
  if (list === undefined) return null;
  let c0 = html.charCodeAt(j);
  if (c0 >= 65 && c0 <= 90) c0 += 32;
  next: for (let e = 0; e < list.length; e++) {
    const entry = list[e];
    const name = entry.name;
    if (name.charCodeAt(0) !== c0) continue;
    for (let i = 1; i < name.length; i++) {
      let c = html.charCodeAt(j + i);
      if (c >= 65 && c <= 90) c += 32;
      if (c !== name.charCodeAt(i)) continue next;
    }
    return entry;
  }
  return null;
}

/** [A-Za-z] */
function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** [A-Za-z0-9-] */
function isTagNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;
}

/**
 * Upper estimate of the element nesting depth of `html` (the open elements that are never closed count too).
 * Stops scanning as soon as the depth passes `stopAbove`. Linear in the input.
 *
 * A hand-written scanner (no match objects) equal to scanning with
 * `/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>|<!--/g`: a tag runs from `<` to the first `>` after its name and
 * is self-closing when the character before that `>` is `/`; a `<` that starts neither a tag nor `<!--` is text.
 */
export function estimateNestingDepth(html: string, stopAbove = Infinity): number {
  let depth = 0;
  let maxDepth = 0;
  const len = html.length;
  let noMoreGt = false; // no `>` after some point: no later `<` can start a tag
  let pos = html.indexOf('<');
  while (pos >= 0) {
    let j = pos + 1;
    const closing = j < len && html.charCodeAt(j) === 47;
    if (closing) j++;
    if (!noMoreGt && j < len && isAsciiLetter(html.charCodeAt(j))) {
      let k = j + 1;
      while (k < len && isTagNameChar(html.charCodeAt(k))) k++;
      const gt = html.indexOf('>', k);
      if (gt < 0) {
        noMoreGt = true;
      } else {
        let next = gt + 1;
        const special = specialName(html, j, k);
        if (special === null || special.rawEnd !== undefined) {
          if (closing) {
            if (depth > 0) depth--;
          } else {
            const rawEnd = special === null ? undefined : special.rawEnd;
            if (rawEnd !== undefined) {
              rawEnd.lastIndex = next;
              if (rawEnd.exec(html) === null) break;
              next = rawEnd.lastIndex;
            } else if (html.charCodeAt(gt - 1) !== 47) {
              // not `<div/>` (XHTML-ish markup)
              depth++;
              if (depth > maxDepth) {
                maxDepth = depth;
                if (maxDepth > stopAbove) break;
              }
            }
          }
        }
        pos = html.indexOf('<', next);
        continue;
      }
    }
    if (html.startsWith('<!--', pos)) {
      COMMENT_END.lastIndex = pos + 4;
      if (COMMENT_END.exec(html) === null) break;
      pos = html.indexOf('<', COMMENT_END.lastIndex);
      continue;
    }
    pos = html.indexOf('<', pos + 1);
  }
  return maxDepth;
}

/**
 * False when `html` cannot nest elements more than `limit` deep: each level opens a tag and each tag starts with
 * `<`, so a page with at most `limit` of them never goes past it (most pages: a few thousand tags in scripts and
 * styles that make up their size). A count that stops at limit + 1; far cheaper than the scan it spares.
 */
export function mayNestDeeperThan(html: string, limit: number): boolean {
  let n = 0;
  for (let pos = html.indexOf('<'); pos >= 0; pos = html.indexOf('<', pos + 1)) {
    if (++n > limit) return true;
  }
  return false;
}
