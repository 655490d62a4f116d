// The Content-Security-Policy of every HTML answer (format=html, format=debug, the index page), set once as
// middleware so that no route can forget it. Extracted HTML is the page's own markup, cleaned: the policy is the
// second wall, so that a script, a frame or a form that got through runs nowhere. Images may load (the article's
// own); styles only inline (the debug view's). A route that sets its own policy keeps it.

import type { MiddlewareHandler } from 'hono';

export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/** Adds HTML_CSP to HTML answers that have no Content-Security-Policy of their own. */
export const htmlCsp: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (!HTML_TYPE.test(res.headers.get('content-type') ?? '') || res.headers.has('content-security-policy')) return;
  try {
    res.headers.set('content-security-policy', HTML_CSP);
  } catch {
    // Headers of a response from the cache or from fetch() are immutable: answer a copy.
    const copy = new Response(res.body, res);
    copy.headers.set('content-security-policy', HTML_CSP);
    c.res = copy;
  }
};
