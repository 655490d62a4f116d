// The main-content container (a patent on main-content detection; docs/design.md, The container model): which element holds the article.
//
// Candidates are the internal nodes of the collapsed DOM (an element with two or more text-bearing children; a
// merged single-child chain is one candidate, its bottom element the one measured). Per candidate, the patent's
// four features:
//   depth          elements on the path from the candidate up to the document's top element (<html> = 0, body = 1)
//   n_child_tags   DIRECT element children whose tag is one of the patent's list (claim 3: "the number of lower
//                  tags each tag has"; direct children, because descendants would mostly re-measure text size,
//                  which text_density already is)
//   text_density   characters of the candidate's text / characters of the page text (claim 1)
//   title_overlap  words of the candidate's text that occur in the page <title> / words of the candidate's text
// plus a few cheap extras for a second variant (link density, share of content-like child tags, log size,
// depth relative to the page's deepest candidate). A logistic model (src/core/model/container-model.ts over
// models/container.json, trained by training/container.py) scores every candidate; the container is the DEEPEST
// of the k best (claims 8-9).
// Pure: no I/O.

import type { CdomNode } from '../../types.js';
import { PATENT_CHILD_TAGS } from '../blocks/cdom.js';
import { type DomNode, isElement } from '../parse/dom.js';

/** Child tags that mark running content (extra feature content_tag_share). */
const CONTENT_CHILD_TAGS: ReadonlySet<string> = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'figure', 'img', 'ul', 'ol', 'table', 'dl',
]);

/** The patent's four features, in model order. */
export const PATENT_FEATURES = ['depth', 'n_child_tags', 'text_density', 'title_overlap'] as const;
/** The extras of the second variant. */
export const EXTRA_FEATURES = ['link_density', 'content_tag_share', 'log_n_characters', 'relative_depth'] as const;
/** Every feature `containerCandidates` computes, in column order. */
export const CONTAINER_FEATURES: readonly string[] = [...PATENT_FEATURES, ...EXTRA_FEATURES];

/** What the container model reads of a parsed page (a `Page` fits). */
export interface ContainerPage {
  root: CdomNode | null;
  blocks: readonly CdomNode[];
  title: string | null;
}

export interface ContainerCandidate {
  node: CdomNode;
  /** The bottom element of the node's merged chain (the one whose children are the node's children). */
  element: DomNode;
  /** Values in CONTAINER_FEATURES order. */
  features: Float64Array;
}

const WORD_RE = /[\p{L}\p{N}]+/gu;

/** Lower-cased letter/digit runs. */
export function titleWords(text: string): string[] {
  return text.toLowerCase().match(WORD_RE) ?? [];
}

/** Elements between `el` and the top of its document: <html> (or a fragment's top element) = 0. */
function domDepth(el: DomNode): number {
  let d = 0;
  for (let p = el.parentNode; p !== null && isElement(p); p = p.parentNode) d++;
  return d;
}

/** The bottom element of an internal node's chain: its first child's top DOM node's parent. */
function bottomElement(node: CdomNode): DomNode {
  const first = node.children[0];
  const parent = first ? (first.domNode as DomNode).parentNode : null;
  return parent !== null && isElement(parent) ? parent : (node.domNode as DomNode);
}

/**
 * Candidates of a page with their features: every internal CDOM node in pre-order (the root first); a page whose
 * CDOM is a single leaf has that leaf as its only candidate; no text, no candidates.
 */
export function containerCandidates(page: ContainerPage): ContainerCandidate[] {
  const root = page.root;
  if (root === null) return [];
  const titleSet = new Set(titleWords(page.title ?? ''));
  // Words and title hits per node, bottom-up: leaves from their text, internal nodes as sums.
  const words = new Map<CdomNode, number>();
  const hits = new Map<CdomNode, number>();
  for (const leaf of page.blocks) {
    const w = titleWords(leaf.text);
    let h = 0;
    if (titleSet.size > 0) for (const x of w) if (titleSet.has(x)) h++;
    words.set(leaf, w.length);
    hits.set(leaf, h);
  }
  const internal: CdomNode[] = []; // pre-order
  const stack: CdomNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.children.length === 0) continue;
    internal.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  for (let i = internal.length - 1; i >= 0; i--) {
    const n = internal[i];
    let w = 0;
    let h = 0;
    for (const c of n.children) {
      w += words.get(c) ?? 0;
      h += hits.get(c) ?? 0;
    }
    words.set(n, w);
    hits.set(n, h);
  }
  const nodes = internal.length > 0 ? internal : [root];
  const pageChars = root.props.nCharacters;
  const out: ContainerCandidate[] = [];
  let maxDepth = 0;
  for (const node of nodes) {
    const element = node.children.length > 0 ? bottomElement(node) : (node.domNode as DomNode);
    let nChildTags = 0;
    let nChildElements = 0;
    let nContentTags = 0;
    if (isElement(element)) {
      for (let c = element.firstChild; c !== null; c = c.nextSibling) {
        if (!isElement(c)) continue;
        nChildElements++;
        if (PATENT_CHILD_TAGS.has(c.localName)) nChildTags++;
        if (CONTENT_CHILD_TAGS.has(c.localName)) nContentTags++;
      }
    }
    const depth = domDepth(element);
    if (depth > maxDepth) maxDepth = depth;
    const chars = node.props.nCharacters;
    const w = words.get(node) ?? 0;
    const f = new Float64Array(CONTAINER_FEATURES.length);
    f[0] = depth;
    f[1] = nChildTags;
    f[2] = pageChars > 0 ? chars / pageChars : 0;
    f[3] = w > 0 ? (hits.get(node) ?? 0) / w : 0;
    f[4] = chars > 0 ? Math.min(1, node.props.uCharsInLink / chars) : 0;
    f[5] = nChildElements > 0 ? nContentTags / nChildElements : 0;
    f[6] = Math.log1p(chars);
    out.push({ node, element, features: f });
  }
  for (const c of out) c.features[7] = maxDepth > 0 ? c.features[0] / maxDepth : 0;
  return out;
}

/** Per block (page.blocks order): 1 when the block lies inside `container`, else 0. */
export function blocksInside(page: Pick<ContainerPage, 'blocks'>, container: CdomNode | null): Uint8Array {
  const out = new Uint8Array(page.blocks.length);
  if (container === null) return out;
  for (let i = 0; i < page.blocks.length; i++) {
    for (let n: CdomNode | null = page.blocks[i]; n !== null; n = n.parent) {
      if (n === container) {
        out[i] = 1;
        break;
      }
    }
  }
  return out;
}
