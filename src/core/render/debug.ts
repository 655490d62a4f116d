// A self-contained HTML page that shows why each block was kept or dropped: the blocks in order, kept ones
// highlighted, each with its content probability as a bar, its merged tag chain and its CDOM ancestry.
// No scripts, no external resources; every page-derived string is escaped.

import type { CdomNode, Extraction } from '../../types.js';
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
  let out =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>pith debug: ${escapeHtmlText(extraction.title ?? '(untitled)')}</title>` +
    `<style>${STYLE}</style></head><body><header>` +
    `<h1>${escapeHtmlText(extraction.title ?? '(untitled)')}</h1>` +
    '<div class="summary">' +
    `<span><b>${kept}</b> of <b>${extraction.blocks.length}</b> blocks kept</span>` +
    `<span><b>${extraction.wordCount}</b> words</span>` +
    `<span>model <b>${escapeHtmlText(extraction.modelVersion)}</b> (${escapeHtmlText(extraction.featureSet)})</span>` +
    `<span>${t.totalMs.toFixed(1)} ms (parse ${t.parseMs.toFixed(1)}, features ${t.featuresMs.toFixed(1)}, model ${t.modelMs.toFixed(1)}, page stage ${(t.pageMs ?? 0).toFixed(1)}, viterbi ${t.viterbiMs.toFixed(1)}, render ${t.renderMs.toFixed(1)})</span>` +
    (container?.node
      ? `<span class="container">container <b>${escapeHtmlText(chainOf(container.node, container.node.tags))}</b> (score ${container.score.toFixed(2)}, ${inContainer.reduce((a, b) => a + b, 0)} blocks)</span>`
      : '') +
    (extraction.truncated ? `<span><b>truncated</b>: ${escapeHtmlText(extraction.truncatedReason ?? '')}</span>` : '') +
    '</div><dl class="meta">';
  for (const [k, v] of metaRows) if (v !== null) out += `<dt>${k}</dt><dd>${escapeHtmlText(v)}</dd>`;
  out +=
    '</dl><div class="legend"><span class="k">kept</span><span class="d">dropped</span>' +
    (container?.node ? '<span class="c">right edge: inside the predicted container</span>' : '') +
    'bar: probability of content from the unary net; labels after Viterbi decoding</div></header><ol class="blocks">';
  for (const b of extraction.blocks) {
    const cdom = page.blocks[b.index];
    const p = Number.isFinite(b.probability) ? Math.min(1, Math.max(0, b.probability)) : 0;
    const text = b.text.length > maxText ? b.text.slice(0, maxText) + '…' : b.text;
    const cls = `block ${b.label === 1 ? 'kept' : 'dropped'}${b.blockBreakAfter ? ' break-after' : ''}${inContainer[b.index] === 1 ? ' in-container' : ''}`;
    out +=
      `<li class="${cls}" data-index="${b.index}" data-label="${b.label}" data-probability="${p.toFixed(4)}">` +
      `<span class="idx">#${b.index}</span>` +
      `<span class="prob"><span class="bar" title="${escapeHtmlAttr(p.toFixed(3))}"><i style="width:${(p * 100).toFixed(1)}%"></i></span>${p.toFixed(2)}</span>` +
      `<span class="text">${escapeHtmlText(text)}</span>` +
      `<span class="tags"><span class="chain">${escapeHtmlText(chainOf(cdom, b.tags))}</span>` +
      (cdom ? ` ⟵ ${escapeHtmlText(pathOf(cdom, maxDepth))}` : '') +
      '</span></li>';
  }
  out += '</ol></body></html>';
  return out;
}
