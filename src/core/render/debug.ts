// A self-contained HTML page that shows why each block was kept or dropped: a summary (kept words, decoder,
// model) and a jump to the first kept block on top, then the blocks in order, kept ones highlighted, each with its
// content probability as a bar, its merged tag chain and its CDOM ancestry. Runs of dropped blocks are folded in a
// <details>; radio buttons with :checked selectors show all, only kept or only dropped blocks.
// No scripts, no external resources; every page-derived string is escaped.

import type { BlockResult, CdomNode, Extraction } from '../../types.js';
import { escapeHtmlAttr, escapeHtmlText } from './html.js';
// container: the predicted main-content container is named in the header and its blocks marked.
import { blocksInside } from '../features/container.js';
import { predictContainer } from '../model/container-model.js';

/** What the debug view reads of the parsed page. */
export interface DebugPage {
  blocks: readonly CdomNode[];
  /** CDOM root and <title> (a parsed Page has both): with them the predicted container is shown. */
  root?: CdomNode | null;
  title?: string | null;
}

export interface DebugOptions {
  /** Characters of block text shown (the rest is cut with "…"). */
  maxTextChars?: number;
  /** Ancestor levels shown in the path. */
  maxPathDepth?: number;
}

const STYLE = `
:root { color-scheme: light; --kept: #dff3e4; --kept-edge: #1e8e3e; --drop: #f6f6f6; --drop-edge: #c8c8c8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f1f1f; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid #ddd; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 6px; }
.summary { display: flex; flex-wrap: wrap; gap: 6px 18px; color: #444; font-size: 13px; }
.summary b { color: #111; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 10px 0 0; font-size: 13px; }
dl.meta dt { color: #666; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.legend { margin-top: 8px; font-size: 12px; color: #555; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 8px; border-left: 4px solid; }
.legend .k { background: var(--kept); border-color: var(--kept-edge); }
.legend .d { background: var(--drop); border-color: var(--drop-edge); }
ol.blocks { list-style: none; margin: 0; padding: 12px 24px 32px; }
li.block { display: grid; grid-template-columns: 56px 150px 1fr; gap: 4px 12px; padding: 6px 10px; margin: 3px 0;
  border-left: 4px solid var(--drop-edge); background: var(--drop); color: #6b6b6b; }
li.block.kept { border-left-color: var(--kept-edge); background: var(--kept); color: #111; }
li.block.break-after { margin-bottom: 12px; }
.idx { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; color: #888; }
.prob { display: flex; align-items: center; gap: 6px; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.bar { flex: 1; height: 8px; background: #e2e2e2; border-radius: 4px; overflow: hidden; }
.bar > i { display: block; height: 100%; background: #9aa0a6; }
li.kept .bar > i { background: var(--kept-edge); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.tags { grid-column: 2 / 4; font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; color: #777; overflow-wrap: anywhere; }
.tags .chain { color: #3c4043; font-weight: 600; }
li.block.in-container { box-shadow: inset -4px 0 0 #1a73e8; }
.legend .c { border-color: #1a73e8; }
.lead { display: flex; flex-wrap: wrap; gap: 8px 22px; align-items: baseline; margin: 4px 0 8px; font-size: 15px; }
.lead b { font-size: 20px; }
.filter { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 10px; font-size: 13px; }
.filter label, .filter a { padding: 3px 10px; border: 1px solid #c8c8c8; border-radius: 14px; cursor: pointer; color: #1f1f1f; text-decoration: none; background: #fff; }
.filter a { border-color: var(--kept-edge); color: var(--kept-edge); }
input.show { position: absolute; opacity: 0; pointer-events: none; }
#show-all:checked ~ header label[for=show-all], #show-kept:checked ~ header label[for=show-kept],
#show-dropped:checked ~ header label[for=show-dropped] { background: #1f1f1f; border-color: #1f1f1f; color: #fff; }
input.show:focus-visible ~ header .filter { outline: 2px solid #1a73e8; outline-offset: 4px; }
#show-kept:checked ~ ol.blocks > li.fold, #show-kept:checked ~ ol.blocks li.dropped { display: none; }
#show-dropped:checked ~ ol.blocks li.kept { display: none; }
li.fold { margin: 3px 0; }
li.fold > details > summary { cursor: pointer; padding: 4px 10px; border-left: 4px solid var(--drop-edge); background: var(--drop); color: #6b6b6b; font-size: 13px; }
li.fold ol { list-style: none; margin: 0; padding: 0 0 0 12px; }
@media (max-width: 600px) {
  header { padding: 12px 14px; } ol.blocks { padding: 8px 8px 24px; }
  li.block { grid-template-columns: 40px 1fr; padding: 6px 8px; }
  .text, .tags { grid-column: 1 / 3; }
}
`;

