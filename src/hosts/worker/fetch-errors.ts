// Why an outbound fetch failed, as far as the runtime lets us know, and one structured log line per failure.
//
// What workerd's fetch() throws (measured with wrangler 4.86 / workerd, test/workers/server/fetch-errors.test.ts):
//   connection refused or reset        Error "Network connection lost." (with `retryable`)
//   name that does not resolve (DNS)   Error "internal error; reference = <id>"
//   TLS handshake with a plain server  Error "internal error; reference = <id>" (the same)
// DNS and TLS look the same, so for an "internal error" one plain TCP connection to the host and port tells them
// apart: it opens when the name resolves and something listens (the failure was TLS, or unknown over plain HTTP), and
// fails when the name does not resolve. On Cloudflare's edge, the same failures come back as responses with
// Cloudflare's own status codes (521 refused, 522/524 time-out, 523 unreachable, 525/526 TLS, 530 DNS), read by
// causeOfStatus(). Time-outs are pith's own deadline.

import { connect } from 'cloudflare:sockets';
import { PithError } from '../../errors.js';

/** Why a fetch failed: the `cause` of upstream errors in the error JSON and in the log line. */
export type FetchCause = 'dns' | 'refused' | 'tls' | 'timeout' | 'unreachable' | 'unknown';

/** How long the TCP probe may take at most (it also stops at the fetch's own deadline). */
const PROBE_TIMEOUT_MS = 2_000;

const CONNECTION_LOST = /network connection lost/i;
const INTERNAL_ERROR = /internal error/i;

/** Cloudflare's own status codes for origin failures (only trusted when Cloudflare itself answered). */
const CLOUDFLARE_STATUS_CAUSE: ReadonlyMap<number, FetchCause> = new Map([
  [521, 'refused'],
  [522, 'timeout'],
  [523, 'unreachable'],
  [524, 'timeout'],
  [525, 'tls'],
  [526, 'tls'],
  [530, 'dns'],
]);

/** The cause behind an error status that Cloudflare's edge generated for an unreachable origin, or null. */
export function causeOfStatus(status: number, headers: Headers): FetchCause | null {
  const cause = CLOUDFLARE_STATUS_CAUSE.get(status);
  if (cause === undefined) return null;
  return (headers.get('server') ?? '').toLowerCase() === 'cloudflare' ? cause : null;
}

/** Whether a plain TCP connection to the URL's host and port opens (the name resolves and something listens). */
async function tcpOpens(url: URL, deadline: Promise<never>): Promise<boolean> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  try {
    const socket = connect({ hostname: url.hostname.replace(/^\[|\]$/g, ''), port }, { secureTransport: 'off', allowHalfOpen: false });
    const opened = socket.opened.then(
      () => true,
      () => false,
    );
    const result = await Promise.race([opened, timeout, deadline.catch(() => false)]);
    socket.close().catch(() => undefined);
    return result;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The PithError for a fetch() that threw before any response, with its cause. */
export async function connectError(err: unknown, url: URL, deadline: Promise<never>): Promise<PithError> {
  const raw = err instanceof Error ? err.message : String(err);
  const host = url.host;
  let cause: FetchCause = 'unknown';
  let message = `could not connect to ${host}: ${raw}`;
  if (CONNECTION_LOST.test(raw)) {
    cause = 'refused';
    message = `could not connect to ${host}: the connection was refused or reset (is a server listening on that port?)`;
  } else if (INTERNAL_ERROR.test(raw)) {
    if (await tcpOpens(url, deadline)) {
      if (url.protocol === 'https:') {
        cause = 'tls';
        message = `could not connect to ${host}: the TLS handshake failed (the server does not speak TLS on that port, or its certificate is not accepted)`;
      }
    } else {
      cause = 'dns';
      message = `could not connect to ${host}: the name does not resolve (DNS) or the host cannot be reached`;
    }
  }
  return new PithError('upstream_error', message, { host, cause });
}

/** The cause recorded on a fetch error (`details.cause`), if any. */
export function causeOf(err: PithError): FetchCause | undefined {
  const cause = err.details?.cause;
  return typeof cause === 'string' ? (cause as FetchCause) : undefined;
}

/**
 * Logs one failed fetch as one JSON line: {"event": "fetch_failed", url, code, cause, status, message}. Every
 * outbound fetch of pith (pages, feeds, feed items) goes through guardedFetch(), which calls this once per failure.
 */
export function logFetchFailure(url: string, err: unknown): void {
  const line: Record<string, unknown> = { event: 'fetch_failed', url: url.slice(0, 2000) };
  if (err instanceof PithError) {
    line.code = err.code;
    line.cause = causeOf(err) ?? (err.code === 'upstream_timeout' ? 'timeout' : null);
    if (typeof err.details?.upstreamStatus === 'number') line.status = err.details.upstreamStatus;
    line.message = err.message;
  } else {
    line.code = 'internal';
    line.cause = null;
    line.message = err instanceof Error ? err.message : String(err);
  }
  console.log(JSON.stringify(line));
}
