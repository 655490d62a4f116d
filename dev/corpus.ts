// The WCXB dev corpus: locating it, decoding its pages, reading the committed splits.
// Shared by training (dataset dump, splits) and evaluation. Node only. The train/val split is in ./splits.ts.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeHtml } from '../src/io/charset.js';

export const PAGE_TYPES = [
  'article',
  'service',
  'product',
  'collection',
  'forum',
  'listing',
  'documentation',
] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export interface GroundTruth {
  /** Complete main content as plain text ('' when the annotation has none). */
  mainContent: string;
  /** Snippets a correct extraction must contain. */
  with: string[];
  /** Boilerplate snippets a correct extraction must not contain. */
  without: string[];
  title: string | null;
  author: string | null;
  publishDate: string | null;
}

export interface CorpusPage {
  /** File id, e.g. "0001". */
  id: string;
  /** Page URL ('' when the annotation has none and the HTML names no canonical URL). */
  url: string;
  /** Host without a leading "www.", lower-cased ('' when unknown). */
  domain: string;
  pageType: PageType;
  /** Decoded HTML (src/io/charset.ts: BOM, then the document's declaration, else UTF-8). */
  html: string;
  groundTruth: GroundTruth;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Directory of the corpus: $PITH_DATA_DIR, else ../shared/data/wcxb-dev next to the repo. */
export function dataDir(): string {
  const dir = process.env.PITH_DATA_DIR
    ? resolve(process.env.PITH_DATA_DIR)
    : resolve(REPO_ROOT, '..', 'shared', 'data', 'wcxb-dev');
  if (!existsSync(join(dir, 'ground-truth')) || !existsSync(join(dir, 'html'))) {
    throw new Error(
      `WCXB corpus not found at ${dir} (expected ground-truth/ and html/ inside): ` +
        'put the development split of WCXB (published at https://github.com/Murrough-Foley/web-content-extraction-benchmark, ' +
        'CC-BY-4.0; docs/training.md) at ../shared/data/wcxb-dev next to the repository, or set PITH_DATA_DIR to its folder',
    );
  }
  return dir;
}

/** All page ids of the corpus, sorted. */
export function listPageIds(dir = dataDir()): string[] {
  return readdirSync(join(dir, 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

interface MetadataEntry {
  page_type?: string;
  domain?: string;
}

const metadataCache = new Map<string, Record<string, MetadataEntry>>();
function readMetadata(dir: string): Record<string, MetadataEntry> {
  let meta = metadataCache.get(dir);
  if (!meta) {
    const path = join(dir, 'metadata.json');
    meta = existsSync(path)
      ? ((JSON.parse(readFileSync(path, 'utf8')) as { files?: Record<string, MetadataEntry> }).files ?? {})
      : {};
    metadataCache.set(dir, meta);
  }
  return meta;
}

/** Host of a URL without "www.", lower-cased; '' if it does not parse. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

const CANONICAL_RE = /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)["']|<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)["']/i;

function normalisePageType(raw: string | undefined): PageType {
  const t = (raw ?? '').toLowerCase();
  if (t === 'category') return 'collection';
  return (PAGE_TYPES as readonly string[]).includes(t) ? (t as PageType) : 'article';
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Load one page by id. */
export function loadPage(id: string, dir = dataDir()): CorpusPage {
  const gt = JSON.parse(readFileSync(join(dir, 'ground-truth', `${id}.json`), 'utf8')) as {
    url?: string;
    ground_truth?: Record<string, unknown>;
    _internal?: { page_type?: { primary?: string } };
  };
  const html = decodeHtml(gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))));
  const g = gt.ground_truth ?? {};
  const meta = readMetadata(dir)[id];
  let url = asString(gt.url) || asString(g.url) || '';
  if (!url) {
    const m = CANONICAL_RE.exec(html);
    url = m?.[1] ?? m?.[2] ?? '';
  }
  const domain = domainOf(url) || (meta?.domain ?? '').toLowerCase().replace(/^www\./, '');
  return {
    id,
    url,
    domain,
    pageType: normalisePageType(gt._internal?.page_type?.primary ?? meta?.page_type),
    html,
    groundTruth: {
      mainContent: asString(g.main_content) ?? '',
      with: asStrings(g.with),
      without: asStrings(g.without),
      title: asString(g.title),
      author: asString(g.author),
      publishDate: asString(g.publish_date),
    },
  };
}

/** Lazily iterate over the corpus (optionally only the given ids, in their order). */
export function* iterateCorpus(ids?: string[], dir = dataDir()): Generator<CorpusPage> {
  for (const id of ids ?? listPageIds(dir)) yield loadPage(id, dir);
}

/** Load the whole corpus into memory (about 1,500 pages, a few hundred MB of strings). */
export function loadCorpus(ids?: string[]): CorpusPage[] {
  return [...iterateCorpus(ids)];
}
