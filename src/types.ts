// Shared types of the pipeline. Imports nothing.

/** Label of a block: 1 = main content, 0 = boilerplate. */
export type Label = 0 | 1;

/** Names of the feature sets a model can be trained on. */
export type FeatureSetName = 'paper' | 'pith';

/**
 * A node of the collapsed DOM (docs/design.md, Collapsed DOM). A leaf is a block; its `tags` end with "#text".
 * Aggregated raw statistics (docs/design.md, Raw statistics) live in `props`.
 */
export interface CdomNode {
  /** Merged tag chain, top to bottom, e.g. ["li", "a", "#text"]. */
  tags: string[];
  /** Class lists of each element in the merged chain (same length as `tags`; [] for #text). */
  classNames: string[][];
  /** id attribute of each element in the chain ('' when absent). */
  ids: string[];
  /** Normalised (whitespace runs collapsed), untrimmed text; for internal nodes the concatenated leaf text is not stored. */
  text: string;
  children: CdomNode[];
  parent: CdomNode | null;
  /** Distance from the CDOM root (root = 0). */
  depth: number;
  props: NodeProps;
  /** The original DOM node: for a leaf the (first) Text node (the parser splits text at character references; a leaf
   *  joins the adjacent Text nodes), for a merged chain its top element, otherwise the element. */
  domNode: unknown;
}

/** Raw node statistics (docs/design.md, Raw statistics), the reference's and pith's. */
export interface NodeProps {
  nCharacters: number;
  nWords: number;
  nSentences: number;
  nPunctuation: number;
  nNumeric: number;
  nStopwords: number;
  nWordsWithCapital: number;
  totalWordLength: number;
  nCharsInLink: number;
  endsWithPunctuation: boolean;
  endsWithQuestionMark: boolean;
  containsCopyright: boolean;
  containsEmail: boolean;
  containsUrl: boolean;
  containsYear: boolean;
  /** Position in text order (the DOM keeps no source offsets): [start, end) in characters of page text. */
  startPosition: number;
  endPosition: number;
  blockBreakBefore: boolean;
  blockBreakAfter: boolean;
  brBefore: boolean;
  brAfter: boolean;
  containsForm: boolean;
  /** Children plus their nChildrenDeep (reference; unused by features). */
  nChildrenDeep: number;
  // pith additions: Unicode-aware statistics (letter/digit runs, one word per CJK character, multilingual
  // lower-cased stop words, wider punctuation) and link characters counted through ANY `a` ancestor.
  uWords: number;
  uStopwords: number;
  uWordsWithCapital: number;
  uTotalWordLength: number;
  uPunctuation: number;
  uSentences: number;
  uEndsWithPunctuation: boolean;
  uCharsInLink: number;
}

/** One labelled block of the output. */
export interface BlockResult {
  index: number;
  text: string;
  /** Merged tag chain of the block, e.g. ["li", "a", "#text"]. */
  tags: string[];
  label: Label;
  /** Unary probability of "content". */
  probability: number;
  /** True when a block break separates this block from the next (docs/design.md, Blocks). */
  blockBreakAfter: boolean;
}

/** Per-stage timings in milliseconds; the stages follow one another and add up to `totalMs`. */
export interface Timings {
  /** Nesting pre-scan + DOM parse + collapsed DOM and blocks (metadata not included). */
  parseMs: number;
  /** Of `parseMs`: the DOM parse alone (set by extract()). */
  domMs?: number;
  /** Page metadata (title, author, dates, ...), after the parse (set by extract()). */
  metadataMs?: number;
  featuresMs: number;
  /** Both first-stage nets. */
  modelMs: number;
  /** The page-level second stage: its features and its net (0 when it did not run). */
  pageMs?: number;
  viterbiMs: number;
  /** Text (+ markdown / html), word count and fingerprint. */
  renderMs: number;
  totalMs: number;
  /** Time this call waited for the model to load (a fresh isolate's first request; 0 after), not in `totalMs`. */
  loadMs?: number;
}

/** What the page says about itself (src/core/metadata/metadata.ts). Absent fields are null. */
export interface PageMetadata {
  /** Headline: JSON-LD, Open Graph, Twitter, `<title>` without the site name, first `h1`. */
  title: string | null;
  /** Author name(s), several joined with ", ". */
  author: string | null;
  /** Publication date as YYYY-MM-DD (the date as the page writes it). */
  publishedDate: string | null;
  /** Last modification date as YYYY-MM-DD. */
  modifiedDate: string | null;
  /** BCP 47 tag ("en", "en-US"): markup first, else a light detection from the text. */
  language: string | null;
  siteName: string | null;
  /** Lead image, absolute URL. */
  image: string | null;
  /** Canonical URL, absolute. */
  canonicalUrl: string | null;
  description: string | null;
  /**
   * What the page's structured data says it is (schema.org types in JSON-LD or microdata, `og:type`), in the order
   * of PAGE_KINDS; empty when it says nothing we map. A page may declare several (a review article with a Product).
   */
  kinds: PageKind[];
}

