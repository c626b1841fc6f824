// Limits are kept per client address; an IPv6 client usually holds a whole /64 (and can
// pick any address in it), so an IPv6 address counts as its /64 network. IPv4 (and
// IPv4-mapped IPv6) addresses count as themselves.
import net from 'node:net';

export function addressBucket(address: string): string {
  const ip = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (net.isIPv6(ip) === false) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
