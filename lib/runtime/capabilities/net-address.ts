// Which addresses the `net` capability may connect to: public unicast only. Loopback,
// private, link-local (cloud metadata), CGNAT, multicast, documentation and reserved
// ranges are refused, in IPv4 and IPv6, including IPv4 addresses embedded in IPv6
// (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). An operator may allow
// ranges (SKILLYARD_NET_ALLOW), for example an internal API.

import { BlockList, isIP } from 'node:net';
import { setting, type Env } from '../../config';

const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const BLOCKED_V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/** The 8 16-bit groups of an IPv6 address (with a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : new Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4FromGroups(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4FromGroups(g[6], g[7]); // ::a.b.c.d (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4FromGroups(g[6], g[7]); // 64:ff9b::/96
  if (g[0] === 0x2002) return v4FromGroups(g[1], g[2]); // 6to4
  return null;
}

function listOf(ranges: Array<[string, number, string]>, type: 'ipv4' | 'ipv6') {
  return ranges.map(([net, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return { list, reason, type };
  });
}
const BLOCKED = [...listOf(BLOCKED_V4, 'ipv4'), ...listOf(BLOCKED_V6, 'ipv6')];

/** Operator-allowed ranges: `10.0.0.0/8`, `fd00::/8`, or single addresses. Throws on a malformed entry. */
export function parseAllowRanges(ranges: readonly string[]): BlockList | null {
  if (ranges.length === 0) return null;
  const list = new BlockList();
  for (const raw of ranges) {
    const [addr, prefixText] = raw.trim().split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : isIP(addr) === 4 ? 'ipv4' : null;
    const prefix = prefixText === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefixText);
    if (!type || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === 'ipv6' ? 128 : 32)) {
      throw new Error(`SKILLYARD_NET_ALLOW: "${raw}" is not an address or CIDR range`);
    }
    list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** Why `address` may not be reached (null when it may). `allow` holds operator-allowed ranges. */
export function blockedReason(address: string, allow: BlockList | null = null): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (allow?.check(address, type)) return null;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) {
      const inner = blockedReason(v4, allow);
      if (inner) return `${inner} (IPv4 inside IPv6)`;
    }
  }
  for (const b of BLOCKED) if (b.type === type && b.list.check(address, type)) return b.reason;
  return null;
}

/** SKILLYARD_NET_ALLOW as a list of ranges (the server's config and the CLI both read it). */
export function allowRangesFromEnv(env?: Env): string[] {
  return setting('SKILLYARD_NET_ALLOW', env);
}
