// CSRF for server actions: Next.js already refuses a cross-origin action; every account
// action checks again, so a proxy that rewrites Host cannot switch the check off.
import 'server-only';
import { headers } from 'next/headers';
import { AppError } from '../errors';
import { isSameOrigin } from './same-origin-check';

export { isSameOrigin };

export async function assertSameOrigin(): Promise<void> {
  const h = await headers();
  if (!isSameOrigin(h.get('origin'), h.get('host'), h.get('x-forwarded-host'))) {
    throw new AppError('auth/forbidden', 'This request did not come from this site.');
  }
}
