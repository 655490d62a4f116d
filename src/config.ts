// Defaults and limits, in one place. Imports nothing but types.

export interface Limits {
  /** Largest HTML input accepted by extract(), in UTF-16 code units (about bytes for ASCII pages). */
  maxInputChars: number;
  /** Largest number of DOM elements walked; past it the rest of the page is ignored and the result is marked truncated. */
  maxDomNodes: number;
  /** Largest number of blocks classified; past it the rest is ignored and the result is marked truncated. */
  maxBlocks: number;
  /**
   * Deepest element nesting accepted (estimated by a scan of the tags before parsing). linkedom's parse time grows
   * faster than linearly with nesting depth (200,000 nested <div>s: ~21 s), so a hostile page is refused up front.
   */
  maxNestingDepth: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInputChars: 8 * 1024 * 1024,
  maxDomNodes: 200_000,
  maxBlocks: 20_000,
  maxNestingDepth: 4_096,
});
