// parsePage: HTML string -> DOM (src/core/parse/dom.ts) -> collapsed DOM -> blocks. Pure; never throws on odd markup.
import { DEFAULT_LIMITS, type Limits } from '../../config.js';
import { PithError } from '../../errors.js';
import type { CdomNode } from '../../types.js';
import { type LeafInfo, buildCdom } from './cdom.js';
import { findContentRoot, findTitle, parseCut, parseHtmlDocument } from '../parse/dom.js';
import { type MarkupScan, scanMarkup } from '../parse/markup-scan.js';
import { settleMemos } from '../parse/string-memo.js';
import { normaliseWhitespace, javaTrim } from '../parse/text-stats.js';

export interface Page {
  /** CDOM root (the body, merged down its single-child chain), null when the page has no text. */
  root: CdomNode | null;
  /** CDOM leaves in document order. */
  blocks: CdomNode[];
  /** Trimmed, whitespace-normalised `<title>`, null when absent. */
  title: string | null;
  truncated: boolean;
  /** Which limit cut the page; undefined when it was not cut. (Every page has every field: one hidden class.) */
  truncatedReason: string | undefined;
  /** The parsed document (src/core/parse/dom.ts). */
  document: unknown;
  /** Set when the standard CDOM rules found no text and a fallback rule was used ('noscript': its content walked). */
  fallback: 'noscript' | undefined;
  /** Per-block data of the walk used by the pith features; parallel to `blocks`. */
  leafInfo: LeafInfo[];
  /** Time of the DOM parse alone, in milliseconds (the floor of the parse stage). */
  domMs: number;
}

export interface ParseOptions {
  url?: string;
  limits?: Partial<Limits>;
  /** The caller has made sure that the html holds no U+0000 (extract() removes them): the parser need not look. */
  nulFree?: boolean;
}

export function parsePage(html: string, opts: ParseOptions = {}): Page {
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };
  if (html.length > limits.maxInputChars) {
    throw new PithError(
      'input_too_large',
      `input is ${html.length} characters, more than limits.maxInputChars = ${limits.maxInputChars}: send a smaller page or raise the limit`,
      { inputChars: html.length, maxInputChars: limits.maxInputChars },
    );
  }
  const scan = scanMarkup(html, {
    maxDepth: limits.maxNestingDepth,
    maxNodes: limits.maxParseNodes,
    maxElements: limits.maxParseElements,
    maxStackSteps: limits.maxParseSteps,
    maxClassTokens: limits.maxClassNames,
  });
  // Markup whose shape makes parsing costly (depth, stack work, a huge class list) is refused; a page that is only
  // long is cut where the node or element budget runs out, and marked truncated.
  let cutReason: string | undefined;
  if (scan.exceeded === 'maxNodes' || scan.exceeded === 'maxElements') {
    cutReason =
      scan.exceeded === 'maxNodes'
        ? `more than ${limits.maxParseNodes} DOM nodes (limits.maxParseNodes); the page was cut at character ${scan.cutAt} before parsing`
        : `more than ${limits.maxParseElements} elements (limits.maxParseElements); the page was cut at character ${scan.cutAt} before parsing`;
    html = html.slice(0, scan.cutAt);
  } else if (scan.exceeded !== null) throw tooCostly(scan, limits);
  settleMemos();
  const tDom = performance.now();
  // The builder keeps the same budgets itself: reconstructed formatting elements are created without markup.
  const document = parseHtmlDocument(
    html, { maxElements: limits.maxParseElements, maxNodes: limits.maxParseNodes, maxDepth: limits.maxNestingDepth },
    opts.nulFree === true,
  );
  const domMs = performance.now() - tDom;
  const builtCut = parseCut(document);
  if (builtCut >= 0 && cutReason === undefined) {
    cutReason = `more than ${limits.maxParseElements} elements, ${limits.maxParseNodes} DOM nodes or ${limits.maxNestingDepth} levels (limits.maxParseElements, limits.maxParseNodes, limits.maxNestingDepth); the page was cut at character ${builtCut} while parsing`;
  }
  const rawTitle = findTitle(document);
  const title = rawTitle === null ? null : javaTrim(normaliseWhitespace(rawTitle));
  const { root: domRoot, tag } = findContentRoot(document);
  let r = buildCdom(domRoot, tag, limits);
  // Fallback ladder: a page whose text is all, or all but a loading notice, inside <noscript> (script-rendered apps:
  // Discourse serves its posts there beside a "Loading" splash) is walked again with it.
  let fallback: Page['fallback'];
  if (r.nNoscript > 0 && !r.truncated && wordsOf(r.blocks) < NOSCRIPT_THIN_WORDS) {
    const before = wordsOf(r.blocks);
    const again = buildCdom(domRoot, tag, limits, { keepNoscript: true });
    const after = wordsOf(again.blocks);
    if (again.blocks.length > 0 && (before === 0 || (after >= NOSCRIPT_MIN_WORDS && after >= NOSCRIPT_GAIN * before))) {
      r = again;
      fallback = 'noscript';
    }
  }
  // Every page has every field (undefined when it does not apply): one hidden class for all pages, so the code that
  // reads them is not compiled again for the first truncated or fallback page.
  return {
    root: r.root,
    blocks: r.blocks,
    title: title === '' ? null : title,
    truncated: r.truncated || cutReason !== undefined,
    truncatedReason: cutReason ?? r.truncatedReason,
    fallback,
    document,
    leafInfo: r.leafInfo,
    domMs,
  };
}

/** Below this many words outside `<noscript>`, a page is a script-rendered shell (a splash, a "Loading" line). */
const NOSCRIPT_THIN_WORDS = 30;
/** The `<noscript>` walk replaces a thin shell's when it has at least this many words, and this many times as many. */
const NOSCRIPT_MIN_WORDS = 100;
const NOSCRIPT_GAIN = 5;

function wordsOf(blocks: CdomNode[]): number {
  let n = 0;
  for (let i = 0; i < blocks.length; i++) n += blocks[i]!.props.nWords;
  return n;
}

/** The error for a page whose parse the pre-scan found too costly, saying which limit it passed. */
function tooCostly(scan: MarkupScan, limits: Limits): PithError {
  const details = { nestingDepth: scan.maxDepth, parseElements: scan.elements, parseNodes: scan.nodes, parseSteps: scan.stackSteps, classNames: scan.maxClassTokens };
  const why = {
    maxDepth: `nests elements more than ${limits.maxNestingDepth} deep (limits.maxNestingDepth)`,
    maxStackSteps: `would cost the parser more than ${limits.maxParseSteps} stack steps (limits.maxParseSteps): deep nesting and many end tags`,
    maxClassTokens: `has a class attribute with more than ${limits.maxClassNames} names (limits.maxClassNames)`,
  }[scan.exceeded as 'maxDepth' | 'maxStackSteps' | 'maxClassTokens'];
  return new PithError(
    'input_too_large',
    `input ${why}: refused before parsing to bound time and memory; send a smaller page or raise the limit`,
    details,
  );
}
