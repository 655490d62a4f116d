// Why an outbound fetch failed, as far as the runtime lets us know, and one structured log line per failure.
//
// What workerd's fetch() throws (measured with wrangler 4.86 / workerd, test/workers/server/fetch-errors.test.ts):
//   connection refused or reset        Error "Network connection lost." (with `retryable`)
//   name that does not resolve (DNS)   Error "internal error; reference = <id>"
//   TLS handshake with a plain server  Error "internal error; reference = <id>" (the same)
// DNS and TLS look the same, so for an "internal error" one plain TCP connection to the host and port tells them
// apart: it opens when the name resolves and something listens (the failure was TLS, or unknown over plain HTTP), and
// fails when the name does not resolve (the host gives the probe: hosts/worker/tcp-probe.ts). Node's fetch names the
// socket error in `cause.code` (ECONNREFUSED, ENOTFOUND, ...). On Cloudflare's edge, the same failures come back as responses with
// Cloudflare's own status codes (521 refused, 522/524 time-out, 523 unreachable, 525/526 TLS, 530 DNS), read by
// causeOfStatus(). Time-outs are pith's own deadline.

import { PithError } from '../errors.js';

/** Why a fetch failed: the `cause` of upstream errors in the error JSON and in the log line. */
export type FetchCause = 'dns' | 'refused' | 'tls' | 'timeout' | 'unreachable' | 'unknown';


const CONNECTION_LOST = /network connection lost/i;

/** Node's socket error codes (the `cause` of undici's "fetch failed"). */
const NODE_CAUSES: ReadonlyMap<string, FetchCause> = new Map([
  ['ECONNREFUSED', 'refused'],
  ['ECONNRESET', 'refused'],
  ['UND_ERR_SOCKET', 'refused'],
  ['ENOTFOUND', 'dns'],
  ['EAI_AGAIN', 'dns'],
  ['EHOSTUNREACH', 'unreachable'],
  ['ENETUNREACH', 'unreachable'],
  ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
  ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
  ['SELF_SIGNED_CERT_IN_CHAIN', 'tls'],
  ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
  ['CERT_HAS_EXPIRED', 'tls'],
  ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
]);
const NODE_MESSAGES: Readonly<Record<FetchCause, string>> = {
  refused: 'the connection was refused or reset (is a server listening on that port?)',
  dns: 'the name does not resolve (DNS)',
  unreachable: 'the host cannot be reached',
  tls: 'the TLS handshake failed (the server does not speak TLS on that port, or its certificate is not accepted)',
  timeout: 'it timed out',
  unknown: 'unknown error',
};
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

/**
 * Whether a plain TCP connection to the URL's host and port opens (the name resolves and something listens), at
 * most `deadline`: the host gives it (the Worker's uses cloudflare:sockets); without one, "internal error" stays
 * unexplained.
 */
export type TcpProbe = (url: URL, deadline: Promise<never>) => Promise<boolean>;

/** Node's socket errors for a connection that opened and then broke (not refused, not DNS or TLS). */
const NODE_LOST: ReadonlySet<string> = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/**
 * Whether fetch() threw because the connection was lost before the answer: Node names it (reset, or the other side
 * closed); workerd says "Network connection lost" for that and for a refused connection alike, so there a refused
 * connection is also tried twice (it fails again at once).
 */
export function isConnectionLost(err: unknown): boolean {
  const nodeCode = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof nodeCode === 'string') return NODE_LOST.has(nodeCode);
  return CONNECTION_LOST.test(err instanceof Error ? err.message : String(err));
}

/** The PithError for a fetch() that threw before any response, with its cause. */
export async function connectError(err: unknown, url: URL, deadline: Promise<never>, tcpOpens?: TcpProbe): Promise<PithError> {
  const raw = err instanceof Error ? err.message : String(err);
  const host = url.host;
  let cause: FetchCause = 'unknown';
  let message = `could not connect to ${host}: ${raw}`;
  const nodeCode = (err as { cause?: { code?: unknown } } | null)?.cause?.code; // Node's fetch (undici): the socket error
  if (typeof nodeCode === 'string' && NODE_CAUSES.has(nodeCode)) {
    cause = NODE_CAUSES.get(nodeCode)!;
    message = `could not connect to ${host}: ${NODE_MESSAGES[cause]} (${nodeCode})`;
  } else if (CONNECTION_LOST.test(raw)) {
    cause = 'refused';
    message = `could not connect to ${host}: the connection was refused or reset (is a server listening on that port?)`;
  } else if (INTERNAL_ERROR.test(raw)) {
    if (tcpOpens !== undefined && (await tcpOpens(url, deadline))) {
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
