// A job over a WARC file stored in R2 (POST /v1/jobs {"warc": "<key>"}): the file is read once, as a stream
// (decoded as it streams by io/warc-pages.ts, with the same limits as `pith batch`), and every `response` record
// with a 2xx HTML payload becomes one input of the job, its URL the record's. The pages are decoded to text
// (charset from the archived Content-Type, the BOM or <meta>, as for fetched pages) and stored in R2 twenty to an
// object, one object per chunk; the chunk's queue message then carries only the URLs, and the consumer reads the
// pages from that object instead of fetching them.

import { PithError } from '../../../errors.js';
import { chunksOf, isGzipBytes } from '../../../io/content-decoder.js';
import { decodeBody } from '../../../io/charset.js';
import { DEFAULT_WARC_LIMITS, warcHtmlPages } from '../../../io/warc-pages.js';
import { CHUNK_SIZE, jobKeys } from './job-types.js';
import { type JobsBindings } from './bindings.js';

/** One archived page as stored for the consumer; `error` when its payload could not be decoded. */
export interface ArchivedPage {
  url: string;
  html: string;
  error?: { code: string; message: string };
}

const MAX_WARC_KEY_CHARS = 1024;
/** How long reading a WARC file may take inside the request that submits the job. */
const WARC_READ_TIMEOUT_MS = 20_000;

/**
 * Reads the WARC file at `key` and stores its HTML pages in chunk objects under job `id`. Returns the pages' URLs
 * in file order. Throws PithError 'invalid_input' for a missing or unreadable file, 'input_too_large' for one past
 * the WARC limits (io/warc-pages.ts), the same as `pith batch` over the same file.
 */
export async function splitWarc(bindings: JobsBindings, id: string, key: string, maxPages: number, maxPageBytes: number): Promise<string[]> {
  if (key === '' || key.length > MAX_WARC_KEY_CHARS) throw new PithError('invalid_input', '"warc" must be the key of a WARC file in the jobs bucket');
  const object = await bindings.bucket.get(key);
  if (object === null) throw new PithError('invalid_input', `no object "${key.slice(0, 200)}" in the jobs bucket: upload the WARC file first (README: bulk jobs)`);
  const [probe, body] = object.body.tee();
  const head = (await probe.getReader().read()).value ?? new Uint8Array(0);
  probe.cancel().catch(() => undefined);
  const gz = key.toLowerCase().endsWith('.gz') || isGzipBytes(head);
  const limits = { ...DEFAULT_WARC_LIMITS, maxPageBytes, deadlineMs: Date.now() + WARC_READ_TIMEOUT_MS };

  const urls: string[] = [];
  let pending: ArchivedPage[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = Math.floor((urls.length - 1) / CHUNK_SIZE);
    await bindings.bucket.put(jobKeys.archived(id, chunk), JSON.stringify(pending), { httpMetadata: { contentType: 'application/json' } });
    pending = [];
  };
  for await (const page of warcHtmlPages(chunksOf(body), gz, `"${key.slice(0, 200)}"`, limits)) {
    if (urls.length >= maxPages) throw new PithError('invalid_input', `the WARC file has more than ${maxPages} HTML pages, the most one job takes: split it`);
    urls.push(page.url);
    pending.push(page.error === undefined ? { url: page.url, html: decodeBody(page.body, page.contentType).text } : { url: page.url, html: '', error: { code: page.error.code, message: page.error.message } });
    if (pending.length === CHUNK_SIZE) await flush();
  }
  await flush();
  return urls;
}

/** The stored pages of chunk `chunk` of a WARC job. */
export async function archivedPages(bindings: JobsBindings, id: string, chunk: number): Promise<ArchivedPage[]> {
  const object = await bindings.bucket.get(jobKeys.archived(id, chunk));
  if (object === null) throw new Error(`job ${id} has no archived pages for chunk ${chunk}`);
  return (await object.json()) as ArchivedPage[];
}
