// Fingerprints inside workerd: the committed values (computed in Node by eval/make-fingerprint-fixture.ts and
// checked in Node by test/node/fingerprint/fixture.test.ts) must come out identical here; and the JSON answers
// of the server carry the fingerprint of their text.

import { describe, expect, it } from 'vitest';
import fixture from '../fixtures/fingerprints.json' with { type: 'json' };
import { minhash } from '../../src/core/fingerprint/minhash';
import { hammingDistance, simhash } from '../../src/core/fingerprint/simhash';
import { call, extractPath, page, uniqueId } from './server/helpers';

interface Case {
  name: string;
  text: string;
  simhash: string;
  minhash: number[];
}

const cases = (fixture as { cases: Case[] }).cases;

describe('fingerprints in workerd equal those of Node', () => {
  it('the runtime is workerd', () => {
    expect((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent).toBe('Cloudflare-Workers');
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(simhash(c.text)).toBe(c.simhash);
    expect(Array.from(minhash(c.text))).toEqual(c.minhash);
  });
});

type ExtractJson = { text: string; fingerprint: { simhash: string } | null };

describe('the JSON answer carries the fingerprint of its text', () => {
  it('GET /v1/extract (json by default) and the prefix form with format=json', async () => {
    const target = page(`/page/article-news?v=${uniqueId()}`);
    const res = await call(extractPath(target));
    expect(res.status).toBe(200);
    const body = (await res.json()) as ExtractJson;
    expect(body.text.length).toBeGreaterThan(100);
    expect(body.fingerprint).toEqual({ simhash: simhash(body.text) });
    expect(body.fingerprint!.simhash).not.toBe('0000000000000000');

    const prefixed = (await (await call(`/${target}&format=json`)).json()) as ExtractJson;
    expect(prefixed.fingerprint).toEqual(body.fingerprint);
    // Text answers have no JSON and no fingerprint to carry.
    const text = await (await call(`/${target}&format=text`)).text();
    expect(text).not.toContain(body.fingerprint!.simhash);
  });

  it('POST /v1/extract: the same article twice has the same fingerprint, another article a distant one', async () => {
    const post = async (html: string): Promise<ExtractJson> => {
      const res = await call('/v1/extract', { method: 'POST', headers: { 'content-type': 'text/html' }, body: html });
      expect(res.status).toBe(200);
      return (await res.json()) as ExtractJson;
    };
    const news = await (await fetch(page('/page/article-news'))).text();
    const blog = await (await fetch(page('/page/article-blog'))).text();
    const [a, b, c] = [await post(news), await post(news), await post(blog)];
    expect(a.fingerprint).not.toBeNull();
    expect(b.fingerprint).toEqual(a.fingerprint);
    expect(hammingDistance(a.fingerprint!.simhash, c.fingerprint!.simhash)).toBeGreaterThan(10);
  });
});
