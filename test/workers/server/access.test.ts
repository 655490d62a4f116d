// Access: the optional bearer token and per-client rate limiting (binding and in-isolate bucket).

import { describe, expect, it } from 'vitest';
import { clientKey, MAX_TRACKED_CLIENTS, resetRateLimitTable, takeToken, trackedClients } from '../../../src/hosts/worker/access';
import { baseEnv, call, errorOf, extractPath, page, uniqueId } from './helpers';

const TOKEN = { PITH_TOKEN: 's3cret-token' };

describe('token (PITH_TOKEN)', () => {
  it('is off by default', async () => {
    expect((await call(extractPath(page('/page/article-news')))).status).toBe(200);
  });

  it('when set, is required: 401 without it, with WWW-Authenticate', async () => {
    const res = await call(extractPath(page('/page/article-news')), undefined, TOKEN);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await errorOf(res)).code).toBe('unauthorized');
  });

  it('a wrong token is 401', async () => {
    const res = await call(extractPath(page('/page/article-news')), { headers: { authorization: 'Bearer nope' } }, TOKEN);
    expect(res.status).toBe(401);
    expect((await call(extractPath(page('/page/article-news'), '&token=s3cret-tokenX'), undefined, TOKEN)).status).toBe(401);
  });

  it('is accepted as a bearer header, as ?token= and as ?pith_token=', async () => {
    expect((await call(extractPath(page('/page/article-news')), { headers: { authorization: 'Bearer s3cret-token' } }, TOKEN)).status).toBe(200);
    expect((await call(extractPath(page('/page/article-news'), '&token=s3cret-token'), undefined, TOKEN)).status).toBe(200);
    expect((await call(extractPath(page('/page/article-news'), '&pith_token=s3cret-token'), undefined, TOKEN)).status).toBe(200);
  });

  it('in the prefix form, ?token= is taken by pith and never forwarded to the target', async () => {
    const id = uniqueId();
    const res = await call(`/${page(`/counted/${id}`)}?token=s3cret-token&format=json`, undefined, TOKEN);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toBe(page(`/counted/${id}`));
  });

  it('guards POST too, but not /health or /', async () => {
    const post = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '<p>hello there</p>' }, TOKEN);
    expect(post.status).toBe(401);
    expect((await call('/health', undefined, TOKEN)).status).toBe(200);
    expect((await call('/', undefined, TOKEN)).status).toBe(200);
  });

  it('is checked before anything is fetched', async () => {
    const id = uniqueId();
    await call(extractPath(page(`/counted/${id}`)), undefined, TOKEN);
    expect(await (await fetch(page(`/hits/${id}`))).text()).toBe('0');
  });
});

