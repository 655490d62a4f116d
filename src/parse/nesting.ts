// A cheap scan of the tags that estimates how deep elements nest, before linkedom parses the page.

// Elements that never hold children, and elements whose end tag is optional (an unclosed <p> or <li> closes
// itself at the next sibling): neither deepens the tree, so neither is counted.
const NOT_NESTING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'rp', 'rt',
  'html', 'head', 'body',
]);
// Raw-text elements: their content is skipped, not scanned for tags.
const RAW_TEXT_END: Readonly<Record<string, RegExp>> = {
  script: /<\/script/gi,
  style: /<\/style/gi,
  textarea: /<\/textarea/gi,
  title: /<\/title/gi,
};
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>|<!--/g;
const COMMENT_END = /-->/g;

/**
 * Upper estimate of the element nesting depth of `html` (the open elements that are never closed count too).
 * Stops scanning as soon as the depth passes `stopAbove`. Linear in the input.
 */
export function estimateNestingDepth(html: string, stopAbove = Infinity): number {
  let depth = 0;
  let maxDepth = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m !== null; m = TAG.exec(html)) {
    if (m[0] === '<!--') {
      COMMENT_END.lastIndex = TAG.lastIndex;
      if (COMMENT_END.exec(html) === null) break;
      TAG.lastIndex = COMMENT_END.lastIndex;
      continue;
    }
    const name = m[2].toLowerCase();
    if (NOT_NESTING.has(name)) continue;
    if (m[1] === '/') {
      if (depth > 0) depth--;
      continue;
    }
    const rawEnd = RAW_TEXT_END[name];
    if (rawEnd !== undefined) {
      rawEnd.lastIndex = TAG.lastIndex;
      if (rawEnd.exec(html) === null) break;
      TAG.lastIndex = rawEnd.lastIndex;
      continue;
    }
    if (m[3] === '/') continue; // <div/> in XHTML-ish markup
    depth++;
    if (depth > maxDepth) {
      maxDepth = depth;
      if (maxDepth > stopAbove) break;
    }
  }
  return maxDepth;
}
