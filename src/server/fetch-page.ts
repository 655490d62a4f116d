// The guarded fetch: every outbound request of pith goes through guardedFetch().
// - Each URL (the target and every redirect hop) passes checkTarget() before a connection is made.
// - Redirects are followed here (redirect: 'manual'), at most `maxRedirects`.
// - One deadline (`timeoutMs`) covers all hops and the whole body; the body is read as a stream and cut at
//   `maxBytes`. The runtime decompresses gzip/brotli bodies before they reach the stream, so the bytes
//   counted are decompressed bytes: a small compressed bomb is stopped like a large plain body.
// - The caller says which content types it takes (HTML pages here; the feed proxy takes XML).
// fetchPage() adds what HTML needs: the content-type check and charset decoding.

import { PithError } from '../errors.js';
import { decodeBody } from '../parse/charset.js';
import { checkTarget } from './guard.js';

export interface FetchLimits {
  /** Deadline for all hops and the whole body, milliseconds. */
  timeoutMs: number;
  /** Largest body accepted, bytes (decompressed). */
  maxBytes: number;
  /** Largest number of redirects followed. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: Readonly<FetchLimits> = Object.freeze({
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
});

export interface GuardedFetchOptions extends FetchLimits {
  /** Canonical hosts that pass the address guard (PITH_ALLOW_HOSTS). */
  allowHosts: ReadonlySet<string>;
  /** Accept header sent upstream. */
  accept: string;
  /**
   * Decides from the media type (lower case, no parameters; '' when absent) whether the body is wanted.
   * Returning false stops before the body is read, with PithError `rejectCode`.
   */
  acceptMediaType: (mediaType: string) => boolean;
  rejectCode: 'not_html' | 'not_a_feed';
  /** What the caller wanted, for the rejection message ("an HTML page"). */
  wanted: string;
  /** Ends the fetch early, like the deadline (e.g. the feed proxy's total time budget): 'upstream_timeout'. */
  signal?: AbortSignal;
}

export interface FetchedBody {
  /** The URL asked for (after validation, fragment removed). */
  url: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  status: number;
  /** Media type of the body, lower case, no parameters ('' when the upstream sent none). */
  mediaType: string;
  /** The upstream's Content-Type header as sent ('' when absent). */
  contentType: string;
  bytes: Uint8Array;
  redirects: number;
  fetchMs: number;
}

export interface FetchedPage extends Omit<FetchedBody, 'bytes'> {
  html: string;
  /** Encoding used to decode the body (WHATWG name, e.g. "windows-1251"). */
  encoding: string;
  byteLength: number;
}

const USER_AGENT = 'pith/0.1 (main-content extraction; Web2Text)';
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

class DeadlineExceeded extends Error {}

