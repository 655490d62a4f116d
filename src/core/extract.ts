// html (+url) -> Extraction: the whole pipeline. No HTTP, no env, no cache, no network.
// The model is seen only through the Classifier interface.

import { limitsOf, type Limits } from '../config.js';
import { PithError } from '../errors.js';
import { computeFeatures, featureNames } from './features/features.js';
import { type PageFeatureSchema, PAGE_FEATURE_SCHEMA, computePageFeatures, pageFeatureNames, pageSchemaOf } from './features/page-context.js';
import type { DomNode } from './parse/dom.js';
import { extractMetadata } from './metadata/metadata.js';
import { parsePage } from './blocks/page.js';
import { dropRepeats } from './blocks/repeats.js';
import { dropEditLinks, keepFigureCaptions, keepLinesWhole, keepSectionHeadings, keepTablesWhole } from './blocks/whole.js';
import { decodeLadder } from './decode/decode.js';
import { checkSidecar } from './model/sidecar.js';
import { buildContentTree, keptTextNodes } from './render/content-tree.js';
import { resolveBaseUrl } from './render/url-policy.js';
import { htmlFromTree } from './render/html.js';
import { markdownFromTree } from './render/markdown.js';
import { renderDebugHtml } from './render/debug.js';
import { renderReaderHtml } from './render/reader.js';
import { countWords, renderText } from './render/text.js';
import { pageTextLayout } from './render/spacing.js';
import { fingerprintOf } from './fingerprint/simhash.js';
import type { BlockResult, Classifier, DecodeMode, DecodeRung, Extraction, Format, Label } from '../types.js';

export interface ExtractOptions {
  /** The page's URL, used to resolve links and for metadata. Never fetched. */
  url?: string;
  /** Overrides of DEFAULT_LIMITS (src/config.ts), or limits resolved once by limitsOf(). */
  limits?: Partial<Limits>;
  /** 'viterbi' (default) decodes with the pairwise net; 'unary' takes the per-block argmax. */
  decode?: DecodeMode;
  /** Overrides the sidecar's pairwise weight (of the stage that decodes). */
  lambda?: number;
  /**
   * 'page' (default when the model has one) runs the page-level second stage over the first pass's probabilities
   * and decodes its potentials; 'block' decodes the first stage alone.
   */
  stage?: 'page' | 'block';
  /**
   * What to render besides `text` (always there): 'markdown' adds `markdown`, 'html' adds `html` (sanitised),
   * 'json' adds both, 'reader' adds `html` and `readerHtml`. Default 'text'. Metadata is always read.
   */
  format?: Format;
  /** Add `fingerprint` (SimHash of `text`, about 0.1 ms per 1,000 words). Default: only for format 'json'. */
  fingerprint?: boolean;
}

/** Characters of block text handed to language detection when the markup names no language. */
const LANGUAGE_SAMPLE_CHARS = 3000;

/** Checked classifiers and the page feature schema each one's page net reads. */
const checkedClassifiers = new WeakMap<Classifier, PageFeatureSchema>();

/**
 * Feature names of the code must equal those the model was trained on (model/sidecar.ts); checked once per
 * classifier. -> the page feature schema whose names the model's page net has (the default when it has none).
 */
function assertModelMatchesCode(classifier: Classifier): PageFeatureSchema {
  const known = checkedClassifiers.get(classifier);
  if (known !== undefined) return known;
  const { info } = classifier;
  const code = featureNames(info.featureSet);
  const schema = (info.page && pageSchemaOf(info.page.featureNames)) || PAGE_FEATURE_SCHEMA;
  checkSidecar(info, { ...code, ...(info.page ? { page: pageFeatureNames(schema) } : {}) });
  checkedClassifiers.set(classifier, schema);
  return schema;
}

/** The stage the pipeline is in, for the message of an unexpected failure. */
type Stage = 'parsing' | 'reading metadata' | 'computing features' | 'running the model' | 'running the page stage' | 'decoding' | 'rendering';

/**
 * The whole pipeline. Every failure surfaces as a PithError: the pipeline's own keep their code, anything else
 * (a bug, or a library failing on a page: a stack overflow, an allocation failure) becomes `extraction_failed`,
 * with the stage and the original error as its `cause`.
 */
export async function extractWith(classifier: Classifier, html: string, options: ExtractOptions = {}): Promise<Extraction> {
  if (typeof html !== 'string') throw new PithError('invalid_input', 'extract() takes the page as a string of HTML');
  const pageSchema = assertModelMatchesCode(classifier);
  const progress: { stage: Stage } = { stage: 'parsing' };
  try {
    return await runPipeline(classifier, html, options, progress, pageSchema);
  } catch (err) {
    if (err instanceof PithError) throw err;
    const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new PithError(
      'extraction_failed',
      `extraction failed while ${progress.stage} this page (${what.slice(0, 200)}); please report the page`,
      { stage: progress.stage },
      err,
    );
  }
}

