// The main-content container (the Korean patent, ../shared/docs/seeds.md §3): which element holds the article.
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
// depth relative to the page's deepest candidate). A logistic model (models/container.json, trained by
// training/container.py) scores every candidate; the container is the DEEPEST of the k best (claims 8-9).
// Pure: no I/O; the model comes in as parsed JSON.

import type { CdomNode } from '../types.js';
import { type DomNode, isElement } from './dom.js';
import containerModelJson from '../../models/container.json' with { type: 'json' };

/** The patent's counted child tags (claim 3). */
const PATENT_CHILD_TAGS: ReadonlySet<string> = new Set([
  'div', 'span', 'a', 'b', 'br', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'img', 'li', 'ul', 'ol', 'p', 'pre', 'q',
  'table', 'tr', 'td',
]);

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

/** models/container.json: logistic models over standardised features; several models are averaged (ensemble). */
export interface ContainerModel {
  version: string;
  featureNames: string[];
  mean: number[];
  std: number[];
  models: { weights: number[]; bias: number }[];
  /** The container is the deepest of the k best-scored candidates. */
  k: number;
  /** Column of each model feature in CONTAINER_FEATURES. */
  columns: number[];
}

/** Checks a parsed container model file; the message says what to fix. */
export function loadContainerModel(json: unknown, source = 'models/container.json'): ContainerModel {
  const j = json as Partial<ContainerModel> | null;
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}: re-run training/container.py`);
  };
  if (j === null || typeof j !== 'object') return fail('not a JSON object');
  if (!Array.isArray(j.featureNames) || j.featureNames.length === 0) return fail('featureNames missing');
  const n = j.featureNames.length;
  const columns = j.featureNames.map((name) => {
    const c = CONTAINER_FEATURES.indexOf(name);
    if (c < 0) fail(`feature "${name}" is not computed by src/parse/container.ts (${CONTAINER_FEATURES.join(', ')})`);
    return c;
  });
  const isNums = (a: unknown, len: number): boolean =>
    Array.isArray(a) && a.length === len && a.every((x) => typeof x === 'number' && Number.isFinite(x));
  if (!isNums(j.mean, n) || !isNums(j.std, n)) fail(`mean and std need ${n} finite numbers`);
  if (!Array.isArray(j.models) || j.models.length === 0) fail('models missing');
  for (const m of j.models!) if (!isNums(m.weights, n) || !isNums([m.bias], 1)) fail(`every model needs ${n} weights and a bias`);
  if (typeof j.k !== 'number' || !Number.isInteger(j.k) || j.k < 1) fail('k must be a positive integer');
  return {
    version: typeof j.version === 'string' ? j.version : 'container',
    featureNames: j.featureNames,
    mean: j.mean!,
    std: j.std!.map((s) => (s === 0 ? 1 : s)),
    models: j.models!,
    k: j.k!,
    columns,
  };
}

/** The shipped model (models/container.json), checked once at module load. */
export const CONTAINER_MODEL: ContainerModel = loadContainerModel(containerModelJson);

/** Probability that each candidate is the main-content container (mean over the model's logistic models). */
export function scoreCandidates(candidates: readonly ContainerCandidate[], model: ContainerModel = CONTAINER_MODEL): Float64Array {
  const n = model.columns.length;
  const z = new Float64Array(n);
  const out = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const f = candidates[i].features;
    for (let j = 0; j < n; j++) z[j] = (f[model.columns[j]] - model.mean[j]) / model.std[j];
    let p = 0;
    for (const m of model.models) {
      let s = m.bias;
      for (let j = 0; j < n; j++) s += m.weights[j] * z[j];
      p += 1 / (1 + Math.exp(-s));
    }
    out[i] = p / model.models.length;
  }
  return out;
}

/**
 * Index of the deepest (largest `depths[i]`) among the k highest scores; ties in depth go to the higher score,
 * then to the earlier candidate. -1 when there are no candidates.
 */
export function deepestOfTopK(scores: ArrayLike<number>, depths: ArrayLike<number>, k: number): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  let best = -1;
  for (const i of order.slice(0, Math.max(1, k))) {
    if (best < 0 || depths[i] > depths[best] || (depths[i] === depths[best] && scores[i] > scores[best])) best = i;
  }
  return best;
}

export interface ContainerPrediction {
  /** The predicted container, null when the page has no text. */
  node: CdomNode | null;
  /** Its probability under the model (0 when node is null). */
  score: number;
}

/** The patent's decision: score every candidate, keep the k best, return the deepest of them. */
export function predictContainer(
  page: ContainerPage,
  model: ContainerModel = CONTAINER_MODEL,
  k: number = model.k,
): ContainerPrediction {
  const candidates = containerCandidates(page);
  if (candidates.length === 0) return { node: null, score: 0 };
  const scores = scoreCandidates(candidates, model);
  const i = deepestOfTopK(scores, candidates.map((c) => c.features[0]), k);
  return { node: candidates[i].node, score: scores[i] };
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
