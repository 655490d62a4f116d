// The address guard, pure: every refused form is refused here without any network.

import { describe, expect, it } from 'vitest';
import { PithError } from '../../../src/errors';
import { blockedHostReason, canonicalHost, checkTarget, parseAllowHosts, parseIpv4, parseIpv6 } from '../../../src/server/guard';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof PithError ? err.code : `not a PithError: ${String(err)}`;
  }
}

/** Hosts pith must refuse, with what each one is. */
export const BLOCKED_URLS: ReadonlyArray<readonly [string, string]> = [
  ['http://127.0.0.1/', 'loopback'],
  ['http://127.0.0.2:8080/', 'loopback, other address'],
  ['http://2130706433/', 'loopback, decimal'],
  ['http://0x7f000001/', 'loopback, hex'],
  ['http://0177.0.0.1/', 'loopback, octal'],
  ['http://0x7f.1/', 'loopback, hex short form'],
  ['http://127.1/', 'loopback, short form'],
  ['http://017700000001/', 'loopback, octal whole'],
  ['http://0/', 'this network, short form'],
  ['http://0.0.0.0/', 'this network'],
  ['http://10.0.0.1/', 'RFC 1918 10/8'],
  ['http://10.1/', 'RFC 1918, short form'],
  ['http://167772161/', 'RFC 1918, decimal'],
  ['http://012.0.0.1/', 'RFC 1918, octal'],
  ['http://172.16.0.1/', 'RFC 1918 172.16/12'],
  ['http://172.31.255.255/', 'RFC 1918 172.16/12 top'],
  ['http://192.168.1.1/', 'RFC 1918 192.168/16'],
  ['http://0xc0.0xa8.0x01.0x01/', 'RFC 1918, hex parts'],
  ['http://169.254.169.254/latest/meta-data/', 'link-local, cloud metadata'],
  ['http://2852039166/', 'link-local metadata, decimal'],
  ['http://0xa9fea9fe/', 'link-local metadata, hex'],
  ['http://100.64.0.1/', 'carrier-grade NAT'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://[::1]/', 'IPv6 loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback, long form'],
  ['http://[::]/', 'IPv6 unspecified'],
  ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
  ['http://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex'],
  ['http://[::ffff:10.0.0.1]/', 'IPv4-mapped private'],
  ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped metadata'],
  ['http://[::127.0.0.1]/', 'IPv4-compatible'],
  ['http://[64:ff9b::a00:1]/', 'NAT64 of 10.0.0.1'],
  ['http://[2002:a00:1::]/', '6to4 of 10.0.0.1'],
  ['http://[fc00::1]/', 'unique-local fc00::/7'],
  ['http://[fd12:3456:789a::1]/', 'unique-local fd00::/8'],
  ['http://[fe80::1]/', 'link-local'],
  ['http://[fec0::1]/', 'site-local'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://[fd00:ec2::254]/', 'AWS metadata over IPv6 (unique-local)'],
  ['http://localhost/', 'localhost'],
  ['http://LOCALHOST./', 'localhost, upper case, trailing dot'],
  ['http://api.localhost/', '*.localhost'],
  ['http://metadata.google.internal/', '*.internal'],
  ['http://printer.local/', '*.local'],
  ['http://router.lan/', '*.lan'],
  ['http://nas.home.arpa/', '*.home.arpa'],
  ['http://intranet/', 'single label'],
];

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
