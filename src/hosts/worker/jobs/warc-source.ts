// A job over a WARC file stored in R2 (POST /v1/jobs {"warc": "<key>"}): the file is read once, as a stream
// (gunzipped member by member when it is gzip: src/io/gzip-members.ts), and every `response` record
// with a 2xx HTML payload becomes one input of the job, its URL the record's. The pages are decoded to text
// (charset from the archived Content-Type, the BOM or <meta>, as for fetched pages) and stored in R2 twenty to an
// object, one object per chunk; the chunk's queue message then carries only the URLs, and the consumer reads the
// pages from that object instead of fetching them.

import { PithError } from '../../../errors.js';
import { gunzipMembers } from '../../../io/gzip-members.js';
import { htmlPageOf, readWarcStream, WarcFormatError } from '../../../io/warc.js';
import { decodeBody } from '../../../io/charset.js';
import { CHUNK_SIZE, jobKeys } from './job-types.js';
import { type JobsBindings } from './bindings.js';

/** One archived page as stored for the consumer. */
export interface ArchivedPage {
  url: string;
  html: string;
}

const MAX_WARC_KEY_CHARS = 1024;

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function decompress(bytes: Uint8Array, format: 'gzip' | 'deflate'): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Reads the WARC file at `key` and stores its HTML pages in chunk objects under job `id`. Returns the pages' URLs
 * in file order. Throws PithError 'invalid_input' for a missing or unreadable file.
 */
export async function splitWarc(bindings: JobsBindings, id: string, key: string, maxPages: number): Promise<string[]> {
  if (key === '' || key.length > MAX_WARC_KEY_CHARS) throw new PithError('invalid_input', '"warc" must be the key of a WARC file in the jobs bucket');
  const object = await bindings.bucket.get(key);
  if (object === null) throw new PithError('invalid_input', `no object "${key.slice(0, 200)}" in the jobs bucket: upload the WARC file first (README: bulk jobs)`);
  const [probe, body] = object.body.tee();
  const head = (await probe.getReader().read()).value ?? new Uint8Array(0);
  probe.cancel().catch(() => undefined);
  const gz = key.toLowerCase().endsWith('.gz') || (head[0] === 0x1f && head[1] === 0x8b);
  const bytes = gz ? gunzipMembers(streamChunks(body)) : streamChunks(body);

  const urls: string[] = [];
  let pending: ArchivedPage[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = Math.floor((urls.length - 1) / CHUNK_SIZE);
    await bindings.bucket.put(jobKeys.archived(id, chunk), JSON.stringify(pending), { httpMetadata: { contentType: 'application/json' } });
    pending = [];
  };
  try {
    for await (const record of readWarcStream(bytes)) {
      const page = htmlPageOf(record);
      if (page === null) continue;
      let payload = page.body;
      if (page.contentEncoding === 'gzip' || page.contentEncoding === 'x-gzip') payload = await decompress(payload, 'gzip');
      else if (page.contentEncoding === 'deflate') payload = await decompress(payload, 'deflate');
      else if (page.contentEncoding !== '') continue; // br and others: not decodable here; the page is skipped
      if (urls.length >= maxPages) throw new PithError('invalid_input', `the WARC file has more than ${maxPages} HTML pages, the most one job takes: split it`);
      urls.push(page.url);
      pending.push({ url: page.url, html: decodeBody(payload, page.contentType).text });
      if (pending.length === CHUNK_SIZE) await flush();
    }
    await flush();
  } catch (err) {
    if (err instanceof PithError) throw err;
    if (err instanceof WarcFormatError || err instanceof TypeError || (err instanceof Error && err.message.startsWith('the gzip data'))) {
      throw new PithError('invalid_input', `"${key.slice(0, 200)}" cannot be read as a WARC file: ${err.message}`);
    }
    throw err;
  }
  return urls;
}

/** The stored pages of chunk `chunk` of a WARC job. */
export async function archivedPages(bindings: JobsBindings, id: string, chunk: number): Promise<ArchivedPage[]> {
  const object = await bindings.bucket.get(jobKeys.archived(id, chunk));
  if (object === null) throw new Error(`job ${id} has no archived pages for chunk ${chunk}`);
  return (await object.json()) as ArchivedPage[];
}