describe('the access middleware (access.ts) on every route group', () => {
  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const feed = (id: string): string => page(`/feeds/rss2.rss?id=${id}`);
  const guarded = (id: string): Array<[string, string, RequestInit | undefined]> => [
    ['GET /v1/extract', extractPath(page(`/counted/${id}`)), undefined],
    ['POST /v1/extract', '/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '<p>hello there</p>' }],
    ['the prefix form', `/${page(`/counted/${id}`)}`, undefined],
    ['GET /v1/feed', `/v1/feed?url=${encodeURIComponent(feed(id))}`, undefined],
    ['the feed prefix form', `/feed/${feed(id)}`, undefined],
    ['POST /v1/jobs', '/v1/jobs', json({ urls: [page(`/counted/${id}`)] })],
    ['GET /v1/jobs/<id>/results', '/v1/jobs/00000000-0000-4000-8000-000000000000/results', undefined],
  ];

  it('refuses every group without the token, before anything is fetched', async () => {
    const id = uniqueId();
    for (const [name, path, init] of guarded(id)) {
      const res = await call(path, init, TOKEN);
      expect(res.status, name).toBe(401);
      expect((await errorOf(res)).code, name).toBe('unauthorized');
    }
    expect(await (await fetch(page(`/hits/${id}`))).text()).toBe('0');
  });

  it('takes the token of the prefix forms from their query, and keeps it from the target', async () => {
    const id = uniqueId();
    const res = await call(`/feed/${feed(id)}&token=s3cret-token`, undefined, TOKEN);
    expect(res.status).toBe(200);
    expect((await call(`/feed/${feed(id)}&token=wrong`, undefined, TOKEN)).status).toBe(401);
  });

  it('counts every group against the one per-client rate limit', async () => {
    const vars = { PITH_RATE_LIMIT_PER_MIN: '3' };
    const client = { 'cf-connecting-ip': `groups-${uniqueId()}` };
    const statuses: number[] = [];
    for (const [, path, init] of guarded(uniqueId()).slice(0, 5)) statuses.push((await call(path, { ...init, headers: { ...(init?.headers as Record<string, string>), ...client } }, vars)).status);
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

describe('rate limiting', () => {
  it('is off by default', async () => {
    for (let i = 0; i < 5; i++) expect((await call(extractPath(page('/page/article-news')), { headers: { 'cf-connecting-ip': '203.0.113.50' } })).status).toBe(200);
  });

  it('the in-isolate bucket (PITH_RATE_LIMIT_PER_MIN) answers 429 with Retry-After, per client', async () => {
    const vars = { PITH_RATE_LIMIT_PER_MIN: '2' };
    const client = { 'cf-connecting-ip': `198.51.100.${Math.floor(Math.random() * 250)}-${uniqueId()}` };
    expect((await call(extractPath(page('/page/article-news')), { headers: client }, vars)).status).toBe(200);
    expect((await call(extractPath(page('/page/article-news')), { headers: client }, vars)).status).toBe(200);
    const limited = await call(extractPath(page('/page/article-news')), { headers: client }, vars);
    expect(limited.status).toBe(429);
    expect((await errorOf(limited.clone())).code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // Another client is not affected.
    expect((await call(extractPath(page('/page/article-news')), { headers: { 'cf-connecting-ip': `other-${uniqueId()}` } }, vars)).status).toBe(200);
  });

  it('the bucket refills with time', () => {
    const key = `refill-${uniqueId()}`;
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) expect(takeToken(key, 60, t0)).toBe(0); // a burst of 60
    expect(takeToken(key, 60, t0)).toBe(1); // then one a second
    expect(takeToken(key, 60, t0 + 1_000)).toBe(0);
  });

  it('the Workers rate-limiting binding (PITH_RATE_LIMITER) answers 429 with Retry-After', async () => {
    const vars = { PITH_RATE_LIMITER: baseEnv.TEST_RATE_LIMITER, PITH_RATE_LIMIT_PERIOD_S: '60' };
    const client = { 'cf-connecting-ip': `binding-${uniqueId()}` };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(extractPath(page('/page/article-news')), { headers: client }, vars)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]); // limit 3 per 60 s in vitest.config.ts
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await call(extractPath(page('/page/article-news')), { headers: client }, vars);
    expect(limited.headers.get('retry-after')).toBe('60');
  });

  it('keys on CF-Connecting-IP only, IPv6 by its /64', () => {
    const keyOf = (headers: Record<string, string>): string => clientKey(new Request('https://pith.test/', { headers }));
    expect(keyOf({ 'cf-connecting-ip': '203.0.113.7' })).toBe('203.0.113.7');
    expect(keyOf({ 'cf-connecting-ip': '2001:db8:aa:bb:1:2:3:4' })).toBe('2001:db8:aa:bb::/64');
    expect(keyOf({ 'cf-connecting-ip': '2001:db8:aa:bb::ffff' })).toBe(keyOf({ 'cf-connecting-ip': '2001:DB8:AA:BB:9::1' }));
    expect(keyOf({ 'cf-connecting-ip': '2001:db8:aa:bc::1' })).not.toBe(keyOf({ 'cf-connecting-ip': '2001:db8:aa:bb::1' }));
    // IPv4-mapped addresses are their IPv4 client, whichever way they are spelt, not one shared /64.
    expect(keyOf({ 'cf-connecting-ip': '::ffff:203.0.113.7' })).toBe('203.0.113.7');
    expect(keyOf({ 'cf-connecting-ip': '::FFFF:cb00:7107' })).toBe('203.0.113.7');
    expect(keyOf({ 'cf-connecting-ip': '0:0:0:0:0:ffff:198.51.100.1' })).toBe('198.51.100.1');
    expect(keyOf({ 'cf-connecting-ip': '::ffff:198.51.100.1' })).not.toBe(keyOf({ 'cf-connecting-ip': '::ffff:198.51.100.2' }));
    // Headers the client chooses everywhere do not make a new client.
    expect(keyOf({ 'cf-connecting-ip': '203.0.113.7', 'x-real-ip': '1.2.3.4', 'x-forwarded-for': '5.6.7.8' })).toBe('203.0.113.7');
    expect(keyOf({ 'x-real-ip': '1.2.3.4' })).toBe('unknown');
  });

  it('new clients cannot push a limited client out of the table; past the bound they share one bucket', () => {
    resetRateLimitTable();
    const t0 = 5_000_000;
    const victim = `limited-${uniqueId()}`;
    for (let i = 0; i < 60; i++) takeToken(victim, 60, t0);
    expect(takeToken(victim, 60, t0)).toBeGreaterThan(0);
    // An attacker rotating its key fills the table (each key spends one token, so no bucket is full again yet).
    for (let i = 0; i < MAX_TRACKED_CLIENTS + 50; i++) takeToken(`rotating-${i}`, 60, t0);
    expect(trackedClients()).toBeLessThanOrEqual(MAX_TRACKED_CLIENTS + 1); // + the shared overflow bucket
    expect(takeToken(victim, 60, t0)).toBeGreaterThan(0); // still limited: its bucket was not forgotten
    // The keys past the bound share the overflow bucket: rotating further soon gets limited.
    const refused = Array.from({ length: 100 }, (_, i) => takeToken(`more-${i}`, 60, t0)).filter((w) => w > 0).length;
    // 51 rotating keys already used the shared bucket (60 a minute), so at most 9 of these 100 go through.
    expect(refused).toBeGreaterThanOrEqual(91);
    // A minute later every bucket has refilled: refilled ones are forgotten to make room, new clients get their own.
    expect(takeToken(`later-${uniqueId()}`, 60, t0 + 61_000)).toBe(0);
    expect(trackedClients()).toBeLessThanOrEqual(MAX_TRACKED_CLIENTS + 1); // + the shared overflow bucket
    resetRateLimitTable();
  });
});

