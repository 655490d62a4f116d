// Why a fetch failed, in the error JSON and in one structured log line per failure (feed items included). The
// failures are real: a closed port, a name that does not resolve, a TLS handshake with a plain-HTTP server and an
// upstream that never answers, all from inside workerd.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { feedPath, feedUrl } from '../feed/helpers';
import { call, errorOf, extractPath, page, pageServerPort, uniqueId } from './helpers';

interface FetchLog {
  event: string;
  url: string;
  code: string;
  cause: string | null;
  status?: number;
  message: string;
}

let logged: FetchLog[] = [];
beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    const line = args.map(String).join(' ');
    if (line.includes('"event":"fetch_failed"')) logged.push(JSON.parse(line) as FetchLog);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function expectCause(target: string, status: number, code: string, cause: string, vars = {}): Promise<string> {
  const res = await call(extractPath(target), undefined, vars);
  expect(res.status, target).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string; cause?: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.cause, body.error.message).toBe(cause);
  expect(body.error.message).not.toMatch(/internal error; reference/);
  expect(logged.filter((l) => l.url === target)).toEqual([expect.objectContaining({ event: 'fetch_failed', code, cause })]);
  return body.error.message;
}

describe('the cause of a failed fetch', () => {
  it('a closed port: refused', async () => {
    const message = await expectCause('http://127.0.0.1:9/', 502, 'upstream_error', 'refused');
    expect(message).toMatch(/refused or reset/);
  });

  it('a name that does not resolve: dns', async () => {
    const message = await expectCause('http://no-such-host.pith-test.example/', 502, 'upstream_error', 'dns');
    expect(message).toMatch(/does not resolve \(DNS\)/);
  });

  it('https to a server that speaks plain HTTP: tls', async () => {
    const message = await expectCause(`https://127.0.0.1:${pageServerPort}/page/article-blog`, 502, 'upstream_error', 'tls');
    expect(message).toMatch(/TLS handshake failed/);
  });

  it('an upstream that never sends headers: timeout (504)', async () => {
    await expectCause(page('/slow-headers'), 504, 'upstream_timeout', 'timeout', { PITH_FETCH_TIMEOUT_MS: '500' });
  });

  it('an upstream error status is logged with its status, and its JSON has no cause to guess', async () => {
    const target = page('/status/503');
    const res = await call(extractPath(target));
    expect(res.status).toBe(502);
    expect((await errorOf(res)) as unknown).not.toHaveProperty('cause');
    expect(logged).toEqual([expect.objectContaining({ url: target, code: 'upstream_error', cause: null, status: 503 })]);
  });

  it('every failed feed item is logged as one line too', async () => {
    const res = await call(feedPath(feedUrl('rss2.rss', uniqueId()), '&nocache=1'));
    expect(res.status).toBe(200);
    await res.text();
    const item = logged.find((l) => l.url.endsWith('/status/404'));
    expect(item).toMatchObject({ event: 'fetch_failed', code: 'upstream_error', status: 404 });
  });
});
