// What a fixture page (test/fixtures/pages/<site>-<slug>/expected.json) says about the extraction of its page, and
// the check of one extraction against it. Pure: the fixture-page suite (test/suites/fixture-pages.ts) runs it in
// Node and in workerd.

import type { Extraction } from '../src/types.js';
import { authorMatches, dateMatches, titleMatches } from './metadata-match.js';

export interface ExpectedMetadata {
  title: string | null;
  author: string | null;
  /** YYYY-MM-DD. */
  publishedDate: string | null;
}

export interface FixtureExpectation {
  /** WCXB dev file id the page comes from. */
  id: string;
  url: string;
  pageType: string;
  language?: string;
  /** Sentences that extract() must keep (whitespace-normalised, case-insensitive substring of the text). */
  mustKeep: string[];
  /** Boilerplate that extract() must drop. */
  mustDrop: string[];
  /** The ground truth's metadata of the page (null: the ground truth gives none, nothing is asserted). */
  metadata: ExpectedMetadata;
  /**
   * What the shipped model gets wrong, on record and asserted to be still wrong (so that a fix is noticed: then move
   * it back). `metadata` lists the fields whose extracted value does not match.
   */
  knownMisses?: { model: string; mustKeep: string[]; mustDrop: string[]; metadata?: Array<keyof ExpectedMetadata> };
  note?: string;
}

/** Whitespace runs to one space, lower case: how e2e assertions compare text. */
export function normaliseForMatch(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

export interface FixtureVerdict {
  /** mustKeep sentences missing from the text. */
  missing: string[];
  /** mustDrop boilerplate found in the text. */
  kept: string[];
  /** Metadata fields whose extracted value does not match the expected one (where one is expected). */
  metadataMisses: Array<keyof ExpectedMetadata>;
  /** Known misses that are no longer missed: fixed, to be moved back into the assertions. */
  fixed: string[];
}

const METADATA_MATCH: Record<keyof ExpectedMetadata, (predicted: string | null, truth: string) => boolean> = {
  title: titleMatches,
  author: authorMatches,
  publishedDate: dateMatches,
};

/** Checks an extraction of the page against its expectation; every list is empty when the page passes. */
export function checkFixture(expected: FixtureExpectation, extraction: Extraction): FixtureVerdict {
  const text = normaliseForMatch(extraction.text);
  const has = (s: string): boolean => text.includes(normaliseForMatch(s));
  const known = expected.knownMisses;
  const knownFields = new Set(known?.metadata ?? []);
  const metadataMisses: Array<keyof ExpectedMetadata> = [];
  const fixed: string[] = [];
  for (const field of Object.keys(METADATA_MATCH) as Array<keyof ExpectedMetadata>) {
    const truth = expected.metadata[field];
    if (truth === null) continue;
    const ok = METADATA_MATCH[field](extraction.metadata[field], truth);
    if (knownFields.has(field)) {
      if (ok) fixed.push(`metadata.${field}`);
    } else if (!ok) metadataMisses.push(field);
  }
  for (const s of known?.mustKeep ?? []) if (has(s)) fixed.push(`keep: ${s}`);
  for (const s of known?.mustDrop ?? []) if (!has(s)) fixed.push(`drop: ${s}`);
  return {
    missing: expected.mustKeep.filter((s) => !has(s)),
    kept: expected.mustDrop.filter((s) => has(s)),
    metadataMisses,
    fixed,
  };
}