async function runPipeline(
  classifier: Classifier,
  html: string,
  options: ExtractOptions,
  progress: { stage: Stage },
  pageSchema: PageFeatureSchema,
): Promise<Extraction> {
  const limits: Readonly<Limits> = limitsOf(options.limits);
  const t0 = performance.now();

  // U+0000 never reaches an output (the HTML standard's parser drops it from body text only; attributes keep it).
  // Once the page is known to hold none, the parser is told so and does not search each text for one again.
  const checked = html.length <= limits.maxInputChars;
  const input = checked && html.includes('\0') ? html.replaceAll('\0', '') : html;
  const page = parsePage(input, { url: options.url, limits, nulFree: checked });
  const tParsed = performance.now();
  progress.stage = 'reading metadata';
  let sampleText = '';
  for (const b of page.blocks) {
    if (sampleText.length >= LANGUAGE_SAMPLE_CHARS) break;
    sampleText += b.text;
  }
  const metadata = extractMetadata(page.document as DomNode, { url: options.url, sampleText });
  const t1 = performance.now();

  progress.stage = 'computing features';
  const nBlocks = page.blocks.length;
  if (options.stage !== undefined && options.stage !== 'page' && options.stage !== 'block') {
    throw new PithError('invalid_input', `stage must be 'page' or 'block', got ${String(options.stage)}`);
  }
  const pageStage = options.stage !== 'block' && classifier.info.page !== undefined && classifier.predictPage !== undefined;
  const decodeMode = options.decode ?? 'viterbi';
  const lambda = options.lambda ?? (pageStage ? classifier.info.page!.lambda : classifier.info.lambda);
  // The pairwise net and its edge features only matter to Viterbi with a weight on them (the shipped page stage has
  // lambda 0: then neither is computed).
  const pairwise = decodeMode === 'viterbi' && lambda !== 0;
  const features = computeFeatures(page, classifier.info.featureSet, { edges: pairwise });
  const t2 = performance.now();

  let labels: Uint8Array = new Uint8Array(nBlocks);
  let unaryProbs: Float32Array = new Float32Array(nBlocks * 2); // [nBlocks, 2] row-major
  let t3 = t2;
  let tPage = t2;
  let decoder: DecodeRung = 'none';
  if (nBlocks > 0) {
    progress.stage = 'running the model';
    let potentials = await classifier.predict(features.unary, features.edge, nBlocks, { pairwise });
    t3 = performance.now();
    if (pageStage) {
      progress.stage = 'running the page stage';
      const pageFeatures = computePageFeatures(page, features, potentials.unary, {
        kinds: metadata.kinds, title: metadata.title, url: options.url, canonicalUrl: metadata.canonicalUrl,
      }, pageSchema);
      potentials = { unary: await classifier.predictPage!(pageFeatures, nBlocks), pairwise: potentials.pairwise };
      tPage = performance.now();
    } else {
      tPage = t3;
    }
    unaryProbs = potentials.unary;
    progress.stage = 'decoding';
    const words = new Uint32Array(nBlocks);
    const inLink = new Uint8Array(nBlocks);
    for (let i = 0; i < nBlocks; i++) {
      const props = page.blocks[i].props;
      words[i] = props.uWords;
      inLink[i] = props.uCharsInLink * 2 > props.nCharacters ? 1 : 0;
    }
    const decoded = decodeLadder(potentials, nBlocks, words, decodeMode, lambda, inLink);
    labels = decoded.labels;
    decoder = decoded.rung;
    keepLinesWhole(page.blocks, page.leafInfo, labels);
    keepSectionHeadings(page.blocks, page.leafInfo, labels, unaryProbs);
    keepFigureCaptions(page.blocks, page.leafInfo, labels);
    dropEditLinks(page.blocks, page.leafInfo, labels);
    keepTablesWhole(page.blocks, labels);
    dropRepeats(page.blocks, page.leafInfo, labels);
  }
  const t4 = performance.now();
  progress.stage = 'rendering';

  const blocks: BlockResult[] = new Array(nBlocks);
  for (let i = 0; i < nBlocks; i++) {
    const block = page.blocks[i];
    blocks[i] = {
      index: i,
      text: block.text,
      tags: block.tags,
      label: labels[i] as Label,
      probability: unaryProbs[i * 2 + 1],
      blockBreakAfter: block.props.blockBreakAfter,
    };
  }
  const text = renderText(blocks, labels, pageTextLayout(page));
  const format = options.format ?? 'text';
  let markdown: string | undefined;
  let cleanHtml: string | undefined;
  if (format === 'markdown' || format === 'html' || format === 'json' || format === 'reader') {
    const document = page.document as DomNode;
    const tree = buildContentTree(document, keptTextNodes(page.blocks, labels), {
      baseUrl: resolveBaseUrl(document, options.url),
    });
    if (format === 'markdown' || format === 'json') markdown = markdownFromTree(tree);
    if (format !== 'markdown') cleanHtml = htmlFromTree(tree);
  }
  const wordCount = countWords(text);
  const fingerprint = (options.fingerprint ?? format === 'json') ? fingerprintOf(text) : undefined;
  const t5 = performance.now();

  const extraction: Extraction = {
    text,
    title: metadata.title ?? page.title,
    metadata,
    wordCount,
    blocks,
    modelVersion: classifier.info.version,
    featureSet: classifier.info.featureSet,
    decoder,
    truncated: page.truncated,
    timings: {
      parseMs: tParsed - t0,
      domMs: page.domMs,
      metadataMs: t1 - tParsed,
      featuresMs: t2 - t1,
      modelMs: t3 - t2,
      pageMs: tPage - t3,
      viterbiMs: t4 - tPage,
      renderMs: t5 - t4,
      totalMs: t5 - t0,
    },
  };
  if (fingerprint !== undefined) extraction.fingerprint = fingerprint;
  if (markdown !== undefined) extraction.markdown = markdown;
  if (cleanHtml !== undefined) extraction.html = cleanHtml;
  if (page.truncatedReason !== undefined) extraction.truncatedReason = page.truncatedReason;
  if (format === 'debug') extraction.debugHtml = renderDebugHtml(extraction, page);
  if (format === 'reader') extraction.readerHtml = renderReaderHtml(extraction, { url: options.url });
  return extraction;
}
