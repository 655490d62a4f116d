// Access: the optional bearer token and per-client rate limiting (binding and in-isolate bucket).

import { describe, expect, it } from 'vitest';
import { takeToken } from '../../../src/server/access';
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
});
