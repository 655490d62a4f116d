// The HTML pages of a WARC file, for every host: `pith batch` over a .warc(.gz) file and a job over a WARC in R2
// read the same pages with the same bounds and the same errors. The file is decoded as it streams (multi-member
// gzip through the one content decoder), its records read one at a time (warc.ts), and each HTML page's payload
// decoded by its Content-Encoding. Bounds: the size of one record, the number of records, an optional deadline,
// and the decoded size of each page's payload (a page past it is one failed page, not a failed file).

import { PithError } from '../errors.js';
import { decodeBytes, decodeStream, type DecodeCodes, parseContentCoding } from './content-decoder.js';
import { htmlPageOf, readWarcStream, WarcFormatError, WarcTooLargeError } from './warc.js';

export interface WarcLimits {
  /** Largest record block (an archived response with its HTTP head), decoded bytes; past it the file is refused. */
  maxRecordBytes: number;
  /** Largest decoded page payload; past it that page fails with 'input_too_large'. */
  maxPageBytes: number;
  /** Most records in the file (of any type); past it the file is refused. */
  maxRecords: number;
  /** Date.now() after which reading stops with 'input_too_large' (the file takes too long to read). */
  deadlineMs?: number;
}

export const DEFAULT_WARC_LIMITS: Readonly<WarcLimits> = Object.freeze({
  maxRecordBytes: 16 * 1024 * 1024,
  maxPageBytes: 5 * 1024 * 1024,
  maxRecords: 200_000,
});

/** One HTML page of the file: its payload decoded (not yet to text), or why it could not be. */
export type WarcPage = { url: string; contentType: string; body: Uint8Array; error?: undefined } | { url: string; error: PithError };

/** A file that cannot be read at all (not a WARC, corrupt gzip) or breaks a limit: the same codes in every host. */
const FILE_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'input_too_large', corrupt: 'invalid_input', timeout: 'input_too_large' });
const PAGE_CODES: Readonly<DecodeCodes> = Object.freeze({ tooLarge: 'input_too_large', corrupt: 'invalid_input', timeout: 'input_too_large' });

/**
 * Every HTML page of the WARC bytes in `chunks` (gzip-compressed when `gzip`), in file order. Throws PithError
 * 'invalid_input' for a file that is not a readable WARC, 'input_too_large' for one past `limits`.
 */
export async function* warcHtmlPages(chunks: AsyncIterable<Uint8Array>, gzip: boolean, name: string, limits: WarcLimits = DEFAULT_WARC_LIMITS): AsyncGenerator<WarcPage> {
  const deadline = limits.deadlineMs === undefined ? {} : { deadlineMs: limits.deadlineMs };
  const bytes = gzip
    ? decodeStream(chunks, 'gzip', { maxBytes: Number.MAX_SAFE_INTEGER, maxInputBytes: Number.MAX_SAFE_INTEGER, ...deadline, what: name, codes: FILE_CODES }, limits.maxRecordBytes + 64 * 1024)
    : chunks;
  let records = 0;
  try {
    for await (const record of readWarcStream(bytes, limits.maxRecordBytes)) {
      if (++records > limits.maxRecords) throw new PithError('input_too_large', `${name} has more than ${limits.maxRecords} records, the most pith reads in one file: split it`, { maxRecords: limits.maxRecords });
      if (limits.deadlineMs !== undefined && Date.now() > limits.deadlineMs) throw new PithError('input_too_large', `${name} takes too long to read: split it`);
      const page = htmlPageOf(record);
      if (page === null) continue;
      try {
        const what = `the archived page ${page.url.slice(0, 200)}`;
        const coding = parseContentCoding(page.contentEncoding, 'invalid_input', what);
        const body = await decodeBytes(page.body, coding, { maxBytes: limits.maxPageBytes, ...deadline, what, codes: PAGE_CODES });
        yield { url: page.url, contentType: page.contentType, body };
      } catch (err) {
        if (!(err instanceof PithError)) throw err;
        yield { url: page.url, error: err };
      }
    }
  } catch (err) {
    if (err instanceof PithError && err.code === 'invalid_input' && err.details?.contentEncoding !== undefined) {
      throw new PithError('invalid_input', `${name} cannot be read as a WARC file: ${err.message}`, err.details);
    }
    if (err instanceof PithError) throw err;
    if (err instanceof WarcTooLargeError) throw new PithError('input_too_large', `${name}: ${err.message}`, { maxRecordBytes: err.maxBytes });
    if (err instanceof WarcFormatError || err instanceof TypeError) throw new PithError('invalid_input', `${name} cannot be read as a WARC file: ${err.message}`);
    throw err;
  }
}
