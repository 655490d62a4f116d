// The result lines of a bulk job (and of `pith batch`): one JSON object per input, newline-delimited. Pure.
//
//   {"url", "finalUrl", "ok": true, "title", "text" | "markdown" | "html", "fingerprint", "metadata"}
//   {"url", "ok": false, "error": {"code", "message", "upstreamStatus"?}}

import type { Format, PageMetadata } from '../types.js';

/** The formats a job's lines can carry (a job asked for json writes text lines). */
export type JobFormat = Extract<Format, 'text' | 'markdown' | 'html'>;

export interface OkResult {
  url: string;
  finalUrl: string;
  ok: true;
  title: string | null;
  /** Exactly one of text, markdown, html: the format the job asked for. */
  text?: string;
  markdown?: string;
  html?: string;
  fingerprint: { simhash: string } | null;
  metadata: PageMetadata | null;
}

export interface FailedResult {
  url: string;
  ok: false;
  error: { code: string; message: string; upstreamStatus?: number };
}

export type JobResult = OkResult | FailedResult;

/** One NDJSON line (with its newline). JSON.stringify escapes U+2028/2029 and control characters, so one line it is. */
export function resultLine(result: JobResult): string {
  return `${JSON.stringify(result)}\n`;
}

/** Lines of an NDJSON text (empty lines skipped); throws with the line number on a line that is not JSON. */
export function parseNdjson<T = unknown>(text: string): T[] {
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      throw new Error(`NDJSON line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
  }
  return out;
}
