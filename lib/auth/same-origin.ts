// CSRF for server actions: Next.js already refuses a cross-origin action; every account
// action checks again, so a proxy that rewrites Host cannot switch the check off.
import 'server-only';
import { headers } from 'next/headers';
import { AppError } from '../errors';

export function isSameOrigin(origin: string | null, host: string | null, forwardedHost: string | null): boolean {
  if (!origin) return false;
  try {
    const o = new URL(origin);
    const expected = (forwardedHost ?? host ?? '').split(',')[0].trim().toLowerCase();
    return !!expected && o.host.toLowerCase() === expected;
  } catch {
    return false;
  }
}

export async function assertSameOrigin(): Promise<void> {
  const h = await headers();
  if (!isSameOrigin(h.get('origin'), h.get('host'), h.get('x-forwarded-host'))) {
    throw new AppError('auth/forbidden', 'This request did not come from this site.');
  }
}
