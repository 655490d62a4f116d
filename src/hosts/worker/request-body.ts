// The bytes of a request body, bounded: the posted-HTML routes (POST /v1/extract, extract.php) read through this.
// Not hono/body-limit: with a Content-Length (and no Transfer-Encoding) it checks only the header and passes the
// stream on uncounted, and its limit is fixed when the middleware is built, where ours comes from the env per
// request; readRequestBody() counts the bytes actually read and decoded, the same reader the page fetcher uses.

import { PithError } from '../../errors.js';
import { readRequestBody } from '../../io/fetch.js';
import type { Settings } from './env.js';

/** The body, decoded (Content-Encoding) and at most settings.fetch.maxBytes, within settings.fetch.timeoutMs. */
export async function readBoundedBody(request: Request, settings: Settings): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '');
  const maxBytes = settings.fetch.maxBytes;
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new PithError('input_too_large', `the posted body is ${declared} bytes, more than the ${maxBytes} pith takes`);
  }
  // One deadline for the whole body, like a fetch: a client sending a byte a second holds nothing for long.
  const timeoutMs = settings.fetch.timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PithError('request_timeout', `the posted body did not arrive within ${timeoutMs} ms`, { timeoutMs })), timeoutMs);
  });
  deadline.catch(() => undefined);
  try {
    return await readRequestBody(request.body, request.headers.get('content-encoding'), maxBytes, deadline);
  } catch (err) {
    if (err instanceof PithError && err.code === 'upstream_error') throw new PithError('invalid_input', err.message); // a broken client stream
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Checks that a url given only for resolving links is an absolute http(s) URL; it is never fetched. */
export function baseUrlOf(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PithError('invalid_url', `url "${url.slice(0, 200)}" is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new PithError('invalid_url', 'url must be http or https');
  return parsed.href;
}