function pathOf(block: CdomNode, maxDepth: number): string {
  const parts: string[] = [];
  for (let n = block.parent; n !== null && parts.length < maxDepth; n = n.parent) {
    const tag = n.tags[0] ?? '?';
    const id = n.ids[0] ? `#${n.ids[0]}` : '';
    const cls = (n.classNames[0] ?? []).slice(0, 2).map((c) => `.${c}`).join('');
    parts.push(tag + id + cls);
  }
  if (parts.length === maxDepth) parts.push('…');
  return parts.reverse().join(' › ');
}

function chainOf(block: CdomNode | undefined, tags: readonly string[]): string {
  if (!block) return tags.join(' › ');
  return tags
    .map((t, i) => {
      const id = block.ids[i] ? `#${block.ids[i]}` : '';
      const cls = (block.classNames[i] ?? []).slice(0, 2).map((c) => `.${c}`).join('');
      return t + id + cls;
    })
    .join(' › ');
}

/** The debug page for one extraction. `page` gives the CDOM ancestry of each block. */
export function renderDebugHtml(extraction: Extraction, page: DebugPage, options: DebugOptions = {}): string {
  const maxText = options.maxTextChars ?? 400;
  const maxDepth = options.maxPathDepth ?? 6;
  const kept = extraction.blocks.filter((b) => b.label === 1).length;
  const m = extraction.metadata;
  const metaRows: Array<[string, string | null]> = [
    ['title', m.title],
    ['author', m.author],
    ['published', m.publishedDate],
    ['modified', m.modifiedDate],
    ['language', m.language],
    ['site', m.siteName],
    ['canonical', m.canonicalUrl],
    ['image', m.image],
    ['description', m.description],
  ];
  const t = extraction.timings;
  // container: the predicted main-content container (src/core/model/container-model.ts), null without a root
  const container = page.root ? predictContainer({ root: page.root, blocks: page.blocks, title: page.title ?? null }) : null;
  const inContainer = blocksInside(page, container?.node ?? null);
  const total = extraction.blocks.length;
  const firstKept = extraction.blocks.find((b) => b.label === 1)?.index ?? -1;
  let out =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>pith debug: ${escapeHtmlText(extraction.title ?? '(untitled)')}</title>` +
    `<style>${STYLE}</style></head><body>` +
    // The filter's radio buttons come first: the :checked ~ selectors reach the header and the list after them.
    '<input type="radio" name="show" id="show-all" class="show" checked>' +
    '<input type="radio" name="show" id="show-kept" class="show">' +
    '<input type="radio" name="show" id="show-dropped" class="show"><header>' +
    `<h1>${escapeHtmlText(extraction.title ?? '(untitled)')}</h1>` +
    '<div class="lead">' +
    `<span><b>${extraction.wordCount}</b> words kept</span>` +
    `<span><b>${kept}</b> of ${total} blocks</span>` +
    `<span>decoder <b>${escapeHtmlText(extraction.decoder)}</b></span>` +
    `<span>model <b>${escapeHtmlText(extraction.modelVersion)}</b> (${escapeHtmlText(extraction.featureSet)})</span>` +
    '</div><div class="summary">' +
    `<span>${t.totalMs.toFixed(1)} ms (parse ${t.parseMs.toFixed(1)}, features ${t.featuresMs.toFixed(1)}, model ${t.modelMs.toFixed(1)}, page stage ${(t.pageMs ?? 0).toFixed(1)}, viterbi ${t.viterbiMs.toFixed(1)}, render ${t.renderMs.toFixed(1)})</span>` +
    (container?.node
      ? `<span class="container">container <b>${escapeHtmlText(chainOf(container.node, container.node.tags))}</b> (score ${container.score.toFixed(2)}, ${inContainer.reduce((a, b) => a + b, 0)} blocks)</span>`
      : '') +
    (extraction.truncated ? `<span><b>truncated</b>: ${escapeHtmlText(extraction.truncatedReason ?? '')}</span>` : '') +
    '</div><nav class="filter">' +
    (firstKept >= 0 ? `<a href="#block-${firstKept}">jump to the first kept block (#${firstKept})</a>` : '<span>nothing was kept</span>') +
    `<label for="show-all">all ${total}</label><label for="show-kept">kept ${kept}</label><label for="show-dropped">dropped ${total - kept}</label>` +
    '</nav><dl class="meta">';
  for (const [k, v] of metaRows) if (v !== null) out += `<dt>${k}</dt><dd>${escapeHtmlText(v)}</dd>`;
  out +=
    '</dl><div class="legend"><span class="k">kept</span><span class="d">dropped</span>' +
    (container?.node ? '<span class="c">right edge: inside the predicted container</span>' : '') +
    'bar: probability of content from the unary net; labels after Viterbi decoding; runs of dropped blocks are folded</div></header><ol class="blocks">';
  const blocks = extraction.blocks;
  for (let i = 0; i < blocks.length; ) {
    if (blocks[i].label === 1) {
      out += blockItem(blocks[i], page, inContainer, maxText, maxDepth);
      i++;
      continue;
    }
    let j = i;
    while (j < blocks.length && blocks[j].label !== 1) j++;
    // A run of dropped blocks, folded: its first words say what it is.
    const preview = blocks[i].text.trim().slice(0, 60);
    out +=
      `<li class="fold"><details><summary>${j - i} dropped block${j - i === 1 ? '' : 's'} (#${blocks[i].index}${j - i > 1 ? `–#${blocks[j - 1].index}` : ''})` +
      (preview === '' ? '' : `: ${escapeHtmlText(preview)}${blocks[i].text.trim().length > 60 ? '…' : ''}`) +
      '</summary><ol>';
    for (let k = i; k < j; k++) out += blockItem(blocks[k], page, inContainer, maxText, maxDepth);
    out += '</ol></details></li>';
    i = j;
  }
  out += '</ol></body></html>';
  return out;
}

function blockItem(b: BlockResult, page: DebugPage, inContainer: ArrayLike<number>, maxText: number, maxDepth: number): string {
  const cdom = page.blocks[b.index];
  const p = Number.isFinite(b.probability) ? Math.min(1, Math.max(0, b.probability)) : 0;
  const text = b.text.length > maxText ? b.text.slice(0, maxText) + '…' : b.text;
  const cls = `block ${b.label === 1 ? 'kept' : 'dropped'}${b.blockBreakAfter ? ' break-after' : ''}${inContainer[b.index] === 1 ? ' in-container' : ''}`;
  return (
    `<li class="${cls}" data-index="${b.index}" data-label="${b.label}" data-probability="${p.toFixed(4)}" id="block-${b.index}">` +
    `<span class="idx">#${b.index}</span>` +
    `<span class="prob"><span class="bar" title="${escapeHtmlAttr(p.toFixed(3))}"><i style="width:${(p * 100).toFixed(1)}%"></i></span>${p.toFixed(2)}</span>` +
    `<span class="text">${escapeHtmlText(text)}</span>` +
    `<span class="tags"><span class="chain">${escapeHtmlText(chainOf(cdom, b.tags))}</span>` +
    (cdom ? ` ⟵ ${escapeHtmlText(pathOf(cdom, maxDepth))}` : '') +
    '</span></li>'
  );
}
