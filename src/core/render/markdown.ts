// Markdown (CommonMark + GFM tables) of the kept content. The structure comes from the clean tree that
// content-tree.ts builds in one walk over the page's DOM (our own: no maintained HTML->markdown library runs on
// a minimal DOM in workerd without a DOM shim).

import type { DomNode } from '../parse/dom.js';
import { BLOCK_TAGS, type ContentElement, type ContentNode, isBlockNode, textOf } from './content-node.js';
import { buildContentTree, type ContentTreeOptions } from './content-tree.js';
import { stripInvisible } from './text.js';

/** Markdown of the kept Text nodes under `root` (the page's document). '' when nothing is kept. */
export function renderMarkdown(root: DomNode, kept: ReadonlySet<unknown>, options: ContentTreeOptions = {}): string {
  return markdownFromTree(buildContentTree(root, kept, options));
}

/** Markdown of an already built clean tree. */
export function markdownFromTree(blocks: readonly ContentNode[]): string {
  return renderBlocks(blocks, false);
}

interface InlineCtx {
  /** In a table cell: line breaks become <br>, pipes are escaped. */
  cell: boolean;
  /** In a heading: line breaks become spaces. */
  heading: boolean;
}

const PLAIN: InlineCtx = { cell: false, heading: false };
const CELL: InlineCtx = { cell: true, heading: false };
const HEADING: InlineCtx = { cell: false, heading: true };

const TEXT_SPECIAL = /[\\`*[\]]|<(?=[A-Za-z/!?])|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
const PIPE = /\|/g;
const NEWLINES = /\n+/g;
const LINE_START_HASH = /^(\s{0,3})(#{1,6})(?=\s|$)/;
const LINE_START_QUOTE = /^(\s{0,3})>/;
const LINE_START_BULLET = /^(\s{0,3})([-+])(?=\s|$)/;
const LINE_START_ORDERED = /^(\s{0,3}\d{1,9})([.)])(?=\s|$)/;
const LINE_START_SETEXT = /^(\s{0,3})([=-])(?=[=-]*\s*$)/;
const LINE_START_FENCE = /^(\s{0,3})(~{3,})/;
const BACKTICK_RUN = /`+/g;
const URL_PARENS = /[()\s<>]/g;
const EDGE_SPACE = /^(\s*)([\s\S]*?)(\s*)$/;
const HARD_BREAK = '  \n';

function escapeText(text: string): string {
  return stripInvisible(text).replace(TEXT_SPECIAL, '\\$&');
}

/** Escapes what would turn the start of a paragraph line into a heading, quote, list, setext underline or fence. */
function escapeLineStarts(text: string): string {
  if (text === '') return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    lines[i] = lines[i]
      .replace(LINE_START_HASH, '$1\\$2')
      .replace(LINE_START_QUOTE, '$1\\>')
      .replace(LINE_START_BULLET, '$1\\$2')
      .replace(LINE_START_ORDERED, '$1\\$2')
      .replace(LINE_START_SETEXT, '$1\\$2')
      .replace(LINE_START_FENCE, '$1\\$2');
  }
  return lines.join('\n');
}

function escapeUrl(url: string): string {
  return url.replace(URL_PARENS, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

function escapeTitle(title: string): string {
  return title.replace(/["\\]/g, '\\$&');
}

/** Wraps inline markup around `inner`, keeping its edge spaces outside the delimiters. */
function wrap(open: string, inner: string, close: string): string {
  const m = EDGE_SPACE.exec(inner)!;
  if (m[2] === '') return inner;
  return `${m[1]}${open}${m[2]}${close}${m[3]}`;
}

function longestRun(text: string, re: RegExp): number {
  let max = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) max = Math.max(max, m[0].length);
  return max;
}

function renderInline(nodes: readonly ContentNode[], ctx: InlineCtx): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') {
      let t = escapeText(n.text);
      if (ctx.cell) t = t.replace(PIPE, '\\|');
      out += t;
      continue;
    }
    switch (n.tag) {
      case 'br':
        out += ctx.cell ? '<br>' : ctx.heading ? ' ' : HARD_BREAK;
        break;
      case 'em':
      case 'i':
        out += wrap('*', renderInline(n.children, ctx), '*');
        break;
      case 'strong':
      case 'b':
        out += wrap('**', renderInline(n.children, ctx), '**');
        break;
      case 'code': {
        const raw = stripInvisible(textOf(n.children)).replace(NEWLINES, ' ');
        if (raw.trim() === '') {
          out += raw;
          break;
        }
        const fence = '`'.repeat(longestRun(raw, BACKTICK_RUN) + 1);
        const pad = raw.startsWith('`') || raw.endsWith('`') ? ' ' : '';
        let code = `${fence}${pad}${raw}${pad}${fence}`;
        if (ctx.cell) code = code.replace(PIPE, '\\|');
        out += code;
        break;
      }
      case 'a': {
        const inner = renderInline(n.children, ctx);
        const href = n.attrs.href;
        if (!href || inner.trim() === '') {
          out += inner;
          break;
        }
        const title = n.attrs.title ? ` "${escapeTitle(n.attrs.title)}"` : '';
        const m = EDGE_SPACE.exec(inner)!;
        out += `${m[1]}[${m[2]}](${escapeUrl(href)}${title})${m[3]}`;
        break;
      }
      case 'img': {
        const alt = escapeText(n.attrs.alt ?? '').replace(NEWLINES, ' ');
        const title = n.attrs.title ? ` "${escapeTitle(n.attrs.title)}"` : '';
        out += `![${ctx.cell ? alt.replace(PIPE, '\\|') : alt}](${escapeUrl(n.attrs.src ?? '')}${title})`;
        break;
      }
      default: {
        // sup, sub (no markdown form: the content alone); a stray block: its content between spaces
        const e = n as ContentElement;
        const inner = renderInline(e.children, ctx);
        out += BLOCK_TAGS.has(e.tag) ? ` ${inner} ` : inner;
      }
    }
  }
  return out;
}

