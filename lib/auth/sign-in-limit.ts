// Sign-in attempts are rate limited in Postgres (shared by every instance): per client
// address and per e-mail address, so nobody floods an inbox or the log with links. The
// sign-in server actions and Auth.js's own POST /api/auth/signin/* (which a script can
// call directly, CSRF token and all) go through the same limits.
import 'server-only';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { httpLimits } from '../api/limits';
import { clientIp } from '../api/principal';
import { consumeRateLimit } from '../api/rate-limit';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LIMITS = { perAddress: 20, perEmail: 5 };

/** The client address as the API's rate limits see it (X-Forwarded-For as the last trusted proxy wrote it). */
export function signInAddress(headers: Pick<Headers, 'get'>): string {
  return clientIp({ headers } as Request, httpLimits().trustedProxies);
}

/** Throws `rate/limited` (details.retryAfterMs) when the address or the e-mail address is over its limit. */
export async function limitSignIn(db: Db, ip: string, email: string | null): Promise<void> {
  const checks = [consumeRateLimit(db, `signin:ip:${ip}`, { limit: SIGN_IN_LIMITS.perAddress, windowMs: SIGN_IN_WINDOW_MS })];
  if (email) checks.push(consumeRateLimit(db, `signin:email:${email.trim().toLowerCase()}`, { limit: SIGN_IN_LIMITS.perEmail, windowMs: SIGN_IN_WINDOW_MS }));
  const refused = (await Promise.all(checks)).find((d) => !d.allowed);
  if (refused) {
    throw new AppError('rate/limited', `Too many sign-in attempts; try again in ${Math.ceil(refused.resetMs / 60_000)} minutes.`, {
      details: { retryAfterMs: refused.resetMs, limit: refused.limit },
    });
  }
}
