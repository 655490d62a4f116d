// Target checks for the guarded fetch: which URLs pith may fetch. Pure: no I/O, no env.
//
// Refused, before any connection:
// - schemes other than http/https, credentials in the URL, empty hosts;
// - literal addresses in special-purpose ranges: loopback, RFC 1918 private, CGNAT, link-local (cloud metadata
//   169.254.169.254 included), "this network", documentation, benchmarking, multicast, reserved, broadcast;
//   IPv6 loopback, unspecified, unique-local, link-local, site-local, multicast, documentation, discard-only;
// - IPv6 forms that carry an IPv4 address at a fixed place are judged by that address, so they are refused when
//   it is refused and fetched when it is public (`[::ffff:8.8.8.8]` is 8.8.8.8): IPv4-mapped ::ffff:0:0/96,
//   IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16. Forms whose IPv4 address pith cannot
//   place or that only route inside a network are refused whatever they carry: IPv4-compatible ::/96 (deprecated),
//   local-use NAT64 64:ff9b:1::/48 (its prefix length is the operator's choice), Teredo 2001::/32;
// - every numeric IPv4 spelling (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`): they
//   are parsed here the way the WHATWG URL parser does, so no spelling slips past;
// - names that only resolve inside a network: `localhost`, `*.localhost`, `*.internal`, `*.local`, `*.lan`,
//   `*.home.arpa`, `*.localdomain`, and single-label names (`intranet`, `metadata`).
// Names are not resolved (a Worker cannot ask DNS); Cloudflare's edge does not route to private networks, so a
// public name that resolves to a private address fails at the edge instead of reaching anything.
//
// `allowHosts` (PITH_ALLOW_HOSTS, development only) names hosts or addresses that pass anyway.

import { PithError } from '../errors.js';

const BLOCKED_NAME_SUFFIXES: readonly string[] = ['.localhost', '.internal', '.local', '.lan', '.home.arpa', '.localdomain'];
const BLOCKED_NAMES: ReadonlySet<string> = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/** [network, prefix length, description] for IPv4 ranges pith never fetches from. */
const BLOCKED_V4: ReadonlyArray<readonly [number, number, string]> = [
  [0x00000000, 8, '"this network" (0.0.0.0/8)'],
  [0x0a000000, 8, 'private (10.0.0.0/8)'],
  [0x64400000, 10, 'carrier-grade NAT (100.64.0.0/10)'],
  [0x7f000000, 8, 'loopback (127.0.0.0/8)'],
  [0xa9fe0000, 16, 'link-local (169.254.0.0/16, cloud metadata)'],
  [0xac100000, 12, 'private (172.16.0.0/12)'],
  [0xc0000000, 24, 'IETF protocol assignments (192.0.0.0/24)'],
  [0xc0000200, 24, 'documentation (192.0.2.0/24)'],
  [0xc0586300, 24, '6to4 relay anycast (192.88.99.0/24)'],
  [0xc0a80000, 16, 'private (192.168.0.0/16)'],
  [0xc6120000, 15, 'benchmarking (198.18.0.0/15)'],
  [0xc6336400, 24, 'documentation (198.51.100.0/24)'],
  [0xcb007100, 24, 'documentation (203.0.113.0/24)'],
  [0xe0000000, 4, 'multicast (224.0.0.0/4)'],
  [0xf0000000, 4, 'reserved (240.0.0.0/4, broadcast included)'],
];

const HEX_PART = /^0x[0-9a-f]*$/i;
const OCTAL_PART = /^0[0-7]+$/;
const DECIMAL_PART = /^(?:0|[1-9][0-9]*)$/;
const LOOKS_NUMERIC = /^[0-9]/;
const IPV6_HEX_GROUP = /^[0-9a-f]{1,4}$/i;
const IPV4_DOTTED = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function mask(prefixLength: number): number {
  return prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
}

/**
 * Parses a host as an IPv4 address the way the WHATWG URL parser does: 1 to 4 dot-separated parts, each
 * decimal, octal (leading 0) or hex (0x); the last part fills the remaining bytes. Returns the address as an
 * unsigned 32-bit number, or null when the host is not an IPv4 address (a name).
 */
export function parseIpv4(host: string): number | null {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // a trailing dot is allowed
  if (parts.length === 0 || parts.length > 4) return null;
  // The URL standard treats a host as IPv4 when its last part is numeric.
  const last = parts[parts.length - 1];
  if (!LOOKS_NUMERIC.test(last)) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (HEX_PART.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (OCTAL_PART.test(part)) value = parseInt(part.slice(1), 8);
    else if (DECIMAL_PART.test(part)) value = parseInt(part, 10);
    else return null;
    values.push(value);
  }
  const head = values.slice(0, -1);
  if (head.some((v) => v > 255)) return null;
  const tail = values[values.length - 1];
  if (tail >= 256 ** (5 - values.length)) return null;
  let address = tail;
  head.forEach((v, i) => {
    address += v * 256 ** (3 - i);
  });
  return address >>> 0;
}

