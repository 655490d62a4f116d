// The reader view: the clean article as a page a person wants to read. Title, byline, date and site above the
// article; its images, code and tables styled; a link to the original below; light and dark themes from
// prefers-color-scheme. No script and nothing loaded but the article's own https images: the host serves it with
// READER_CSP. Everything page-derived is escaped; the article HTML is the core's sanitised HTML (html.ts).

import type { Extraction } from '../../types.js';
import { escapeHtmlAttr, escapeHtmlText } from './html.js';

/** The Content-Security-Policy of a reader page: inline styles only, https and data: images, nothing else. */
export const READER_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ReaderOptions {
  /** The URL of the original page (the link at the end, the site name when the page has none). */
  url?: string;
}

const WORDS_PER_MINUTE = 230;

const STYLE = `
:root{color-scheme:light dark;--bg:#fdfcf9;--fg:#1d1d1f;--muted:#5f6368;--rule:#e3e0d8;--code:#f3f1ec;--link:#1a5fb4;--quote:#c8c2b4}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e6e3dc;--muted:#a19e97;--rule:#33342f;--code:#222320;--link:#8ab4f8;--quote:#55544e}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1.125rem/1.65 Charter,"Bitstream Charter","Sitka Text",Cambria,Georgia,serif;overflow-wrap:break-word}
main{max-width:40rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
header{margin-bottom:2rem;border-bottom:1px solid var(--rule);padding-bottom:1.25rem}
.site{margin:0 0 .5rem;font:600 .8rem/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
h1{font:700 clamp(1.75rem,5vw,2.4rem)/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 0 .75rem;letter-spacing:-.01em}
.meta{margin:0;font:.9rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--muted)}
.meta span+span::before{content:"·";margin:0 .5em}
.content h1,.content h2,.content h3,.content h4{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.3;margin:2rem 0 .75rem}
.content h1{font-size:1.6rem}.content h2{font-size:1.4rem}.content h3{font-size:1.2rem}.content h4{font-size:1.05rem}
.content p,.content ul,.content ol,.content dl,.content blockquote,.content pre,.content table,.content figure{margin:0 0 1.2rem}
.content li{margin:.25rem 0}
a{color:var(--link);text-underline-offset:.15em}
img{max-width:100%;height:auto;display:block;margin:1.5rem auto;border-radius:4px}
figure{margin-left:0;margin-right:0}
figcaption{font:.85rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--muted);text-align:center;margin-top:-.75rem}
blockquote{margin-left:0;padding:.1rem 0 .1rem 1.1rem;border-left:3px solid var(--quote);color:var(--muted)}
code,kbd,samp{font:.88em/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:.1em .3em;border-radius:3px}
pre{background:var(--code);padding:1rem;border-radius:6px;overflow-x:auto;line-height:1.45}
pre code{background:none;padding:0;font-size:.85rem}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto;font-size:.95rem}
th,td{border:1px solid var(--rule);padding:.4rem .6rem;text-align:left;vertical-align:top}
hr{border:0;border-top:1px solid var(--rule);margin:2rem 0}
footer{margin-top:3rem;padding-top:1.25rem;border-top:1px solid var(--rule);font:.9rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--muted)}
footer p{margin:0 0 .35rem}
`.trim();

const LEADING_H1 = /^\s*<h1>([\s\S]*?)<\/h1>\s*/;
const TAGS = /<[^>]*>/g;
const SPACES = /\s+/g;

function plain(htmlText: string): string {
  return htmlText.replace(TAGS, '').replace(SPACES, ' ').trim().toLowerCase();
}

function hostOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** A date as the page wrote it (YYYY-MM-DD) in words, e.g. "14 March 2025"; null when it is not one. */
function readableDate(date: string | null): string | null {
  if (date === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (m === null) return null;
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const month = months[Number(m[2]) - 1];
  return month === undefined ? null : `${Number(m[3])} ${month} ${m[1]}`;
}

/** The reader page of an extraction that carries `html` (format 'reader' or 'html'). */
export function renderReaderHtml(extraction: Extraction, options: ReaderOptions = {}): string {
  const m = extraction.metadata;
  const title = extraction.title ?? hostOf(options.url) ?? 'Article';
  let article = extraction.html ?? '';
  // The article usually opens with the headline: it is shown once, in the header.
  const lead = LEADING_H1.exec(article);
  if (lead !== null && plain(lead[1]) === plain(escapeHtmlText(title))) article = article.slice(lead[0].length);
  const host = hostOf(options.url);
  const site = m.siteName ?? host;
  const date = readableDate(m.publishedDate);
  const minutes = Math.max(1, Math.round(extraction.wordCount / WORDS_PER_MINUTE));
  const meta = [
    m.author === null ? '' : `<span class="byline">${escapeHtmlText(m.author)}</span>`,
    date === null ? '' : `<span><time datetime="${escapeHtmlAttr(m.publishedDate ?? '')}">${escapeHtmlText(date)}</time></span>`,
    `<span>${minutes} min read</span>`,
  ].join('');
  const original = options.url === undefined
    ? ''
    : `<p><a href="${escapeHtmlAttr(options.url)}" rel="noopener noreferrer">Read the original${host === null ? '' : ` on ${escapeHtmlText(host)}`}</a></p>`;
  return (
    `<!DOCTYPE html>\n<html${m.language === null ? '' : ` lang="${escapeHtmlAttr(m.language)}"`}>\n<head>\n<meta charset="utf-8">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n' +
    '<meta name="color-scheme" content="light dark">\n' +
    `<title>${escapeHtmlText(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n<main>\n<article>\n<header>\n` +
    (site === null ? '' : `<p class="site">${escapeHtmlText(site)}</p>\n`) +
    `<h1>${escapeHtmlText(title)}</h1>\n<p class="meta">${meta}</p>\n</header>\n` +
    `<div class="content">\n${article}\n</div>\n` +
    `<footer>\n${original}<p>Clean text by pith · ${extraction.wordCount} words</p>\n</footer>\n</article>\n</main>\n</body>\n</html>\n`
  );
}
