// Train/validation split of the WCXB dev corpus, by site, with near-duplicates kept on one side.
//
//   npx tsx training/splits.ts            writes training/splits.json (committed)
//
// 1. Pages whose ground truth has no text are excluded (nothing to label or score).
// 2. Pages are grouped by site: the registrable domain of the URL (blog.x.com and x.com are one site).
// 3. Groups are shuffled with a fixed seed and put into validation while the validation count of every page type
//    stays within 20% of that type (so each type has validation pages), else into training.
// 4. Near-duplicates: MinHash (5-character shingles, 128 hashes) of the page's visible text and of its ground
//    truth, LSH with 64 bands x 2 rows (candidates at J >= 0.4 found with probability > 0.9999), candidates kept
//    when the estimated Jaccard reaches the threshold of the text kind (NEAR_DUPLICATE_JACCARD, justified there). Connected components of the
//    near-duplicate graph (union-find) are clusters; a cluster whose pages straddle the split moves whole site
//    groups to the side holding most of its pages. Clusters and moves are recorded in splits.json.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type CorpusPage, PAGE_TYPES, type PageType, iterateCorpus, listPageIds } from '../dev/corpus.js';
import { SPLITS_PATH } from '../dev/splits.js';
import { LshIndex, minhashOfShingles, shingleHashes } from '../src/core/fingerprint/minhash.js';
import { mulberry32 } from '../dev/rng.js';

export const SPLIT_SEED = 20260101;
export const VAL_SHARE = 0.2;
/**
 * Jaccard thresholds (5-character shingles) per text kind, chosen on this corpus (`npx tsx training/splits.ts
 * --survey` prints the survey):
 * - ground truth 0.8: the same article or the same product text; no cross-site pair reaches even 0.4, so the value is
 *   not critical.
 * - page text 0.4: the page text is mostly template. Every cross-site pair at 0.4 or more is a shared template of one
 *   owner (famousfootwear.com / allenedmonds.com / shoebank.com: one shoe group; allrecipes.com / seriouseats.com:
 *   one publisher); below 0.35 the pairs are unrelated sites that share generic boilerplate. A shared template in
 *   both train and val inflates validation as much as a shared domain does.
 */
export const NEAR_DUPLICATE_JACCARD = { page: 0.4, groundTruth: 0.8 } as const;
/** 64 bands x 2 rows: S-curve midpoint (1/64)^(1/2) = 0.125; P(candidate) at J=0.4 is 1 - 1.4e-5, at 0.8 about 1. */
export const LSH_BANDS = 64;
export const LSH_ROWS = 2;
/** Texts with fewer distinct shingles are not fingerprinted (too short for a meaningful Jaccard). */
export const MIN_SHINGLES = 50;

const MULTI_PART_SLD = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go', 'gv', 'ltd', 'plc']);

/** Registrable domain, approximately: the last two labels, or three under a two-letter country code SLD (x.co.uk). */
export function siteOf(domain: string): string {
  const labels = domain.toLowerCase().split('.').filter(Boolean);
  if (labels.length <= 2) return labels.join('.');
  const tld = labels[labels.length - 1];
  const sld = labels[labels.length - 2];
  const take = tld.length === 2 && MULTI_PART_SLD.has(sld) ? 3 : 2;
  return labels.slice(-take).join('.');
}