/** Parses an IPv6 address (without brackets, zone allowed and ignored) into 8 16-bit groups, or null. */
export function parseIpv6(host: string): number[] | null {
  let text = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const pieces = s.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        if (!IPV4_DOTTED.test(piece)) return null;
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (IPV6_HEX_GROUP.test(piece)) {
        out.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const left = parseGroups(halves[0]);
  if (left === null) return null;
  if (halves.length === 1) return left.length === 8 ? left : null;
  const right = parseGroups(halves[1]);
  if (right === null || left.length + right.length > 7) return null;
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Why an IPv4 address is refused, or null when it is a public unicast address. */
export function blockedIpv4Reason(address: number): string | null {
  for (const [net, len, what] of BLOCKED_V4) {
    if (((address & mask(len)) >>> 0) === net) return what;
  }
  return null;
}

function v4From(hi: number, lo: number): number {
  return ((hi << 16) | lo) >>> 0;
}

/** Why an IPv6 address is refused, or null when it is a public unicast address. */
export function blockedIpv6Reason(g: readonly number[]): string | null {
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified (::)';
  if (zeros(0, 7) && g[7] === 1) return 'loopback (::1)';
  const embedded = (where: string, v4: number): string | null => {
    const reason = blockedIpv4Reason(v4);
    return reason === null ? null : `${where} carrying ${reason}`;
  };
  if (zeros(0, 5) && g[5] === 0xffff) return embedded('IPv4-mapped (::ffff:0:0/96)', v4From(g[6], g[7]));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return embedded('IPv4-translated (::ffff:0:0:0/96)', v4From(g[6], g[7]));
  if (zeros(0, 6)) return 'IPv4-compatible (::/96, deprecated)';
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded('NAT64 (64:ff9b::/96)', v4From(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64 (64:ff9b:1::/48)';
  if (g[0] === 0x2002) return embedded('6to4 (2002::/16)', v4From(g[1], g[2]));
  if (g[0] === 0x2001 && g[1] === 0) return 'Teredo (2001::/32)';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation (2001:db8::/32)';
  if (g[0] === 0x0100 && zeros(1, 4)) return 'discard-only (100::/64)';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local (fc00::/7)';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  return null;
}

/** Canonical form of a host for comparisons: lower case, no brackets, no trailing dot, IPv4 dotted-quad. */
export function canonicalHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.') && h.length > 1) h = h.slice(0, -1);
  const v4 = parseIpv4(h);
  if (v4 !== null) return [v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255].join('.');
  const v6 = parseIpv6(h);
  if (v6 !== null) return v6.map((x) => x.toString(16)).join(':');
  return h;
}

/** Parses PITH_ALLOW_HOSTS ("a.example, 127.0.0.1, ::1") into canonical hosts. */
export function parseAllowHosts(value: string | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const item of (value ?? '').split(',')) {
    const trimmed = item.trim();
    if (trimmed !== '') out.add(canonicalHost(trimmed));
  }
  return out;
}

/** An allow-list that lets every host through: the CLI's --allow-private. */
export const ALLOW_ALL_HOSTS: ReadonlySet<string> = new (class extends Set<string> {
  override has(): boolean {
    return true;
  }
})();

/** Why a host is refused, or null when pith may fetch from it. */
export function blockedHostReason(host: string, allowHosts: ReadonlySet<string> = new Set()): string | null {
  const canonical = canonicalHost(host);
  if (allowHosts.has(canonical)) return null;
  if (canonical === '') return 'empty host';
  const v4 = parseIpv4(canonical);
  if (v4 !== null) return blockedIpv4Reason(v4);
  const v6 = parseIpv6(canonical);
  if (v6 !== null) return blockedIpv6Reason(v6);
  if (BLOCKED_NAMES.has(canonical)) return `local name (${canonical})`;
  for (const suffix of BLOCKED_NAME_SUFFIXES) {
    if (canonical.endsWith(suffix)) return `local name (*${suffix})`;
  }
  if (!canonical.includes('.')) return 'single-label name (resolves only inside a network)';
  return null;
}

/**
 * Parses and checks a target URL. Throws PithError 'invalid_url' (400) for a URL pith cannot fetch at all and
 * 'blocked_target' (403) for one it must not fetch. `base` resolves a relative URL (a redirect's Location).
 */
export function checkTarget(raw: string | URL, allowHosts: ReadonlySet<string> = new Set(), base?: string): URL {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw, base) : new URL(raw.href);
  } catch {
    throw new PithError('invalid_url', `"${String(raw).slice(0, 200)}" is not a valid URL: give an absolute http(s) URL such as https://example.com/article`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PithError('invalid_url', `scheme "${url.protocol.slice(0, -1)}" is not supported: only http and https URLs can be fetched`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new PithError('invalid_url', 'URLs with credentials (user:password@host) are not fetched: remove them from the URL');
  }
  if (url.hostname === '') throw new PithError('invalid_url', 'the URL has no host');
  const reason = blockedHostReason(url.hostname, allowHosts);
  if (reason !== null) {
    throw new PithError('blocked_target', `refusing to fetch ${url.host}: ${reason} addresses are not fetched`, { host: url.host });
  }
  url.hash = '';
  return url;
}
