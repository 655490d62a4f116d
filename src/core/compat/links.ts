// Full-Text RSS's `links=` option on pith's clean HTML: 'preserve' (as is), 'remove' (the link text stays, the
// <a> goes) or 'footnotes' (each link becomes its text plus a numbered note, the URLs listed at the end). The
// input is pith's own sanitised HTML (render/html.ts), whose <a> tags are always `<a href="...">` with escaped
// attributes, so a regular expression reads them exactly. Pure.

export const LINK_POLICIES = ['preserve', 'remove', 'footnotes'] as const;
export type LinkPolicy = (typeof LINK_POLICIES)[number];

export function isLinkPolicy(value: string): value is LinkPolicy {
  return (LINK_POLICIES as readonly string[]).includes(value);
}

const OPEN_A = /<a\b[^>]*>/g;
const CLOSE_A = /<\/a>/g;
const LINK = /<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g;

/** `html` (pith's sanitised article) with its links handled as `policy` says. */
export function applyLinkPolicy(html: string, policy: LinkPolicy): string {
  if (policy === 'preserve') return html;
  if (policy === 'remove') return html.replace(OPEN_A, '').replace(CLOSE_A, '');
  const notes: string[] = [];
  const body = html.replace(LINK, (_whole, href: string, text: string) => {
    notes.push(href);
    return `${text}<sup>[${notes.length}]</sup>`;
  });
  if (notes.length === 0) return body;
  return `${body}\n<hr>\n<ol>${notes.map((href) => `<li>${href}</li>`).join('')}</ol>`;
}
