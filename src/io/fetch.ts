// The guarded fetch: every outbound request of pith, in the Worker and in the CLI, goes through guardedFetch().
// - Each URL (the target and every redirect hop) passes checkTarget() before a connection is made.
// - Redirects are followed here (redirect: 'manual'), at most `maxRedirects`.
// - One deadline (`timeoutMs`) covers all hops and the whole body; the body streams through the one content
//   decoder (content-decoder.ts), cut at `maxBytes` decoded bytes. The runtime decodes some codings itself (workerd:
//   gzip and br; Node's fetch: gzip, x-gzip, deflate and br), pith the rest. A body that does not decode, a body cut
//   short or a coding pith does not know is a 502 `upstream_error`, never a 500.
// - The caller says which content types it takes (HTML pages here; the feed proxy takes XML).
// fetchPage() adds what HTML needs: the content-type check and charset decoding.

import { concatBytes } from './bytes.js';
import { PithError } from '../errors.js';
import { decodeBody } from './charset.js';
import { sniffBinary } from './sniff.js';
import { chunksOf, CLIENT_CODES, decodeStream, DECODABLE_CODINGS, type DecodeCodes, formatBytes, IN_WORKERD, parseContentCoding, UPSTREAM_CODES } from './content-decoder.js';
import { causeOfStatus, connectError, isConnectionLost, logFetchFailure, type TcpProbe } from './fetch-errors.js';
import { checkTarget } from './guard.js';
import { isHtmlMediaType, mediaTypeOf } from './media-type.js';

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
  /** Tells DNS from TLS failures where the runtime does not (the Worker's: hosts/worker/tcp-probe.ts). */
  tcpProbe?: TcpProbe;
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
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

class DeadlineExceeded extends Error {}

/** Chunks of `stream`, each read raced with `deadline`; a broken stream is PithError 'upstream_error'. */
async function* chunksBefore(stream: ReadableStream<Uint8Array> | null, deadline: Promise<never> | undefined, what: string): AsyncGenerator<Uint8Array> {
  const chunks = chunksOf(stream);
  try {
    for (;;) {
      const next = chunks.next().catch((err: unknown) => {
        // The peer closed early (a Content-Length it did not keep), reset, or sent a body its coding does not decode.
        throw new PithError('upstream_error', `reading ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
      });
      const { done, value } = deadline === undefined ? await next : await Promise.race([next, deadline]);
      if (done === true) return;
      yield value;
    }
  } finally {
    await chunks.return(undefined).catch(() => undefined);
  }
}

export interface ReadBodyOptions {
  /** Most decoded bytes (and most bytes on the wire). */
  maxBytes: number;
  /** Rejects when time is up (raced with every read). */
  deadline?: Promise<never>;
  /** Date.now() after which decoding stops. */
  deadlineMs?: number;
  what: string;
  codes: DecodeCodes;
}

/**
 * Reads a body of the given Content-Encoding (null: none) into one buffer, decoded by the one content decoder and
 * bounded by `options`: past the cap `codes.tooLarge`; a coding pith cannot decode, or data that does not decode,
 * `codes.corrupt`.
 */
export async function readBody(stream: ReadableStream<Uint8Array> | null, contentEncoding: string | null, options: ReadBodyOptions): Promise<Uint8Array> {
  const coding = parseContentCoding(contentEncoding, options.codes.corrupt, options.what);
  const parts: Uint8Array[] = [];
  const decoded = decodeStream(chunksBefore(stream, options.deadline, options.what), coding, {
    maxBytes: options.maxBytes,
    maxInputBytes: options.maxBytes,
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    what: options.what,
    codes: options.codes,
  });
  for await (const part of decoded) parts.push(part);
  return concatBytes(parts);
}

/**
 * Reads a plain stream into one buffer, refusing more than `maxBytes` ('upstream_too_large') and giving up at
 * `deadline` (a promise that rejects). For bodies that have no coding (a job request).
 */
export function readLimited(stream: ReadableStream<Uint8Array> | null, maxBytes: number, deadline?: Promise<never>, what = 'the page'): Promise<Uint8Array> {
  return readBody(stream, null, { maxBytes, ...(deadline === undefined ? {} : { deadline }), what, codes: UPSTREAM_CODES });
}

/** Reads a body the client sent (POST): 413 past the cap, 400 when it does not decode, 408 when it is too slow. */
export function readRequestBody(stream: ReadableStream<Uint8Array> | null, contentEncoding: string | null, maxBytes: number, deadline?: Promise<never>): Promise<Uint8Array> {
  return readBody(stream, contentEncoding, { maxBytes, ...(deadline === undefined ? {} : { deadline }), what: 'the posted body', codes: CLIENT_CODES });
}

/**
 * Codings the runtime's fetch() decodes itself (the body arrives decoded, the header stays): workerd gzip and br;
 * Node's fetch (undici) gzip, x-gzip, deflate and br.
 */
const RUNTIME_DECODES: ReadonlySet<string> =
  IN_WORKERD ? new Set(['gzip', 'br']) : new Set(['gzip', 'x-gzip', 'deflate', 'br']);


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
    let retried = false;
    for (;;) {
      let response: Response;
      try {
        response = await Promise.race([
          fetch(url.href, {
            method: 'GET',
            redirect: 'manual',
            signal: controller.signal,
            headers: { accept: options.accept, 'accept-encoding': DECODABLE_CODINGS, 'user-agent': USER_AGENT, 'accept-language': 'en;q=0.9, *;q=0.5' },
          }),
          deadline,
        ]);
      } catch (err) {
        if (err instanceof DeadlineExceeded || controller.signal.aborted) throw err;
        // A connection lost before any byte of the answer (a server closing an idle keep-alive connection): a GET is
        // idempotent, so it is tried once more, as browsers do. Time-outs and guard refusals never get here.
        if (!retried && isConnectionLost(err)) {
          retried = true;
          continue;
        }
        throw await connectError(err, url, deadline, options.tcpProbe); // says why: refused, DNS or TLS
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
      const contentEncoding = (response.headers.get('content-encoding') ?? '').trim().toLowerCase();
      const bytes = await readBody(response.body, RUNTIME_DECODES.has(contentEncoding) ? null : contentEncoding, {
        maxBytes: options.maxBytes,
        deadline,
        deadlineMs: started + options.timeoutMs,
        what: `the body from ${url.host}`,
        codes: UPSTREAM_CODES,
      });
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
export async function fetchPage(target: string | URL, options: FetchLimits & { allowHosts: ReadonlySet<string>; signal?: AbortSignal; tcpProbe?: TcpProbe }): Promise<FetchedPage> {
  const body = await guardedFetch(target, {
    ...options,
    accept: HTML_ACCEPT,
    // '' (no Content-Type) is let through and sniffed below.
    acceptMediaType: (mediaType) => mediaType === '' || isHtmlMediaType(mediaType),
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
