// Sign-in attempts are rate limited in Postgres (shared by every instance): per client
// address and per e-mail address, so nobody floods an inbox or the log with links.
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { consumeRateLimit } from '../api/rate-limit';

const WINDOW_MS = 15 * 60_000;
export const SIGN_IN_LIMITS = { perAddress: 20, perEmail: 5 };

export async function limitSignIn(db: Db, ip: string, email: string | null): Promise<void> {
  const checks = [consumeRateLimit(db, `signin:ip:${ip}`, { limit: SIGN_IN_LIMITS.perAddress, windowMs: WINDOW_MS })];
  if (email) checks.push(consumeRateLimit(db, `signin:email:${email}`, { limit: SIGN_IN_LIMITS.perEmail, windowMs: WINDOW_MS }));
  const refused = (await Promise.all(checks)).find((d) => !d.allowed);
  if (refused) {
    throw new AppError('rate/limited', `Too many sign-in attempts; try again in ${Math.ceil(refused.resetMs / 60_000)} minutes.`);
  }
}
