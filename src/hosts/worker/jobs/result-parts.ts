// A chunk's results as they finish: each delivery of a chunk writes the URLs it finished as one part object in R2
// (NDJSON, the offsets of its lines in the object's metadata). When the job's Durable Object has every offset of
// the chunk, the parts are assembled into the chunk's results object; until then readers assemble them on read.

import { jobKeys } from './job-types.js';

/** One finished URL: its offset in the chunk, its NDJSON line and (dedupe jobs) its encoded signature. */
export interface PartEntry {
  offset: number;
  line: string;
  signature?: string;
}

/** Writes one part: the signatures first (a results part implies its signatures), then the lines. */
export async function writePart(bucket: R2Bucket, jobId: string, chunk: number, start: number, entries: readonly PartEntry[], dedupe: boolean): Promise<void> {
  if (entries.length === 0) return;
  const key = jobKeys.part(jobId, chunk, entries[0].offset);
  if (dedupe) {
    const signatures = entries.flatMap((e) => (e.signature === undefined ? [] : [[start + e.offset, e.signature] as [number, string]]));
    await bucket.put(jobKeys.signaturePart(key), JSON.stringify(signatures));
  }
  await bucket.put(key, entries.map((e) => e.line).join(''), {
    httpMetadata: { contentType: 'application/x-ndjson' },
    customMetadata: { offsets: JSON.stringify(entries.map((e) => e.offset)) },
  });
}

/** Every object under `prefix` (R2 lists at most 1,000 per call). */
async function listAll(bucket: R2Bucket, prefix: string): Promise<R2Object[]> {
  const out: R2Object[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await bucket.list({ prefix, cursor });
    out.push(...page.objects);
    if (!page.truncated) return out;
    cursor = page.cursor;
  }
}

/** The lines of a chunk's parts by offset (an offset written twice by a redelivery keeps one line). */
export async function partLines(bucket: R2Bucket, jobId: string, chunk: number): Promise<Map<number, string>> {
  const lines = new Map<number, string>();
  for (const object of await listAll(bucket, jobKeys.partsOf(jobId, chunk))) {
    const body = await bucket.get(object.key);
    if (body === null) continue;
    const offsets = JSON.parse(body.customMetadata?.offsets ?? '[]') as number[];
    const text = await body.text();
    let at = 0;
    for (const offset of offsets) {
      const end = text.indexOf('\n', at);
      if (end < 0) break;
      if (!lines.has(offset)) lines.set(offset, text.slice(at, end + 1));
      at = end + 1;
    }
  }
  return lines;
}

/** The NDJSON of what has finished in a chunk, in input order. */
export async function partialResults(bucket: R2Bucket, jobId: string, chunk: number): Promise<string> {
  const lines = await partLines(bucket, jobId, chunk);
  return [...lines.keys()].sort((a, b) => a - b).map((o) => lines.get(o)!).join('');
}

/** Assembles a complete chunk's parts into its results (and signatures) object. Safe to repeat. */
export async function assembleChunk(bucket: R2Bucket, jobId: string, chunk: number, dedupe: boolean): Promise<void> {
  if ((await bucket.head(jobKeys.chunk(jobId, chunk))) !== null) return;
  if (dedupe) {
    const signatures = new Map<number, string>();
    for (const object of await listAll(bucket, jobKeys.signaturePart(jobKeys.partsOf(jobId, chunk)))) {
      const body = await bucket.get(object.key);
      if (body === null) continue;
      for (const [index, hex] of (await body.json()) as [number, string][]) if (!signatures.has(index)) signatures.set(index, hex);
    }
    await bucket.put(jobKeys.signatures(jobId, chunk), JSON.stringify([...signatures].sort((a, b) => a[0] - b[0])));
  }
  await bucket.put(jobKeys.chunk(jobId, chunk), await partialResults(bucket, jobId, chunk), { httpMetadata: { contentType: 'application/x-ndjson' } });
}
