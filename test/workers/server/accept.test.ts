// Content negotiation: ?format= wins, else the Accept header picks text, markdown, html or json; an Accept that
// none of them satisfies is 406 not_acceptable.

import { describe, expect, it } from 'vitest';
import { chooseFormat } from '../../../src/hosts/worker/format';
import { call, errorOf, extractPath, page } from './helpers';

describe('chooseFormat', () => {
  it('maps each media type to its format, and no Accept to the route default', () => {
    expect(chooseFormat(undefined, 'text/markdown', 'json')).toBe('markdown');
    expect(chooseFormat(undefined, 'text/x-markdown', 'json')).toBe('markdown');
    expect(chooseFormat(undefined, 'text/html', 'json')).toBe('html');
    expect(chooseFormat(undefined, 'application/json', 'text')).toBe('json');
    expect(chooseFormat(undefined, 'text/plain', 'json')).toBe('text');
    expect(chooseFormat(undefined, null, 'json')).toBe('json');
    expect(chooseFormat(undefined, '', 'text')).toBe('text');
  });

  it('takes the highest q, then the most specific range, then the first listed', () => {
    expect(chooseFormat(undefined, 'application/json;q=0.5, text/markdown', 'text')).toBe('markdown');
    expect(chooseFormat(undefined, 'text/markdown;q=0.2, application/json;q=0.9', 'text')).toBe('json');
    expect(chooseFormat(undefined, 'text/markdown, application/json', 'text')).toBe('markdown');
    expect(chooseFormat(undefined, 'application/json, text/markdown', 'text')).toBe('json');
    expect(chooseFormat(undefined, 'text/*;q=0.3, text/html', 'json')).toBe('html');
  });

  it('wildcards match the formats of their type, the route default first; q=0 refuses', () => {
    expect(chooseFormat(undefined, '*/*', 'json')).toBe('json');
    expect(chooseFormat(undefined, '*/*', 'text')).toBe('text');
    expect(chooseFormat(undefined, 'text/*', 'json')).toBe('text');
    expect(chooseFormat(undefined, 'text/*', 'markdown')).toBe('markdown');
    expect(chooseFormat(undefined, 'application/*', 'text')).toBe('json');
    expect(chooseFormat(undefined, 'text/*, text/plain;q=0', 'text')).toBe('markdown');
    expect(chooseFormat(undefined, 'image/png, */*;q=0.1', 'text')).toBe('text');
  });

  it('an Accept nothing satisfies is 406 not_acceptable; ?format= still wins over it', () => {
    for (const accept of ['image/png', 'application/pdf, image/*', 'text/plain;q=0', 'application/xml', '*/*;q=0']) {
      expect(() => chooseFormat(undefined, accept, 'json'), accept).toThrow(expect.objectContaining({ code: 'not_acceptable' }));
    }
    expect(chooseFormat('markdown', 'image/png', 'json')).toBe('markdown');
  });

  it('a browser navigation gets the route default', () => {
    expect(chooseFormat(undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text')).toBe('text');
  });
});

describe('Accept on the routes', () => {
  it('GET /v1/extract: text/markdown, text/html and application/json pick the format', async () => {
    const target = extractPath(page('/page/article-blog'));
    for (const [accept, type] of [
      ['text/markdown', 'text/markdown; charset=utf-8'],
      ['text/html', 'text/html; charset=utf-8'],
      ['application/json', 'application/json; charset=utf-8'],
    ]) {
      const res = await call(target, { headers: { accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      await res.arrayBuffer();
    }
  });

  it('answers 406 before fetching anything when no format satisfies Accept', async () => {
    const res = await call(extractPath(page('/page/article-blog')), { headers: { accept: 'image/png' } });
    expect(res.status).toBe(406);
    const error = await errorOf(res);
    expect(error.code).toBe('not_acceptable');
    expect(error.message).toMatch(/text\/plain, text\/markdown, text\/html or application\/json/);
    const prefix = await call(`/${page('/page/article-blog')}`, { headers: { accept: 'application/pdf' } });
    expect(prefix.status).toBe(406);
    await prefix.arrayBuffer();
  });
});
