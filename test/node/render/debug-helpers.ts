// Builds an Extraction from a parsed page and chosen labels/probabilities (the debug view's input, no model).
import type { DomNode } from '../../../src/core/parse/dom.js';
import { extractMetadata } from '../../../src/core/metadata/metadata.js';
import { parsePage, type Page } from '../../../src/core/blocks/page.js';
import { countWords, renderText } from '../../../src/core/render/text.js';
import type { BlockResult, Extraction, Label } from '../../../src/types.js';

export const ARTICLE_PAGE = `<!DOCTYPE html><html lang="en"><head><title>Night trains are back | Rail Weekly</title>
<meta name="author" content="Ada Lovelace"><meta property="article:published_time" content="2024-05-02T09:00:00Z">
<meta property="og:site_name" content="Rail Weekly"></head><body>
<nav class="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>
<article id="story"><h1>Night trains are back</h1>
<p class="byline">By Ada Lovelace</p>
<p>Across Europe, sleeper services that were cut a decade ago are running again, and they are full.</p>
<p>Operators say demand comes from travellers who want to avoid short flights &lt;and&gt; arrive rested.</p>
<ul><li>Vienna to Paris</li><li>Brussels to Berlin</li></ul>
</article>
<aside class="related"><h3>Related</h3><a href="/x">Ten best rail apps</a></aside>
<footer>© 2024 Rail Weekly · <a href="/privacy">Privacy</a></footer></body></html>`;

/** Blocks whose text matches `drop` get label 0 and a low probability; the rest label 1. */
export function extractionFromLabels(html: string, drop: RegExp, url = 'https://rail.example/night-trains'): {
  extraction: Extraction;
  page: Page;
} {
  const page = parsePage(html, { url });
  const labels = new Uint8Array(page.blocks.length);
  const blocks: BlockResult[] = page.blocks.map((b, i) => {
    const label: Label = drop.test(b.text) ? 0 : 1;
    labels[i] = label;
    return {
      index: i,
      text: b.text,
      tags: b.tags,
      label,
      probability: label === 1 ? 0.6 + 0.4 * ((i % 5) / 4) : 0.05 + 0.05 * (i % 3),
      blockBreakAfter: b.props.blockBreakAfter,
    };
  });
  const text = renderText(blocks, labels);
  const metadata = extractMetadata(page.document as DomNode, { url });
  const extraction: Extraction = {
    text,
    title: metadata.title,
    metadata,
    wordCount: countWords(text),
    blocks,
    modelVersion: 'labels-by-hand',
    featureSet: 'pith',
    decoder: 'viterbi',
    truncated: false,
    timings: { parseMs: 1, featuresMs: 0, modelMs: 0, viterbiMs: 0, renderMs: 0, totalMs: 1 },
  };
  return { extraction, page };
}
