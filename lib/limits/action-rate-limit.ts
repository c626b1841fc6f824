// Rate limits for the web's own server actions that cost as much as an API call (starting
// or forking a run): the same Postgres buckets as /api/v1 (`user:<id>` for a signed-in
// user, `anon:<hash of the address>` for anyone else, the API's limits and window), so the page and
// the API share one budget and neither is a way around the other.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { httpLimits } from './http-limits';
import { consumeRateLimit } from './rate-limit';
import { rateKeyOf, type Principal } from '../principal';

/** Throws `rate/limited` (details.retryAfterMs) when the caller (the action chain's principal and address) is over the API's limit. */
export async function limitActionCall(db: Db, caller: { principal: Principal; address: string | null }, cost: number): Promise<void> {
  const l = httpLimits();
  const { key, authenticated } = rateKeyOf(caller.principal, caller.address);
  const decision = await consumeRateLimit(db, key, { limit: authenticated ? l.rateAuthenticated : l.rateAnonymous, windowMs: l.rateWindowMs, cost });
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    throw new AppError('rate/limited', `Too many requests; retry in ${seconds} s.`, { details: { retryAfterMs: decision.resetMs } });
  }
}
