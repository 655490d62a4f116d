// Renderer tests without a model: parse a page, choose the labels, build the kept set.
import type { DomNode } from '../../../src/core/parse/dom.js';
import { parsePage, type Page } from '../../../src/core/blocks/page.js';
import { keptTextNodes } from '../../../src/core/render/content-tree.js';
import { resolveBaseUrl } from '../../../src/core/render/url-policy.js';
import { renderHtml } from '../../../src/core/render/html.js';
import { renderMarkdown } from '../../../src/core/render/markdown.js';

export interface Rendered {
  page: Page;
  labels: Uint8Array;
  kept: Set<unknown>;
  baseUrl: string | null;
}

/** Parses `html` and keeps every block whose text does not match `drop` (all blocks when `drop` is omitted). */
export function keep(html: string, drop?: RegExp, url = 'https://example.com/articles/post.html'): Rendered {
  const page = parsePage(html, { url });
  const labels = new Uint8Array(page.blocks.length);
  page.blocks.forEach((b, i) => {
    labels[i] = drop && drop.test(b.text) ? 0 : 1;
  });
  const document = page.document as DomNode;
  return { page, labels, kept: keptTextNodes(page.blocks, labels), baseUrl: resolveBaseUrl(document, url) };
}

export function markdownOf(html: string, drop?: RegExp, url?: string): string {
  const r = keep(html, drop, url);
  return renderMarkdown(r.page.document as DomNode, r.kept, { baseUrl: r.baseUrl });
}

export function htmlOf(html: string, drop?: RegExp, url?: string): string {
  const r = keep(html, drop, url);
  return renderHtml(r.page.document as DomNode, r.kept, { baseUrl: r.baseUrl });
}

export const doc = (body: string, head = ''): string =>
  `<!DOCTYPE html><html><head><title>T</title>${head}</head><body>${body}</body></html>`;