/** A paragraph-level run of inline nodes. */
/** Two or more line breaks in a row (`<br><br>`): a paragraph break, as a reader sees it. */
const BREAK_RUN = / {2}\n(?:[ \t]* {2}\n)+[ \t]*/g;

function renderParagraph(nodes: readonly ContentNode[]): string {
  return escapeLineStarts(renderInline(nodes, PLAIN).trim().replace(BREAK_RUN, '\n\n'));
}

/** Blocks and inline runs in order, joined by blank lines (or single newlines when `tight`). */
function renderBlocks(nodes: readonly ContentNode[], tight: boolean): string {
  const parts: string[] = [];
  let run: ContentNode[] = [];
  const flush = () => {
    if (run.length > 0) {
      const p = renderParagraph(run);
      if (p !== '') parts.push(p);
      run = [];
    }
  };
  for (const n of nodes) {
    if (isBlockNode(n)) {
      flush();
      const b = renderBlock(n);
      if (b !== '') parts.push(b);
    } else run.push(n);
  }
  flush();
  if (!tight) return parts.join('\n\n');
  // In a list item: a paragraph followed by lists stays tight; several paragraphs need blank lines.
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out += parts[i].startsWith('- ') || /^\d+\. /.test(parts[i]) ? '\n' : '\n\n';
    out += parts[i];
  }
  return out;
}

function indent(text: string, by: string): string {
  return text.replace(/\n(?!\n|$)/g, '\n' + by);
}

function renderBlock(n: ContentElement): string {
  switch (n.tag) {
    case 'p':
    case 'figcaption':
    case 'dt':
      return n.tag === 'dt' ? wrap('**', renderInline(n.children, PLAIN).trim(), '**') : renderParagraph(n.children);
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const text = renderInline(n.children, HEADING).replace(NEWLINES, ' ').trim();
      return text === '' ? '' : `${'#'.repeat(Number(n.tag[1]))} ${text}`;
    }
    case 'ul':
    case 'ol': {
      const lines: string[] = [];
      let i = 1;
      for (const item of n.children) {
        if (item.kind !== 'el') continue;
        const body = renderBlocks(item.tag === 'li' ? item.children : [item], true);
        if (body === '') continue;
        const marker = n.tag === 'ol' ? `${i}. ` : '- ';
        i++;
        lines.push(marker + indent(body, ' '.repeat(marker.length)));
      }
      return lines.join('\n');
    }
    case 'li':
    case 'dd':
    case 'figure':
    case 'td':
    case 'th':
    case 'tr':
    case 'thead':
    case 'tbody':
      return renderBlocks(n.children, false);
    case 'blockquote': {
      const body = renderBlocks(n.children, false);
      if (body === '') return '';
      return body
        .split('\n')
        .map((line) => (line === '' ? '>' : '> ' + line))
        .join('\n');
    }
    case 'pre': {
      const code = n.children[0];
      const text = stripInvisible(code && code.kind === 'el' ? textOf(code.children) : textOf(n.children));
      const language = code && code.kind === 'el' ? (code.attrs.language ?? '') : '';
      const fence = '`'.repeat(Math.max(3, longestRun(text, BACKTICK_RUN) + 1));
      return `${fence}${language}\n${text}\n${fence}`;
    }
    case 'table':
      return renderTable(n);
    case 'dl':
      return renderBlocks(n.children, false);
    case 'hr':
      return '---';
    default:
      return renderBlocks(n.children, false);
  }
}

function renderTable(table: ContentElement): string {
  const rows: ContentElement[] = [];
  for (const section of table.children) {
    if (section.kind !== 'el') continue;
    if (section.tag === 'tr') rows.push(section);
    else for (const r of section.children) if (r.kind === 'el' && r.tag === 'tr') rows.push(r);
  }
  if (rows.length === 0) return '';
  const grid: string[][] = [];
  let cols = 0;
  for (const row of rows) {
    const cells: string[] = [];
    for (const cell of row.children) {
      if (cell.kind !== 'el') continue;
      cells.push(renderInline(cell.children, CELL).replace(NEWLINES, ' ').trim());
      for (let k = 1; k < (cell.attrs.colspan ?? 1); k++) cells.push('');
    }
    cols = Math.max(cols, cells.length);
    grid.push(cells);
  }
  const line = (cells: string[]) => {
    const padded = cells.slice();
    while (padded.length < cols) padded.push('');
    return '| ' + padded.join(' | ') + ' |';
  };
  const out = [line(grid[0]), line(new Array<string>(cols).fill('---'))];
  for (let i = 1; i < grid.length; i++) out.push(line(grid[i]));
  return out.join('\n');
}