const SCRIPT_STYLE_RE = /<(script|style|noscript|template|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT_RE = /<!--[\s\S]*?-->/g;
const TAG_RE = /<[^>]*>/g;
const ENTITY_RE = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;

/** Rough visible text of an HTML page (enough for near-duplicate fingerprints). */
export function visibleText(html: string): string {
  return html
    .replace(COMMENT_RE, ' ')
    .replace(SCRIPT_STYLE_RE, ' ')
    .replace(TAG_RE, ' ')
    .replace(ENTITY_RE, (_, e: string) => {
      const l = e.toLowerCase();
      if (l.startsWith('#x')) return String.fromCodePoint(parseInt(l.slice(2), 16) || 32);
      if (l.startsWith('#')) return String.fromCodePoint(parseInt(l.slice(1), 10) || 32);
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[l] ?? ' ';
    });
}


class UnionFind {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p === x) return x;
    p = this.find(p);
    this.parent.set(x, p);
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

export interface PageInfo {
  id: string;
  domain: string;
  site: string;
  pageType: PageType;
  emptyGroundTruth: boolean;
}

export interface NearDuplicatePair {
  a: string;
  b: string;
  text: 'page' | 'groundTruth';
  jaccard: number;
}

export interface NearDuplicateCluster {
  ids: string[];
  sites: string[];
  pairs: NearDuplicatePair[];
}

/** Near-duplicate pairs over page text and ground-truth text, and their clusters (connected components). */
export function findNearDuplicates(
  texts: { id: string; page: string; groundTruth: string }[],
  thresholds: { page: number; groundTruth: number } = NEAR_DUPLICATE_JACCARD,
): { pairs: NearDuplicatePair[]; candidates: number } {
  const pairs: NearDuplicatePair[] = [];
  let candidates = 0;
  for (const kind of ['page', 'groundTruth'] as const) {
    const index = new LshIndex<string>(LSH_BANDS, LSH_ROWS);
    for (const t of texts) {
      const shingles = shingleHashes(kind === 'page' ? t.page : t.groundTruth);
      if (shingles.length < MIN_SHINGLES) continue;
      index.add(t.id, minhashOfShingles(shingles));
    }
    candidates += index.candidatePairs().length;
    for (const p of index.similarPairs(thresholds[kind])) pairs.push({ a: p.a, b: p.b, text: kind, jaccard: p.jaccard });
  }
  return { pairs, candidates };
}

function clusterPairs(pairs: NearDuplicatePair[], siteOfId: Map<string, string>): NearDuplicateCluster[] {
  const uf = new UnionFind();
  for (const p of pairs) uf.union(p.a, p.b);
  const byRoot = new Map<string, NearDuplicateCluster>();
  for (const p of pairs) {
    const root = uf.find(p.a);
    let c = byRoot.get(root);
    if (!c) {
      c = { ids: [], sites: [], pairs: [] };
      byRoot.set(root, c);
    }
    c.pairs.push(p);
    for (const id of [p.a, p.b]) if (!c.ids.includes(id)) c.ids.push(id);
  }
  const clusters = [...byRoot.values()];
  for (const c of clusters) {
    c.ids.sort();
    c.sites = [...new Set(c.ids.map((id) => siteOfId.get(id) ?? ''))].sort();
  }
  return clusters.sort((x, y) => (x.ids[0] < y.ids[0] ? -1 : 1));
}

export interface SplitFile {
  seed: number;
  valShare: number;
  method: string;
  nearDuplicate: { shingleSize: number; numHashes: number; bands: number; rows: number; jaccardThreshold: { page: number; groundTruth: number } };
  counts: {
    pages: number;
    train: number;
    val: number;
    excluded: number;
    sites: { train: number; val: number };
    byPageType: Record<string, { train: number; val: number; excluded: number }>;
  };
  train: string[];
  val: string[];
  excluded: { id: string; reason: string }[];
  nearDuplicates: (NearDuplicateCluster & { crossSite: boolean })[];
  moved: { site: string; ids: string[]; from: 'train' | 'val'; to: 'train' | 'val'; cluster: string[] }[];
}

/** Assign site groups to train/val (fixed seed, per page type caps), then fix near-duplicate straddles. */
export function makeSplits(pages: PageInfo[], pairs: NearDuplicatePair[], seed = SPLIT_SEED): SplitFile {
  const excluded = pages.filter((p) => p.emptyGroundTruth).map((p) => ({ id: p.id, reason: 'empty ground truth' }));
  const kept = pages.filter((p) => !p.emptyGroundTruth);
  const keptIds = new Set(kept.map((p) => p.id));
  const siteOfId = new Map(kept.map((p) => [p.id, p.site]));
  const groups = new Map<string, PageInfo[]>();
  for (const p of kept) {
    const g = groups.get(p.site);
    if (g) g.push(p);
    else groups.set(p.site, [p]);
  }

  // Seeded shuffle of the site groups (sorted first so the order does not depend on the input order).
  const order = [...groups.keys()].sort();
  const rand = mulberry32(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const typeTotal = new Map<PageType, number>();
  for (const p of kept) typeTotal.set(p.pageType, (typeTotal.get(p.pageType) ?? 0) + 1);
  const target = new Map([...typeTotal].map(([t, n]) => [t, Math.round(n * VAL_SHARE)]));
  const valCount = new Map<PageType, number>();
  const side = new Map<string, 'train' | 'val'>();
  for (const site of order) {
    const need = new Map<PageType, number>();
    for (const p of groups.get(site)!) need.set(p.pageType, (need.get(p.pageType) ?? 0) + 1);
    const fits = [...need].every(([t, k]) => (valCount.get(t) ?? 0) + k <= target.get(t)!);
    side.set(site, fits ? 'val' : 'train');
    if (fits) for (const [t, k] of need) valCount.set(t, (valCount.get(t) ?? 0) + k);
  }

  // Near-duplicates among kept pages: move whole sites so no cluster straddles.
  const keptPairs = pairs.filter((p) => keptIds.has(p.a) && keptIds.has(p.b));
  const clusters = clusterPairs(keptPairs, siteOfId);
  // Sites joined by a near-duplicate pair form one unit (union-find over sites); a unit on both sides moves whole
  // to the side holding most of its pages.
  const siteUnion = new UnionFind();
  for (const p of keptPairs) siteUnion.union(siteOfId.get(p.a)!, siteOfId.get(p.b)!);
  const units = new Map<string, string[]>();
  for (const c of clusters) {
    for (const s of c.sites) {
      const root = siteUnion.find(s);
      const u = units.get(root) ?? [];
      if (!u.includes(s)) u.push(s);
      units.set(root, u);
    }
  }
  const moved: SplitFile['moved'] = [];
  for (const sites of units.values()) {
    sites.sort();
    if (new Set(sites.map((s) => side.get(s))).size < 2) continue;
    const pagesOn = { train: 0, val: 0 };
    for (const s of sites) pagesOn[side.get(s)!] += groups.get(s)!.length;
    const to: 'train' | 'val' = pagesOn.val > pagesOn.train ? 'val' : 'train';
    for (const s of sites) {
      const from = side.get(s)!;
      if (from === to) continue;
      side.set(s, to);
      const cluster = clusters.filter((c) => c.sites.includes(s)).flatMap((c) => c.ids);
      moved.push({ site: s, ids: groups.get(s)!.map((p) => p.id).sort(), from, to, cluster });
    }
  }
  for (const c of clusters) {
    if (new Set(c.sites.map((s) => side.get(s))).size > 1) {
      throw new Error(`near-duplicate cluster ${c.ids.join(',')} still straddles the split: sites ${c.sites.join(',')}`);
    }
  }

  const train = kept.filter((p) => side.get(p.site) === 'train').map((p) => p.id).sort();
  const val = kept.filter((p) => side.get(p.site) === 'val').map((p) => p.id).sort();
  const byPageType: SplitFile['counts']['byPageType'] = {};
  for (const t of PAGE_TYPES) byPageType[t] = { train: 0, val: 0, excluded: 0 };
  for (const p of pages) {
    const bucket = byPageType[p.pageType];
    if (p.emptyGroundTruth) bucket.excluded++;
    else bucket[side.get(p.site)!]++;
  }
  const sitesOn = { train: 0, val: 0 };
  for (const s of groups.keys()) sitesOn[side.get(s)!]++;
  return {
    seed,
    valShare: VAL_SHARE,
    method:
      'site = registrable domain of the URL; seeded shuffle of sites; a site goes to val while every page type stays ' +
      'within round(20%) of its pages; near-duplicate clusters (MinHash Jaccard of 5-shingles >= 0.4 on page text or ' +
      '>= 0.8 on ground-truth text; sites joined by union-find) are moved whole to the side holding most of their pages. See training/splits.ts.',
    nearDuplicate: {
      shingleSize: 5,
      numHashes: 128,
      bands: LSH_BANDS,
      rows: LSH_ROWS,
      jaccardThreshold: NEAR_DUPLICATE_JACCARD,
    },
    counts: {
      pages: pages.length,
      train: train.length,
      val: val.length,
      excluded: excluded.length,
      sites: sitesOn,
      byPageType,
    },
    train,
    val,
    excluded,
    nearDuplicates: clusters.map((c) => ({ ...c, crossSite: c.sites.length > 1 })),
    moved,
  };
}

function pageInfo(p: CorpusPage): PageInfo {
  return {
    id: p.id,
    domain: p.domain,
    site: p.domain ? siteOf(p.domain) : `unknown-${p.id}`,
    pageType: p.pageType,
    emptyGroundTruth: p.groundTruth.mainContent.trim().length === 0,
  };
}

function main(): void {
  const t0 = Date.now();
  const ids = listPageIds();
  const infos: PageInfo[] = [];
  const texts: { id: string; page: string; groundTruth: string }[] = [];
  for (const p of iterateCorpus(ids)) {
    infos.push(pageInfo(p));
    texts.push({ id: p.id, page: visibleText(p.html), groundTruth: p.groundTruth.mainContent });
    if (infos.length % 200 === 0) process.stderr.write(`read ${infos.length}/${ids.length}\n`);
  }
  if (parseArgs({ options: { survey: { type: 'boolean', default: false } } }).values.survey) return survey(infos, texts);
  const { pairs, candidates } = findNearDuplicates(texts);
  process.stderr.write(`LSH candidates ${candidates}, near-duplicate pairs ${pairs.length}\n`);
  const splits = makeSplits(infos, pairs);
  writeFileSync(SPLITS_PATH, JSON.stringify(splits, null, 1) + '\n');
  const c = splits.counts;
  console.log(
    `pages ${c.pages}: train ${c.train} (${c.sites.train} sites), val ${c.val} (${c.sites.val} sites), excluded ${c.excluded}`,
  );
  for (const [t, v] of Object.entries(c.byPageType)) console.log(`  ${t.padEnd(14)} train ${v.train} val ${v.val} excluded ${v.excluded}`);
  const crossSite = splits.nearDuplicates.filter((d) => d.crossSite);
  console.log(
    `near-duplicate clusters ${splits.nearDuplicates.length} (${splits.nearDuplicates.reduce((s, d) => s + d.ids.length, 0)} pages), ` +
      `cross-site ${crossSite.length}; moved ${splits.moved.length} sites (${splits.moved.reduce((s, m) => s + m.ids.length, 0)} pages)`,
  );
  console.log(`wrote ${SPLITS_PATH} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Pairs per threshold, cross-site ones listed: the data behind NEAR_DUPLICATE_JACCARD. */
function survey(infos: PageInfo[], texts: { id: string; page: string; groundTruth: string }[]): void {
  const site = new Map(infos.map((p) => [p.id, p.site]));
  const { pairs } = findNearDuplicates(texts, { page: 0.3, groundTruth: 0.3 });
  for (const th of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
    const ps = pairs.filter((p) => p.jaccard >= th);
    const cross = (kind: string): number => ps.filter((p) => p.text === kind && site.get(p.a) !== site.get(p.b)).length;
    console.log(`J >= ${th}: pairs ${ps.length}, cross-site page-text ${cross('page')}, cross-site ground-truth ${cross('groundTruth')}`);
  }
  for (const p of pairs.filter((q) => site.get(q.a) !== site.get(q.b)).sort((x, y) => y.jaccard - x.jaccard).slice(0, 20)) {
    console.log(`  ${p.jaccard.toFixed(3)} ${p.text} ${p.a} ${site.get(p.a)} ~ ${p.b} ${site.get(p.b)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