function mediaTypeOf(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

/**
 * Reads a stream into one buffer, refusing more than `maxBytes` and giving up at `deadline` (a promise that
 * rejects). Throws PithError 'upstream_too_large' past the cap. Also used for request bodies.
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deadline?: Promise<never>,
  what = 'the page',
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const next = reader.read();
      const { done, value } = deadline === undefined ? await next : await Promise.race([next, deadline]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        throw new PithError('upstream_too_large', `${what} is larger than ${formatBytes(maxBytes)}: pith reads at most ${formatBytes(maxBytes)}`, { maxBytes });
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(2)} MB` : `${n} bytes`;
}

/** Fetches `target` with the guard, manual redirects, a deadline and a size cap. */
export async function guardedFetch(target: string | URL, options: GuardedFetchOptions): Promise<FetchedBody> {
  const started = Date.now();
  const first = checkTarget(target, options.allowHosts);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onCallerAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const expire = (): void => {
      reject(new DeadlineExceeded());
      controller.abort();
    };
    timer = setTimeout(expire, options.timeoutMs);
    if (options.signal !== undefined) {
      if (options.signal.aborted) expire();
      onCallerAbort = expire;
      options.signal.addEventListener('abort', onCallerAbort);
    }
  });
  deadline.catch(() => undefined); // handled where raced; avoid an unhandled rejection when nobody races it
  try {
    let url = first;
    let redirects = 0;
    for (;;) {
      let response: Response;
      try {
        response = await Promise.race([
          fetch(url.href, {
            method: 'GET',
            redirect: 'manual',
            signal: controller.signal,
            headers: { accept: options.accept, 'user-agent': USER_AGENT, 'accept-language': 'en;q=0.9, *;q=0.5' },
          }),
          deadline,
        ]);
      } catch (err) {
        if (err instanceof DeadlineExceeded || controller.signal.aborted) throw err;
        throw new PithError('upstream_error', `could not connect to ${url.host}: ${err instanceof Error ? err.message : String(err)}`, { host: url.host });
      }
      if (REDIRECT_STATUSES.has(response.status)) {
        response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (location === null) {
          throw new PithError('upstream_error', `${url.host} answered ${response.status} without a Location header`, { upstreamStatus: response.status });
        }
        if (redirects >= options.maxRedirects) {
          throw new PithError('upstream_error', `more than ${options.maxRedirects} redirects, last to ${location.slice(0, 200)}`, { upstreamStatus: response.status });
        }
        url = checkTarget(location, options.allowHosts, url.href); // every hop is checked before connecting
        redirects++;
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        response.body?.cancel().catch(() => undefined);
        throw new PithError('upstream_error', `${url.host} answered ${response.status} ${response.statusText}`.trim(), { upstreamStatus: response.status });
      }
      const contentType = response.headers.get('content-type') ?? '';
      const mediaType = mediaTypeOf(contentType);
      if (!options.acceptMediaType(mediaType)) {
        response.body?.cancel().catch(() => undefined);
        throw new PithError(options.rejectCode, `${url.href.slice(0, 200)} is ${mediaType === '' ? 'of unknown type' : mediaType}, not ${options.wanted}`, { mediaType });
      }
      const declared = Number(response.headers.get('content-length') ?? '');
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.body?.cancel().catch(() => undefined);
        throw new PithError('upstream_too_large', `the page is ${formatBytes(declared)}, larger than the ${formatBytes(options.maxBytes)} pith reads`, { maxBytes: options.maxBytes });
      }
      const bytes = await readLimited(response.body, options.maxBytes, deadline);
      return {
        url: first.href,
        finalUrl: url.href,
        status: response.status,
        mediaType,
        contentType,
        bytes,
        redirects,
        fetchMs: Date.now() - started,
      };
    }
  } catch (err) {
    if (err instanceof DeadlineExceeded || (controller.signal.aborted && !(err instanceof PithError))) {
      throw new PithError('upstream_timeout', `${first.host} did not send the page within ${options.timeoutMs} ms`, { timeoutMs: options.timeoutMs });
    }
    throw err;
  } finally {
    clearTimeout(timer);
    if (onCallerAbort !== undefined) options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

const HTML_SNIFF = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|title|meta|p|div)\b/i;

/** Whether a body without a Content-Type looks like HTML. */
export function looksLikeHtml(text: string): boolean {
  return HTML_SNIFF.test(text.slice(0, 2048));
}

/** Fetches an HTML or XHTML page through guardedFetch() and decodes it. */
export async function fetchPage(target: string | URL, options: FetchLimits & { allowHosts: ReadonlySet<string>; signal?: AbortSignal }): Promise<FetchedPage> {
  const body = await guardedFetch(target, {
    ...options,
    accept: HTML_ACCEPT,
    // '' (no Content-Type) is let through and sniffed below.
    acceptMediaType: (mediaType) => mediaType === '' || HTML_MEDIA_TYPES.has(mediaType),
    rejectCode: 'not_html',
    wanted: 'an HTML or XHTML page',
  });
  const { text, encoding } = decodeBody(body.bytes, body.contentType);
  if (body.mediaType === '' && !looksLikeHtml(text)) {
    throw new PithError('not_html', `${body.finalUrl.slice(0, 200)} sent no Content-Type and does not look like HTML`, { mediaType: '' });
  }
  const { bytes, ...rest } = body;
  return { ...rest, html: text, encoding, byteLength: bytes.byteLength };
}
