// A stable identity for visitors without an account: a random id in an httpOnly cookie,
// signed (HMAC-SHA256 with a key derived from the server secret) so it cannot be forged.
// Storage, quotas and warm isolates can key on it; it proves nothing but continuity.
import 'server-only';
import crypto from 'node:crypto';
import { deriveKey } from '../auth';

export const ANONYMOUS_COOKIE = 'sy_anon';
const MAX_AGE_SECONDS = 60 * 60 * 24 * 365;

const sign = (id: string) => crypto.createHmac('sha256', deriveKey('anonymous-id')).update(id).digest('base64url').slice(0, 32);

/** The id in a cookie value when its signature holds, else null. */
export function verifyAnonymousCookie(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{32})$/.exec(value);
  if (!m) return null;
  const expected = Buffer.from(sign(m[1]!));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? m[1]! : null;
}

export function mintAnonymousId(): { id: string; cookieValue: string } {
  const id = crypto.randomBytes(16).toString('base64url');
  return { id, cookieValue: `${id}.${sign(id)}` };
}

export function anonymousCookieHeader(cookieValue: string, secure: boolean): string {
  return `${ANONYMOUS_COOKIE}=${cookieValue}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
