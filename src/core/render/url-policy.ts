// Which URLs the clean tree may carry: links and image sources are checked against a scheme allowlist and
// resolved against the page's base URL; the real source of a lazy-loaded or responsive image is picked here.

import { type DomElement, type DomNode, firstChildOf } from '../parse/dom.js';

const URL_TABS = /[\t\n\r]/g;
const URL_EDGES = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const COLON_BEFORE_PATH = /^[^/?#]*:/;
const LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);
const IMAGE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/**
 * A URL safe to emit, or null. Strips what browsers strip (tabs and newlines anywhere, controls and spaces at the
 * ends) before looking at the scheme, so `java&#9;script:` and ` JAVASCRIPT:` are caught; only the allowlisted
 * schemes pass (no javascript:, vbscript:, data:, file:, blob:). Resolved against `baseUrl` when there is one.
 */
export function safeUrl(raw: string, baseUrl: string | null, kind: 'link' | 'image'): string | null {
  const s = raw.replace(URL_EDGES, '').replace(URL_TABS, '');
  if (s === '') return null;
  const allowed = kind === 'link' ? LINK_PROTOCOLS : IMAGE_PROTOCOLS;
  let url: URL;
  if (baseUrl) {
    try {
      url = new URL(s, baseUrl);
    } catch {
      return null;
    }
  } else if (URL_SCHEME.test(s)) {
    try {
      url = new URL(s);
    } catch {
      return null;
    }
  } else {
    // Relative and nothing to resolve against: keep it, unless something scheme-like hides before the path.
    return COLON_BEFORE_PATH.test(s) ? null : s;
  }
  return allowed.has(url.protocol) ? url.href : null;
}

/** The base URL for a page: `<base href>` resolved against the page URL (http(s) only), else the page URL. */
export function resolveBaseUrl(document: DomNode, pageUrl: string | undefined): string | null {
  let page: URL | null = null;
  if (pageUrl) {
    try {
      page = new URL(pageUrl);
    } catch {
      page = null;
    }
  }
  const base = findBaseHref(document);
  if (base !== null) {
    try {
      const u = page ? new URL(base, page) : new URL(base);
      if (IMAGE_PROTOCOLS.has(u.protocol)) return u.href;
    } catch {
      // unusable <base>: fall back to the page URL
    }
  }
  return page && IMAGE_PROTOCOLS.has(page.protocol) ? page.href : null;
}

function findBaseHref(document: DomNode): string | null {
  const scan = (parent: DomNode, depth: number): string | null => {
    for (let c = firstChildOf(parent); c; c = c.nextSibling) {
      if (c.nodeType !== 1) continue;
      const el = c as DomElement;
      if (el.localName === 'base') {
        const href = el.getAttribute('href');
        if (href !== null) return href;
      } else if (depth < 2 && (el.localName === 'html' || el.localName === 'head')) {
        const r = scan(el, depth + 1);
        if (r !== null) return r;
      }
    }
    return null;
  };
  return scan(document, 0);
}

/**
 * The largest candidate of a `srcset` (by `w`, else `x` descriptor; none means 1x). Parses per the HTML rules:
 * a URL is a run of non-space characters (commas inside it are fine), descriptors run to the next comma.
 */
export function largestSrcsetUrl(srcset: string): string | null {
  let best: string | null = null;
  let bestScore = -1;
  const n = srcset.length;
  let i = 0;
  while (i < n) {
    while (i < n && (srcset[i] === ',' || isHtmlSpace(srcset.charCodeAt(i)))) i++;
    if (i >= n) break;
    let j = i;
    while (j < n && !isHtmlSpace(srcset.charCodeAt(j))) j++;
    let url = srcset.slice(i, j);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let k = j;
      let depth = 0;
      while (k < n && (depth > 0 || srcset[k] !== ',')) {
        if (srcset[k] === '(') depth++;
        else if (srcset[k] === ')') depth = Math.max(0, depth - 1);
        k++;
      }
      descriptor = srcset.slice(j, k).trim();
      j = k;
    }
    i = j;
    if (url === '') continue;
    let score = 1;
    const d = descriptor.match(/([\d.]+)\s*([wx])/i);
    if (d) {
      const v = Number.parseFloat(d[1]);
      if (Number.isFinite(v)) score = d[2].toLowerCase() === 'w' ? v : v;
    }
    if (score > bestScore) {
      best = url;
      bestScore = score;
    }
  }
  return best;
}

/** HTML's white space: space, tab, line feed, form feed, carriage return. */
export function isHtmlSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

const IMAGE_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url', 'src'] as const;

/** The image's real source: largest (data-)srcset, then the lazy-loading attributes, then src; data: URLs skipped. */
export function pickImageSrc(el: DomElement, baseUrl: string | null): string | null {
  for (const attr of ['data-srcset', 'srcset']) {
    const v = el.getAttribute(attr);
    if (v) {
      const u = largestSrcsetUrl(v);
      const safe = u === null ? null : safeUrl(u, baseUrl, 'image');
      if (safe !== null) return safe;
    }
  }
  for (const attr of IMAGE_ATTRS) {
    const v = el.getAttribute(attr);
    if (v) {
      const safe = safeUrl(v, baseUrl, 'image');
      if (safe !== null) return safe;
    }
  }
  return null;
}
