// The prefix form's split between the target's query and pith's options, pure.

import { describe, expect, it } from 'vitest';
import { parseOptions, splitPrefixTarget } from '../../../src/hosts/worker/options';

describe('prefix form', () => {
  it('keeps the target query and takes pith options', () => {
    const { target, options } = splitPrefixTarget('/https://example.com/a/b?id=7&format=json&q=x%20y&nocache=1', false);
    expect(target).toBe('https://example.com/a/b?id=7&q=x%20y');
    expect(options).toEqual({ format: 'json', nocache: true, debug: false });
  });

  it('a missing scheme means https', () => {
    expect(splitPrefixTarget('/example.com/news/1', false).target).toBe('https://example.com/news/1');
    expect(splitPrefixTarget('/localhost:8080/x', false).target).toBe('https://localhost:8080/x');
  });

  it('repairs a scheme whose slashes a proxy folded', () => {
    expect(splitPrefixTarget('/https:/example.com/a', false).target).toBe('https://example.com/a');
    expect(splitPrefixTarget('/http:/example.com/a', false).target).toBe('http://example.com/a');
  });

  it('decodes a percent-encoded target', () => {
    const { target, options } = splitPrefixTarget('/https%3A%2F%2Fexample.com%2Fa%3Fformat%3Damp?format=json', false);
    expect(target).toBe('https://example.com/a?format=amp');
    expect(options.format).toBe('json');
  });

  it('leaves values pith does not understand to the target', () => {
    const { target, options } = splitPrefixTarget('/example.com/a?format=amp&debug=verbose', false);
    expect(target).toBe('https://example.com/a?format=amp&debug=verbose');
    expect(options).toEqual({ nocache: false, debug: false });
  });

  it('pith_ names are always pith’s and never forwarded', () => {
    const { target, options } = splitPrefixTarget('/example.com/a?pith_format=json&pith_debug=1&pith_token=s3&pith_unknown=1&x=1', false);
    expect(target).toBe('https://example.com/a?x=1');
    expect(options).toEqual({ format: 'json', nocache: false, debug: true, token: 's3' });
  });

  it('token is pith’s only when a token is configured', () => {
    expect(splitPrefixTarget('/example.com/a?token=abc', false).target).toBe('https://example.com/a?token=abc');
    const secured = splitPrefixTarget('/example.com/a?token=abc', true);
    expect(secured.target).toBe('https://example.com/a');
    expect(secured.options.token).toBe('abc');
  });

  it('refuses an empty target', () => {
    expect(() => splitPrefixTarget('/', false)).toThrow(/no target URL/);
  });

  it('API routes read every option, prefixed or not', () => {
    expect(parseOptions(new URLSearchParams('url=x&format=text&debug=1&nocache=true&token=t'))).toEqual({ format: 'text', debug: true, nocache: true, token: 't' });
    expect(parseOptions(new URLSearchParams('pith_format=json'))).toEqual({ format: 'json', nocache: false, debug: false });
  });
});
