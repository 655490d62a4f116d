// The one place where errors become HTTP responses. Every route throws PithError (src/errors.ts); onError
// maps its code to a status and a JSON body {"error": {"code", "message"}}. Anything else is a bug: it is
// logged and answered 500 with a generic message, never with its internals.

import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { PithError, type PithErrorCode } from '../../errors.js';

/** HTTP status of each error code. */
export const STATUS_OF: Readonly<Record<PithErrorCode, number>> = Object.freeze({
  invalid_url: 400,
  invalid_input: 400,
  unauthorized: 401,
  blocked_target: 403,
  not_found: 404,
  not_acceptable: 406,
  input_too_large: 413,
  upstream_too_large: 413,
  not_html: 415,
  not_a_feed: 415,
  no_content: 422,
  invalid_feed: 422,
  request_timeout: 408,
  rate_limited: 429,
  internal: 500,
  extraction_failed: 500,
  model_missing: 500,
  model_mismatch: 500,
  upstream_error: 502,
  upstream_timeout: 504,
});

/** Codes whose message is for the operator, not the client: the client gets a generic one. */
const HIDDEN_MESSAGES: ReadonlySet<PithErrorCode> = new Set(['internal', 'model_missing', 'model_mismatch']);

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

function jsonError(status: number, code: string, message: string, extraHeaders: Record<string, string> = {}, extraFields: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message, ...extraFields } }), { status, headers: { ...JSON_HEADERS, ...extraHeaders } });
}

/** The response for any thrown value. */
export function errorResponse(err: unknown): Response {
  if (err instanceof PithError) {
    const status = STATUS_OF[err.code] ?? 500;
    const headers: Record<string, string> = {};
    const details = err.details ?? {};
    if (err.code === 'upstream_error' && typeof details.upstreamStatus === 'number') {
      headers['x-upstream-status'] = String(details.upstreamStatus);
    }
    if (err.code === 'rate_limited') headers['retry-after'] = String(Math.max(1, Math.ceil(Number(details.retryAfterS ?? 60))));
    if (err.code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="pith"';
    if (HIDDEN_MESSAGES.has(err.code)) {
      console.error(`pith: ${err.code}: ${err.message}`);
      return jsonError(status, err.code, 'pith could not run its model; the operator has been told in the logs');
    }
    // A request with several bad inputs (POST /v1/jobs) lists each one: {"refused": [{index, url, code, message}]}.
    // Upstream failures say why when pith could tell: dns, refused, tls, timeout, unreachable (io/fetch-errors.ts).
    const extra: Record<string, unknown> = Array.isArray(details.refused) ? { refused: details.refused } : {};
    if (typeof details.cause === 'string') extra.cause = details.cause;
    return jsonError(status, err.code, err.message, headers, extra);
  }
  if (err instanceof HTTPException) {
    // Raised by hono itself (e.g. a malformed JSON body): a client error with hono's message.
    const status = err.status;
    return jsonError(status, status >= 500 ? 'internal' : 'invalid_input', status >= 500 ? 'internal error' : err.message || 'invalid request');
  }
  console.error('pith: unexpected error', err);
  return jsonError(500, 'internal', 'internal error');
}

/** hono onError handler. */
export function onError(err: Error, _c: Context): Response {
  return errorResponse(err);
}

/** hono notFound handler. */
export function onNotFound(c: Context): Response {
  return errorResponse(new PithError('not_found', `no route for ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}: see GET / for the routes`));
}
