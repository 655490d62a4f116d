// The guarded fetch: every outbound request of pith goes through guardedFetch().
// - Each URL (the target and every redirect hop) passes checkTarget() before a connection is made.
// - Redirects are followed here (redirect: 'manual'), at most `maxRedirects`.
// - One deadline (`timeoutMs`) covers all hops and the whole body; the body is read as a stream and cut at
//   `maxBytes`.
// - Content codings: the runtime decodes gzip and br; pith decodes deflate (zlib or raw) and x-gzip itself with
//   DecompressionStream, which workerd leaves encoded. Decoded bytes are what counts against `maxBytes`, so a
//   small compressed bomb is stopped like a large plain body. A body that does not decode, a body cut short (a
//   lying Content-Length, a reset) or a coding pith does not know (zstd, stacked codings) is a 502
//   `upstream_error`, never a 500. (Under `wrangler dev` a corrupt gzip/br reply used to kill workerd: its DevTools
//   inspector decodes the body too, fatally; issue 11 defect 1, scripts/start.js has the story.)
// - The caller says which content types it takes (HTML pages here; the feed proxy takes XML).
// fetchPage() adds what HTML needs: the content-type check and charset decoding.

import { concatBytes } from '../../io/bytes.js';
import { PithError } from '../../errors.js';
import { decodeBody } from '../../io/charset.js';
import { sniffBinary } from '../../io/sniff.js';
import { causeOfStatus, connectError, logFetchFailure } from './fetch-errors.js';
import { checkTarget } from '../../io/guard.js';

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
      const next = reader.read().catch((err: unknown) => {
        // The stream broke: the peer closed early (a Content-Length it did not keep), reset, or sent a body
        // its coding does not decode. Not pith's fault: 'upstream_error' (the POST route maps it to 'invalid_input').
        throw new PithError('upstream_error', `reading ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
      });
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
  return concatBytes(chunks);
}

/** The content codings pith takes: gzip and br decoded by the runtime, deflate and x-gzip by decodeContent(). */
const ACCEPT_ENCODING = 'gzip, deflate, br';
type ContentCoding = 'identity' | 'decoded-by-runtime' | 'x-gzip' | 'deflate';

/** What to do with a Content-Encoding header; a coding pith cannot decode is the upstream's error. */
function contentCodingOf(header: string | null, host: string): ContentCoding {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'br') return 'decoded-by-runtime';
  if (value === 'x-gzip' || value === 'deflate') return value;
  throw new PithError('upstream_error', `${host} sent Content-Encoding "${value.slice(0, 40)}", which pith cannot decode (it takes ${ACCEPT_ENCODING})`, { contentEncoding: value.slice(0, 40) });
}

/** Whether a deflate body is zlib-wrapped (RFC 1950 CMF/FLG check) rather than raw deflate. */
function isZlib(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

/**
 * Inflates gzip or deflate bytes, cutting the output at `maxBytes` (a bomb stops there: 'upstream_too_large')
 * and failing with 'upstream_error' when they do not decode. "deflate" is meant to be zlib-wrapped (RFC 9110),
 * but some servers send raw deflate: isZlib() tells them apart.
 */
async function inflate(bytes: Uint8Array, coding: 'gzip' | 'deflate', maxBytes: number, deadline: Promise<never> | undefined, what: string): Promise<Uint8Array> {
  const format = coding === 'gzip' ? 'gzip' : isZlib(bytes) ? 'deflate' : 'deflate-raw';
  const decoded = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format));
  try {
    return await readLimited(decoded, maxBytes, deadline, `${what}, ${coding}-decoded,`);
  } catch (err) {
    if (err instanceof PithError && err.code === 'upstream_error') {
      throw new PithError('upstream_error', `${what} is labelled ${coding} but does not decode (${err.message})`, { contentEncoding: coding });
    }
    throw err;
  }
}

/** Decodes what the runtime left encoded (x-gzip, deflate) of a fetched body. */
async function decodeContent(bytes: Uint8Array, coding: ContentCoding, maxBytes: number, deadline: Promise<never>, host: string): Promise<Uint8Array> {
  if (coding === 'identity' || coding === 'decoded-by-runtime') return bytes;
  return inflate(bytes, coding === 'x-gzip' ? 'gzip' : 'deflate', maxBytes, deadline, `the body from ${host}`);
}

/**
 * Decodes a request body by its Content-Encoding (the runtime does not): identity, gzip, x-gzip or deflate.
 * Throws 'invalid_input' for other codings or a body that does not decode, 'upstream_too_large' past `maxBytes`.
 */
export async function decodeRequestBody(bytes: Uint8Array, contentEncoding: string | null, maxBytes: number, deadline?: Promise<never>): Promise<Uint8Array> {
  const value = (contentEncoding ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return bytes;
  if (value !== 'gzip' && value !== 'x-gzip' && value !== 'deflate') {
    throw new PithError('invalid_input', `the posted body has Content-Encoding "${value.slice(0, 40)}": pith takes plain, gzip or deflate bodies`);
  }
  try {
    return await inflate(bytes, value === 'deflate' ? 'deflate' : 'gzip', maxBytes, deadline, 'the posted body');
  } catch (err) {
    if (err instanceof PithError && err.code === 'upstream_error') throw new PithError('invalid_input', err.message);
    throw err;
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(2)} MB` : `${n} bytes`;
}

/** Fetches `target` with the guard, manual redirects, a deadline and a size cap. */
export async function guardedFetch(target: string | URL, options: GuardedFetchOptions): Promise<FetchedBody> {
  try {
    return await guardedFetchOnce(target, options);
  } catch (err) {
    logFetchFailure(String(target), err); // one structured line per failed fetch: pages, feeds and feed items
    throw err;
  }
}

async function guardedFetchOnce(target: string | URL, options: GuardedFetchOptions): Promise<FetchedBody> {
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
            headers: { accept: options.accept, 'accept-encoding': ACCEPT_ENCODING, 'user-agent': USER_AGENT, 'accept-language': 'en;q=0.9, *;q=0.5' },
          }),
          deadline,
        ]);
      } catch (err) {
        if (err instanceof DeadlineExceeded || controller.signal.aborted) throw err;
        throw await connectError(err, url, deadline); // says why: refused, DNS or TLS
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
        const cause = causeOfStatus(response.status, response.headers); // Cloudflare's edge: 52x for unreachable origins
        throw new PithError('upstream_error', `${url.host} answered ${response.status} ${response.statusText}`.trim(), {
          upstreamStatus: response.status,
          ...(cause === null ? {} : { cause }),
        });
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
      const coding = contentCodingOf(response.headers.get('content-encoding'), url.host);
      const raw = await readLimited(response.body, options.maxBytes, deadline);
      const bytes = await decodeContent(raw, coding, options.maxBytes, deadline, url.host);
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
      throw new PithError('upstream_timeout', `${first.host} did not send the page within ${options.timeoutMs} ms`, { timeoutMs: options.timeoutMs, cause: 'timeout' });
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
  const binary = sniffBinary(body.bytes);
  if (binary !== null) {
    const err = new PithError('not_html', `${body.finalUrl.slice(0, 200)} is labelled ${body.mediaType === '' ? 'with no type' : body.mediaType} but holds ${binary}, not an HTML page`, { mediaType: body.mediaType });
    logFetchFailure(String(target), err);
    throw err;
  }
  const { text, encoding } = decodeBody(body.bytes, body.contentType);
  if (body.mediaType === '' && !looksLikeHtml(text)) {
    const err = new PithError('not_html', `${body.finalUrl.slice(0, 200)} sent no Content-Type and does not look like HTML`, { mediaType: '' });
    logFetchFailure(String(target), err);
    throw err;
  }
  const { bytes, ...rest } = body;
  return { ...rest, html: text, encoding, byteLength: bytes.byteLength };
}
