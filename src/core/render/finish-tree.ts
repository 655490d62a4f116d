// The post-passes over the clean tree after the walk: images and rules whose surroundings were not kept are
// dropped, elements left empty are pruned, and whitespace at the edges of inline runs is trimmed.

import { BLOCK_TAGS, type ContentElement, type ContentNode, type ContentText, type RegionCheck, hasContent, isBlockNode } from './content-node.js';

/** Drops rejected images and rules, prunes what became empty, trims the whitespace at the edges of inline runs. */
export function finalizeBlocks(nodes: ContentElement[]): ContentElement[] {
  return finalizeChildren(nodes, true) as ContentElement[];
}

const regionKept = (r: RegionCheck, isImage: boolean): boolean =>
  (r.prevKept && r.nextKept) || (isImage && ((r.frame !== null && r.frame.hasKept) || (r.prevKept && r.closesContent === true) || r.opensContent === true));

function finalizeChildren(nodes: readonly ContentNode[], blockContext: boolean): ContentNode[] {
  const out: ContentNode[] = [];
  for (const n of nodes) {
    if (n.kind === 'text') {
      if (n.text !== '') out.push(n);
      continue;
    }
    if (n.region) {
      if (!regionKept(n.region, n.tag === 'img')) continue;
      delete n.region;
      out.push(n);
      continue;
    }
    if (n.tag === 'br' || n.tag === 'pre') {
      out.push(n);
      continue;
    }
    n.children = finalizeChildren(n.children, BLOCK_TAGS.has(n.tag));
    if (n.tag === 'td' || n.tag === 'th' || hasContent(n.children)) out.push(n);
  }
  if (blockContext) trimRuns(out);
  return out;
}

/** In a block: each inline run loses leading/trailing spaces and line breaks; double spaces across nodes collapse. */
function trimRuns(nodes: ContentNode[]): void {
  let start = 0;
  for (let i = 0; i <= nodes.length; i++) {
    if (i === nodes.length || isBlockNode(nodes[i])) {
      if (i > start) trimRun(nodes, start, i);
      start = i + 1;
    }
  }
  // drop line breaks and blank texts left at the edges of runs
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    const prev = nodes[i - 1];
    const next = nodes[i + 1];
    const edge = prev === undefined || next === undefined || isBlockNode(prev) || isBlockNode(next);
    if (n.kind === 'text' && n.text === '') nodes.splice(i, 1);
    else if (edge && n.kind === 'el' && n.tag === 'br') nodes.splice(i, 1);
  }
}

function trimRun(nodes: ContentNode[], start: number, end: number): void {
  const leaves: Array<ContentText | ContentElement> = [];
  const collect = (list: readonly ContentNode[], from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const n = list[i];
      if (n.kind === 'text' || n.tag === 'br' || n.tag === 'img') leaves.push(n);
      else collect(n.children, 0, n.children.length);
    }
  };
  collect(nodes, start, end);
  let prevSpace = true;
  let lastText: ContentText | null = null;
  for (const leaf of leaves) {
    if (leaf.kind === 'text') {
      if (prevSpace) leaf.text = leaf.text.replace(/^ +/, '');
      if (leaf.text === '') continue;
      prevSpace = leaf.text.endsWith(' ');
      lastText = leaf;
    } else if (leaf.tag === 'br') {
      if (lastText) lastText.text = lastText.text.replace(/ +$/, '');
      prevSpace = true;
      lastText = null;
    } else {
      prevSpace = false;
      lastText = null;
    }
  }
  for (let i = leaves.length - 1; i >= 0; i--) {
    const leaf = leaves[i];
    if (leaf.kind !== 'text') {
      if (leaf.tag === 'img') break;
      continue;
    }
    leaf.text = leaf.text.replace(/ +$/, '');
    if (leaf.text !== '') break;
  }
}
