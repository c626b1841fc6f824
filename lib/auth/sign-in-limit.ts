// Sign-in attempts are rate limited in Postgres (shared by every instance): per client
// address and per e-mail address, so nobody floods an inbox or the log with links. The
// sign-in server actions and Auth.js's own POST /api/auth/signin/* (which a script can
// call directly, CSRF token and all) go through the same limits. The e-mail limit is
// keyed on the address exactly as Auth.js normalises it (normalize-email.ts): counted on
// the raw text, `victim@x.test,1` or `VICTIM@x.test` were fresh budgets for one inbox.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { consumeRateLimitExact } from '../limits';
import { signInEmailOrNull } from './normalize-email';
import { clientIp } from '../principal';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LIMITS = { perAddress: 20, perEmail: 5 };

/** The client address as the API's rate limits see it (lib/principal: X-Forwarded-For as the last trusted proxy wrote it). */
export function signInAddress(headers: Pick<Headers, 'get'>): string {
  return clientIp({ headers });
}

/** The rate-limit key of an e-mail address: the inbox Auth.js would mail, hashed (no addresses in the limits table); null when Auth.js would mail nothing. */
export function signInEmailKey(email: unknown): string | null {
  const inbox = signInEmailOrNull(email);
  return inbox ? `signin:email:${crypto.createHash('sha256').update(inbox).digest('base64url')}` : null;
}

/**
 * Throws `rate/limited` (details.retryAfterMs) when the address or the e-mail address is
 * over its limit. `email` is what the request carries, raw: it is normalised here.
 */
export async function limitSignIn(db: Db, ip: string, email: unknown): Promise<void> {
  // low limits, decided in Postgres on every attempt: N instances never grant N times them
  const checks = [consumeRateLimitExact(db, `signin:ip:${ip}`, { limit: SIGN_IN_LIMITS.perAddress, windowMs: SIGN_IN_WINDOW_MS })];
  const emailKey = signInEmailKey(email);
  if (emailKey) checks.push(consumeRateLimitExact(db, emailKey, { limit: SIGN_IN_LIMITS.perEmail, windowMs: SIGN_IN_WINDOW_MS }));
  const refused = (await Promise.all(checks)).find((d) => !d.allowed);
  if (refused) {
    throw new AppError('rate/limited', `Too many sign-in attempts; try again in ${Math.ceil(refused.resetMs / 60_000)} minutes.`, {
      details: { retryAfterMs: refused.resetMs, limit: refused.limit },
    });
  }
}

/**
 * The e-mail field of a POST to /api/auth/signin/*, read as Auth.js reads the body
 * (@auth/core lib/utils/web.js `getBody`): JSON when the content type mentions
 * application/json, a form when it mentions x-www-form-urlencoded, where the last of
 * repeated fields wins (Object.fromEntries). Anything else carries no address.
 */
export function signInEmailFromBody(contentType: string | null, body: ArrayBuffer): unknown {
  const text = new TextDecoder().decode(body);
  try {
    if (contentType?.includes('application/json')) return (JSON.parse(text) as { email?: unknown } | null)?.email;
    if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text)).email;
  } catch {
    // Auth.js fails on a body it cannot parse, and sends nothing
  }
  return undefined;
}
