// pith's own request options and the prefix form's target URL. Pure.
//
// Options (all also work as query parameters, since browsers and feed readers cannot set headers):
//   format=text|markdown|html|json|debug   nocache=1   debug=1   token=<secret>
// Every option may also be written with a `pith_` prefix (pith_format=json): prefixed names always belong to
// pith and are never forwarded.
//
// In the prefix form (GET /<target-url>) the query string is shared by pith and the target. Rule: a parameter
// belongs to pith when it is `pith_`-prefixed, or when its name is format/nocache/debug AND its value is one
// pith understands (so a target's own `?format=amp` or `?debug=verbose` is left alone), or when it is `token`
// and this pith has a token configured. Everything else stays with the target, in its original order and
// encoding. To send a target a parameter pith would take, use GET /v1/extract?url=<percent-encoded URL>.

import { PithError } from '../../errors.js';
import { isFormat } from '../../types.js';

export interface RequestOptions {
  format?: string;
  nocache: boolean;
  debug: boolean;
  token?: string;
}

const PREFIX = 'pith_';
/** Values of a flag option (nocache=, debug=, the feed's dedupe=); TRUE_VALUE the ones that turn it on. */
export const FLAG_VALUE = /^(?:1|0|true|false|yes|no|on|off)$/i;
export const TRUE_VALUE = /^(?:1|true|yes|on)$/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const HTTP_SINGLE_SLASH = /^(https?):\/+/i; // proxies sometimes fold "//" into "/"
const ENCODED_SCHEME = /^https?%3a/i;

/** Whether pith takes a (name, value) pair; the bare names take only values pith understands. */
function isPithParameter(name: string, value: string, tokenConfigured: boolean): boolean {
  if (name.startsWith(PREFIX)) return true;
  if (name === 'format') return isFormat(value.toLowerCase());
  if (name === 'nocache' || name === 'debug') return FLAG_VALUE.test(value);
  if (name === 'token') return tokenConfigured;
  return false;
}

function applyOption(options: RequestOptions, name: string, value: string): void {
  const bare = name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name;
  if (bare === 'format') options.format = value;
  else if (bare === 'nocache') options.nocache = TRUE_VALUE.test(value);
  else if (bare === 'debug') options.debug = TRUE_VALUE.test(value);
  else if (bare === 'token') options.token = value;
  // unknown pith_ names are dropped: they never reach the target
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Options of a query string where every parameter is pith's (GET /v1/extract, POST /v1/extract). */
export function parseOptions(params: URLSearchParams): RequestOptions {
  const options: RequestOptions = { nocache: false, debug: false };
  for (const [name, value] of params) {
    if (name === 'format' || name === 'nocache' || name === 'debug' || name === 'token' || name.startsWith(PREFIX)) {
      applyOption(options, name, value);
    }
  }
  return options;
}

/**
 * Splits a prefix-form request (`/<target-url>?<query>`, path and query as received) into the target URL
 * and pith's options. A missing scheme means https; a percent-encoded target (/https%3A%2F%2F...) is decoded.
 */
export function splitPrefixTarget(pathAndQuery: string, tokenConfigured: boolean): { target: string; options: RequestOptions } {
  let rest = pathAndQuery.startsWith('/') ? pathAndQuery.slice(1) : pathAndQuery;
  if (ENCODED_SCHEME.test(rest)) {
    const q = rest.indexOf('?');
    const encodedTarget = q < 0 ? rest : rest.slice(0, q);
    rest = decodeComponent(encodedTarget) + (q < 0 ? '' : (encodedTarget.includes('%3F') || encodedTarget.includes('%3f') ? '&' : '?') + rest.slice(q + 1));
  }
  const q = rest.indexOf('?');
  let target = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q + 1);
  if (target === '') throw new PithError('invalid_url', 'no target URL: use GET /https://example.com/article or GET /v1/extract?url=...');
  if (!HAS_SCHEME.test(target)) {
    target = HTTP_SINGLE_SLASH.test(target) ? target.replace(HTTP_SINGLE_SLASH, '$1://') : `https://${target}`;
  }
  const options: RequestOptions = { nocache: false, debug: false };
  const kept: string[] = [];
  if (query !== '') {
    for (const pair of query.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
      const value = decodeComponent(eq < 0 ? '' : pair.slice(eq + 1));
      if (isPithParameter(name, value, tokenConfigured)) applyOption(options, name, value);
      else kept.push(pair);
    }
  }
  if (kept.length > 0) target += (target.includes('?') ? '&' : '?') + kept.join('&');
  return { target, options };
}
