// Defaults and limits, in one place: every host resolves its limits here (limitsOf) and hands them to extract().
// Imports nothing.

export interface Limits {
  /** Largest HTML input accepted by extract(), in UTF-16 code units (about bytes for ASCII pages). */
  maxInputChars: number;
  /** Largest number of DOM elements walked; past it the rest of the page is ignored and the result is marked truncated. */
  maxDomNodes: number;
  /** Largest number of blocks classified; past it the rest is ignored and the result is marked truncated. */
  maxBlocks: number;
  /**
   * Deepest element nesting accepted, as the parser would nest them (src/core/parse/markup-scan.ts predicts it before
   * parsing). Past it the page is refused: the parser's stack work grows with depth times tags.
   */
  maxNestingDepth: number;
  /**
   * Most DOM nodes the parse may create (elements, attributes, text nodes, comments, and each class name, counted
   * by the pre-scan). Bounds the parse's time and memory (set when the parse was linkedom's, ~150-460 bytes and
   * ~5-15 µs per node; src/core/parse/dom.ts costs less): past it the page is cut before parsing, and the result is
   * marked truncated.
   */
  maxParseNodes: number;
  /** Most elements the parse may create (an element costs more than a text node); past it, the same cut. */
  maxParseElements: number;
  /**
   * Most steps of the parser's open-element stack (each push, pop and end-tag search costs the stack's length):
   * bounds the work that grows as depth times tags (`'<div></x>'` repeated). Past it the page is refused.
   */
  maxParseSteps: number;
  /** Most class names in one `class` attribute (each is a token for the class features; linkedom overflowed the stack on 150,000). */
  maxClassNames: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInputChars: 8 * 1024 * 1024,
  maxDomNodes: 200_000,
  maxBlocks: 8_000,
  maxNestingDepth: 4_096,
  maxParseNodes: 100_000,
  maxParseElements: 40_000,
  maxParseSteps: 20_000_000,
  maxClassNames: 8_192,
});

/** Names of the limits, in the order of DEFAULT_LIMITS (the CLI's --limit, the Worker's PITH_MAX_* variables). */
export const LIMIT_NAMES = Object.freeze(Object.keys(DEFAULT_LIMITS) as Array<keyof Limits>);

const resolvedLimits = new WeakSet<object>([DEFAULT_LIMITS]);

/**
 * DEFAULT_LIMITS with `overrides`: the one merge. What limitsOf() returned passes through as it is, so a host that
 * resolves its limits once (the Worker's settings, the CLI's flags) merges nothing per page.
 */
export function limitsOf(overrides?: Partial<Limits>): Readonly<Limits> {
  if (overrides === undefined) return DEFAULT_LIMITS;
  if (resolvedLimits.has(overrides)) return overrides as Readonly<Limits>;
  const limits: Readonly<Limits> = Object.freeze({ ...DEFAULT_LIMITS, ...overrides });
  resolvedLimits.add(limits);
  return limits;
}

/** One limit written as text (`maxBlocks` and `20000`): its name and value, or throws saying what is wrong. */
export function parseLimit(name: string, value: string): [keyof Limits, number] {
  if (!(LIMIT_NAMES as readonly string[]).includes(name)) throw new Error(`"${name.slice(0, 40)}" is not a limit (limits: ${LIMIT_NAMES.join(', ')})`);
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, not "${value.slice(0, 40)}"`);
  return [name as keyof Limits, n];
}
