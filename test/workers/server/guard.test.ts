// The address guard, pure: every refused form is refused here without any network.

import { describe, expect, it } from 'vitest';
import { PithError } from '../../../src/errors';
import { BLOCKED_URLS } from './blocked-urls';
import { blockedHostReason, canonicalHost, checkTarget, parseAllowHosts, parseIpv4, parseIpv6 } from '../../../src/io/guard';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof PithError ? err.code : `not a PithError: ${String(err)}`;
  }
}


describe('guard: refused before any connection', () => {
  for (const [url, what] of BLOCKED_URLS) {
    it(`refuses ${what}: ${url}`, () => {
      expect(codeOf(() => checkTarget(url))).toBe('blocked_target');
    });
  }

  it('lets public addresses and names through', () => {
    for (const url of ['https://example.com/a?b=1', 'http://93.184.215.14/', 'http://[2606:4700::1111]/', 'https://1.1.1.1/', 'http://172.32.0.1/', 'http://[::ffff:8.8.8.8]/', 'http://[2002:808:808::]/', 'http://192.169.0.1/']) {
      expect(codeOf(() => checkTarget(url)), url).toBeNull();
    }
  });

  it('refuses non-http schemes, credentials and garbage as invalid URLs', () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'gopher://example.com/', 'http://user:pw@example.com/', 'http://user@example.com/', 'not a url', 'http://']) {
      expect(codeOf(() => checkTarget(url)), url).toBe('invalid_url');
    }
  });

  it('PITH_ALLOW_HOSTS lets named hosts through, in any spelling of the same address', () => {
    const allow = parseAllowHosts(' 127.0.0.1, dev.local ,::1');
    expect(codeOf(() => checkTarget('http://127.0.0.1:9/', allow))).toBeNull();
    expect(codeOf(() => checkTarget('http://2130706433:9/', allow))).toBeNull();
    expect(codeOf(() => checkTarget('http://dev.local/', allow))).toBeNull();
    expect(codeOf(() => checkTarget('http://[::1]/', allow))).toBeNull();
    expect(codeOf(() => checkTarget('http://127.0.0.2/', allow))).toBe('blocked_target');
    expect(codeOf(() => checkTarget('http://other.local/', allow))).toBe('blocked_target');
  });

  it('resolves a redirect Location against the current URL before checking it', () => {
    expect(checkTarget('/next?x=1', new Set(), 'https://example.com/a/b').href).toBe('https://example.com/next?x=1');
    expect(codeOf(() => checkTarget('//10.0.0.1/', new Set(), 'https://example.com/'))).toBe('blocked_target');
  });

  it('refuses an IPv6 zone id (the URL standard has none) and knows the zoned address is link-local', () => {
    expect(codeOf(() => checkTarget('http://[fe80::1%25eth0]/'))).toBe('invalid_url');
    expect(blockedHostReason('fe80::1%eth0')).toMatch(/link-local/);
  });

  it('drops the fragment', () => {
    expect(checkTarget('https://example.com/a#section').href).toBe('https://example.com/a');
  });
});

describe('guard: address parsing', () => {
  it('parses IPv4 the way the URL standard does', () => {
    expect(parseIpv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIpv4('2130706433')).toBe(0x7f000001);
    expect(parseIpv4('0x7f.1')).toBe(0x7f000001);
    expect(parseIpv4('0177.0.0.01')).toBe(0x7f000001);
    expect(parseIpv4('10.1')).toBe(0x0a000001);
    expect(parseIpv4('1.2.65535')).toBe(0x0102ffff);
    expect(parseIpv4('0x')).toBe(0);
    expect(parseIpv4('example.com')).toBeNull();
    expect(parseIpv4('1.2.3.256')).toBeNull();
    expect(parseIpv4('256.1.1.1')).toBeNull();
    expect(parseIpv4('4294967296')).toBeNull();
    // The URL parser agrees on every spelling it canonicalises.
    for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '10.1', '0xa9fea9fe']) {
      expect(new URL(`http://${host}/`).hostname).toBe(canonicalHost(host));
    }
  });

  it('parses IPv6 with ::, embedded IPv4 and zones', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('[::ffff:10.0.0.1]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]);
    expect(parseIpv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1::2::3')).toBeNull();
    expect(parseIpv6('example.com')).toBeNull();
  });

  it('explains why', () => {
    expect(blockedHostReason('169.254.169.254')).toMatch(/link-local/);
    expect(blockedHostReason('[::ffff:a9fe:a9fe]')).toMatch(/IPv4-mapped.*link-local/);
    expect(blockedHostReason('example.com')).toBeNull();
  });
});
