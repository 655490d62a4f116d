// The edge cache: miss then hit, keys, TTL, ETag, bypass, and nothing cached that should not be.

import { describe, expect, it } from 'vitest';
import { call, extractPath, page, uniqueId } from './helpers';

async function upstreamHits(id: string): Promise<number> {
  return Number(await (await fetch(page(`/hits/${id}`))).text());
}

describe('edge cache', () => {
  it('a miss, then a hit that does not touch the upstream', async () => {
    const id = uniqueId();
    const first = await call(extractPath(page(`/counted/${id}`)));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const firstBody = await first.text();

    const second = await call(extractPath(page(`/counted/${id}`)));
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await second.text()).toBe(firstBody);
    expect(await upstreamHits(id)).toBe(1);
  });

  it('the prefix form and /v1/extract share entries when the format is the same', async () => {
    const id = uniqueId();
    expect((await call(extractPath(page(`/counted/${id}`), '&format=text'))).headers.get('x-cache')).toBe('MISS');
    const prefix = await call(`/${page(`/counted/${id}`)}`);
    expect(prefix.headers.get('x-cache')).toBe('HIT');
    expect(prefix.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await upstreamHits(id)).toBe(1);
  });

  it('format and debug are part of the key', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    expect((await call(extractPath(target))).headers.get('x-cache')).toBe('MISS');
    expect((await call(extractPath(target, '&format=text'))).headers.get('x-cache')).toBe('MISS');
    expect((await call(extractPath(target, '&debug=1'))).headers.get('x-cache')).toBe('MISS');
    expect((await call(extractPath(target, '&debug=1'))).headers.get('x-cache')).toBe('HIT');
    expect(await upstreamHits(id)).toBe(3);
  });

  it('parse limits other than the defaults are part of the key (an answer made under old limits is not served)', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    const raised = { PITH_MAX_BLOCKS: '9000' }; // not the default (8,000), and the page's output is the same under it
    const first = await call(extractPath(target));
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstText = ((await first.json()) as { text: string }).text;
    const other = await call(extractPath(target), {}, raised);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-cache')).toBe('MISS');
    expect(((await other.json()) as { text: string }).text).toBe(firstText);
    expect((await call(extractPath(target), {}, raised)).headers.get('x-cache')).toBe('HIT');
    expect((await call(extractPath(target))).headers.get('x-cache')).toBe('HIT'); // the defaults keep their key
    expect(await upstreamHits(id)).toBe(2);
  });

  it('the key is the normalised URL: host case, default port and fragment do not matter', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    expect((await call(extractPath(target))).headers.get('x-cache')).toBe('MISS');
    const spelled = target.replace('http://', 'HTTP://') + '#comments';
    expect((await call(extractPath(spelled))).headers.get('x-cache')).toBe('HIT');
  });

  it('nocache=1 and Cache-Control: no-cache bypass the cache (and refresh it)', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    await call(extractPath(target));
    expect((await call(extractPath(target, '&nocache=1'))).headers.get('x-cache')).toBe('MISS');
    expect((await call(extractPath(target), { headers: { 'cache-control': 'no-cache' } })).headers.get('x-cache')).toBe('MISS');
    expect((await call(`/${target}?nocache=1`)).headers.get('x-cache')).toBe('MISS');
    expect(await upstreamHits(id)).toBe(4);
    expect((await call(extractPath(target))).headers.get('x-cache')).toBe('HIT');
  });

  it('If-None-Match with the ETag gives 304', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    const etag = (await call(extractPath(target))).headers.get('etag') ?? '';
    const res = await call(extractPath(target), { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('x-cache')).toBe('HIT');
  });

  it('a matching If-None-Match on a miss is a 304 too (and the fresh copy is stored); a stale one gets the page', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    // text: the same body on every extraction (JSON carries this run's timings, so its ETag changes)
    const etag = (await call(extractPath(target, '&format=text'))).headers.get('etag') ?? '';
    const fresh = await call(extractPath(target, '&format=text&nocache=1'), { headers: { 'if-none-match': etag } });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect(fresh.headers.get('etag')).toBe(etag);
    expect(await upstreamHits(id)).toBe(2);
    const stale = await call(extractPath(target, '&format=text'), { headers: { 'if-none-match': '"0000"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-cache')).toBe('HIT');
  });

  it('the TTL comes from PITH_CACHE_TTL_S; 0 turns the cache off', async () => {
    const id = uniqueId();
    const target = page(`/counted/${id}`);
    const short = await call(extractPath(target), undefined, { PITH_CACHE_TTL_S: '120' });
    expect(short.headers.get('cache-control')).toBe('public, max-age=120');
    const off = await call(extractPath(`${target}?off`), undefined, { PITH_CACHE_TTL_S: '0' });
    expect(off.headers.get('cache-control')).toBe('no-store');
    expect((await call(extractPath(`${target}?off`), undefined, { PITH_CACHE_TTL_S: '0' })).headers.get('x-cache')).toBe('MISS');
  });

  it('errors and empty extractions are never cached', async () => {
    for (const path of ['/status/500', '/page/empty', '/image.png']) {
      const target = page(`${path}${path.includes('?') ? '&' : '?'}v=${uniqueId()}`);
      const first = await call(extractPath(target));
      expect(first.status).toBeGreaterThanOrEqual(400);
      const second = await call(extractPath(target));
      expect(second.status).toBe(first.status);
      expect(second.headers.get('x-cache')).toBeNull();
      expect(second.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('extraction answers say Vary: Accept, on a miss, a hit and a 304', async () => {
    const id = uniqueId();
    const miss = await call(extractPath(page(`/counted/${id}`)));
    expect(miss.headers.get('vary')).toBe('Accept');
    const hit = await call(extractPath(page(`/counted/${id}`)));
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('vary')).toBe('Accept');
    const notModified = await call(extractPath(page(`/counted/${id}`)), { headers: { 'if-none-match': hit.headers.get('etag') ?? '' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('vary')).toBe('Accept');
  });

  it('with PITH_TOKEN set, answers are Cache-Control: private (miss and hit), never public', async () => {
    const id = uniqueId();
    const vars = { PITH_TOKEN: 'cache-token' };
    const auth = { headers: { authorization: 'Bearer cache-token' } };
    const miss = await call(extractPath(page(`/counted/${id}`)), auth, vars);
    expect(miss.status).toBe(200);
    expect(miss.headers.get('cache-control')).toBe('private, max-age=3600');
    const hit = await call(extractPath(page(`/counted/${id}`)), auth, vars);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(await upstreamHits(id)).toBe(1);
    // Without a token, the same cached page is public.
    const open = await call(extractPath(page(`/counted/${id}`)));
    expect(open.headers.get('cache-control')).toBe('public, max-age=3600');
  });
});

