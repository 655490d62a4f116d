// Fetching the target: every error status, limits while streaming, redirects checked hop by hop.

import { describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_LIMITS, guardedFetch } from '../../../src/io/fetch';
import { checkTarget, parseAllowHosts } from '../../../src/io/guard';
import { BLOCKED_URLS } from './blocked-urls';
import { call, errorOf, extractPath, page, pageServerPort } from './helpers';

async function expectError(path: string, status: number, code: string, vars = {}): Promise<Response> {
  const res = await call(path, undefined, vars);
  expect(res.status, path).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const error = await errorOf(res.clone());
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
  expect(res.headers.get('x-cache')).toBeNull();
  return res;
}

/** The deployed default: nothing allowed. (The tests' config allows 127.0.0.1 for the page server.) */
const NOTHING_ALLOWED = { PITH_ALLOW_HOSTS: '' };

describe('blocked targets: 403 before any connection', () => {
  // Each URL is first refused by the pure guard, here, without network: if the guard ever let one through,
  // the test fails at that line and the route is never asked to fetch a non-loopback address.
  for (const [url, what] of BLOCKED_URLS) {
    it(`${what}: ${url}`, async () => {
      expect(() => checkTarget(url)).toThrow(/refusing to fetch/);
      await expectError(extractPath(url), 403, 'blocked_target', NOTHING_ALLOWED);
    });
  }

  it('in the prefix form too', async () => {
    expect(() => checkTarget('http://169.254.169.254/latest/meta-data/')).toThrow();
    await expectError('/http://169.254.169.254/latest/meta-data/', 403, 'blocked_target', NOTHING_ALLOWED);
    await expectError('/0x7f000001/', 403, 'blocked_target', NOTHING_ALLOWED);
    await expectError('/[::1]/', 403, 'blocked_target', NOTHING_ALLOWED);
  });

  it('other loopback spellings of the allowed 127.0.0.1 pass, since they are the same address', async () => {
    const res = await call(extractPath(`http://2130706433:${pageServerPort}/page/article-news`));
    expect(res.status).toBe(200);
  });

  it('a redirect from an allowed host to a private address is refused at that hop', async () => {
    for (const to of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/', 'http://0xa9fea9fe/', 'http://metadata.google.internal/', `http://127.0.0.2:${pageServerPort}/page/article-news`]) {
      expect(() => checkTarget(to)).toThrow(/refusing to fetch/); // proves the hop is refused offline first
      const res = await expectError(extractPath(page(`/redirect?to=${encodeURIComponent(to)}`)), 403, 'blocked_target');
      expect((await errorOf(res)).message).toContain('refusing to fetch');
    }
  });

  it('a redirect to another scheme is refused as an invalid URL', async () => {
    await expectError(extractPath(page(`/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)), 400, 'invalid_url');
  });
});

describe('invalid targets: 400', () => {
  for (const url of ['ftp://example.com/file', 'http://user:pass@example.com/', 'http://exa mple.com/', 'nonsense']) {
    it(url, async () => {
      await expectError(extractPath(url), 400, 'invalid_url');
    });
  }
});

describe('redirects', () => {
  it('follows up to 5', async () => {
    expect((await call(extractPath(page('/chain/5')))).status).toBe(200);
  });

  it('refuses the 6th with 502', async () => {
    const res = await expectError(extractPath(page('/chain/6')), 502, 'upstream_error');
    expect((await errorOf(res)).message).toMatch(/more than 5 redirects/);
  });
});

describe('upstream errors: 502 with X-Upstream-Status', () => {
  for (const status of [404, 410, 500, 503]) {
    it(`upstream ${status}`, async () => {
      const res = await expectError(extractPath(page(`/status/${status}`)), 502, 'upstream_error');
      expect(res.headers.get('x-upstream-status')).toBe(String(status));
    });
  }

  it('a refused connection is 502 too', async () => {
    // Port 9 (discard) on the allowed loopback address: nothing listens, the connection is refused.
    await expectError(extractPath('http://127.0.0.1:9/'), 502, 'upstream_error');
  });
});

describe('time-out: 504', () => {
  it('an upstream that trickles its body', async () => {
    const started = Date.now();
    const res = await expectError(extractPath(page('/slow-body')), 504, 'upstream_timeout', { PITH_FETCH_TIMEOUT_MS: '700' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await errorOf(res)).message).toContain('700 ms');
  });

  it('an upstream that never sends headers', async () => {
    const started = Date.now();
    await expectError(extractPath(page('/slow-headers')), 504, 'upstream_timeout', { PITH_FETCH_TIMEOUT_MS: '500' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('guardedFetch for other callers (the feed proxy)', () => {
  const xmlOptions = {
    ...DEFAULT_FETCH_LIMITS,
    allowHosts: parseAllowHosts('127.0.0.1'),
    accept: 'application/xml',
    acceptMediaType: (t: string) => t.endsWith('xml'),
    rejectCode: 'not_a_feed' as const,
    wanted: 'a feed',
  };

  it("applies the caller's content-type rule", async () => {
    await expect(guardedFetch(page('/page/article-news'), xmlOptions)).rejects.toMatchObject({ code: 'not_a_feed' });
    const body = await guardedFetch(page('/xhtml'), xmlOptions);
    expect(body.mediaType).toBe('application/xhtml+xml');
    expect(body.bytes.byteLength).toBeGreaterThan(1000);
  });

  it("a caller's abort signal ends the fetch as a time-out", async () => {
    const started = Date.now();
    await expect(guardedFetch(page('/slow-body'), { ...xmlOptions, acceptMediaType: () => true, signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('too large: 413', () => {
  it('6 MB sent chunked, cut while streaming', async () => {
    await expectError(extractPath(page('/big')), 413, 'upstream_too_large');
  });

  it('6 MB announced by Content-Length, refused before reading', async () => {
    await expectError(extractPath(page('/big-length')), 413, 'upstream_too_large');
  });

  it('6 MB compressed to 30 kB with gzip: decompressed bytes count', async () => {
    await expectError(extractPath(page('/big-gzip')), 413, 'upstream_too_large');
  });

  it('the cap is configurable', async () => {
    await expectError(extractPath(page('/page/article-blog')), 413, 'upstream_too_large', { PITH_MAX_BYTES: '1000' });
  });
});

describe('not HTML: 415', () => {
  it('an image', async () => {
    await expectError(extractPath(page('/image.png')), 415, 'not_html');
  });

  it('plain text', async () => {
    await expectError(extractPath(page('/text')), 415, 'not_html');
  });

  it('XHTML is HTML', async () => {
    expect((await call(extractPath(page('/xhtml')))).status).toBe(200);
  });

  it('no Content-Type but an HTML body is sniffed as HTML', async () => {
    expect((await call(extractPath(page('/no-type')))).status).toBe(200);
  });
});

describe('nothing found: 422', () => {
  it('an empty page', async () => {
    await expectError(extractPath(page('/page/empty')), 422, 'no_content');
  });
});

describe('broken HTML', () => {
  it('still gives its text', async () => {
    const res = await call(extractPath(page('/page/broken'), '&format=text'));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('the lighthouse keeper who');
    expect(text).toContain('the ships that passed');
  });
});
