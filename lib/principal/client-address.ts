// The client's address, as every limit keyed by address reads it: X-Forwarded-For as the
// last trusted proxy wrote it (SKILLYARD_TRUSTED_PROXIES; with none, Next.js or the front
// door writes it from the socket), an IPv6 address as its /64.
import { setting } from '../config';
import { addressBucket } from './address-bucket';

/** The client address of a request's headers, or 'unknown' when there is none. */
export function clientIp(req: { headers: Pick<Headers, 'get'> }, trustedProxies: number = setting('SKILLYARD_TRUSTED_PROXIES')): string {
  const parts = (req.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ip = parts[parts.length - Math.max(1, trustedProxies)] ?? parts[0] ?? 'unknown';
  return addressBucket(ip.slice(0, 64));
}

/** The client address of a request known only by its headers (a server action's `headers()`), null when unknown. */
export function clientAddressOf(headers: Pick<Headers, 'get'>): string | null {
  const ip = clientIp({ headers });
  return ip === 'unknown' ? null : ip;
}