/** The kinds of page that structured data declares (PageMetadata.kinds); also page-stage features. */
export const PAGE_KINDS = ['article', 'product', 'discussion', 'listing'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/**
 * Fingerprint of the extracted text, for finding near-duplicates across a corpus (src/core/fingerprint/simhash.ts).
 * An object so that other signatures can be added without changing the field's type.
 */
export interface Fingerprint {
  /** 64-bit SimHash over word 3-shingles, 16 lower-case hex digits; near-duplicates differ in <= 3 bits. */
  simhash: string;
}

/**
 * The formats an extraction is presented in (src/core/render/present.ts), everywhere: extract(), the CLI, batch, the
 * Worker, jobs. In the order messages list them. A host that takes fewer checks against its own list of these.
 */
export const FORMATS = ['text', 'markdown', 'html', 'json', 'debug', 'reader'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

/**
 * Which rung of the decoding ladder (src/core/decode/decode.ts) produced the labels; 'none' when every rung ran and none
 * kept anything (the page has no main content).
 */
export type DecodeRung = 'viterbi' | 'unary' | 'best-block' | 'short-page' | 'none';
/** The rungs a caller can ask for; the others are only ever fallbacks. */
export type DecodeMode = 'viterbi' | 'unary';

export interface Extraction {
  /** Main content as plain text, blank line at block breaks. Empty string when nothing was found. */
  text: string;
  /** Markdown of the main content; present when format is 'markdown' or 'json'. */
  markdown?: string;
  /** Sanitised HTML of the main content, safe to embed; present when format is 'html' or 'json'. */
  html?: string;
  /** A self-contained HTML page showing every block, its label and probability (format 'debug'). */
  debugHtml?: string;
  /** The reader view: the article as a standalone page to read, no script (format 'reader'; src/core/render/reader.ts). */
  readerHtml?: string;
  /** The page's title (metadata.title). */
  title: string | null;
  metadata: PageMetadata;
  /** Number of `\w+` words in `text`. */
  wordCount: number;
  blocks: BlockResult[];
  modelVersion: string;
  featureSet: FeatureSetName;
  /**
   * Which rung of the decoding ladder produced the labels (src/core/decode/decode.ts): 'viterbi' or 'unary' as asked, or a
   * fallback ('unary' after an empty Viterbi result, 'best-block' when both kept nothing).
   */
  decoder: DecodeRung;
  /** Fingerprint of `text`; present when format is 'json' or the fingerprint option is set. */
  fingerprint?: Fingerprint;
  /** True when a limit cut the page (see config.ts); the result covers the first part only. */
  truncated: boolean;
  /** Why the page was truncated, when it was. */
  truncatedReason?: string;
  timings: Timings;
}

/**
 * Probabilities produced by the two nets for one page.
 * unary:    [nBlocks, 2] row-major, softmax over (boilerplate, content)
 * pairwise: [nBlocks - 1, 4] row-major, softmax over transitions (00, 01, 10, 11), index 2*y_i + y_{i+1}
 */
export interface Potentials {
  unary: Float32Array;
  pairwise: Float32Array;
}

/** Model contract read from the sidecar JSON. */
export interface ModelInfo {
  version: string;
  featureSet: FeatureSetName;
  lambda: number;
  unaryFeatureNames: string[];
  edgeFeatureNames: string[];
  /** The page-level second stage, when the model has one: its feature names and Viterbi weight. */
  page?: { featureNames: string[]; lambda: number };
}

/**
 * What extract() sees of the model. Features are raw (unstandardised); the classifier
 * applies the sidecar's normalisation. Implementations: ONNX (src/core/model/onnx-classifier.ts).
 */
export interface PredictOptions {
  /**
   * false: the unary net only; `pairwise` is then empty and `edgeFeatures` is not read (decoding with lambda 0, or
   * with the unary argmax, never looks at it).
   */
  pairwise?: boolean;
}

export interface Classifier {
  readonly info: ModelInfo;
  /**
   * unaryFeatures: [nBlocks, unaryFeatureNames.length] row-major
   * edgeFeatures:  [nBlocks - 1, edgeFeatureNames.length] row-major
   */
  predict(unaryFeatures: Float32Array, edgeFeatures: Float32Array, nBlocks: number, options?: PredictOptions): Promise<Potentials>;
  /**
   * The second stage (present when `info.page` is): content probabilities from the page features.
   * pageFeatures: [nBlocks, info.page.featureNames.length] row-major, raw -> [nBlocks, 2] row-major.
   */
  predictPage?(pageFeatures: Float32Array, nBlocks: number): Promise<Float32Array>;
}
