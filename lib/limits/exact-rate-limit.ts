// A fixed-window limit decided in Postgres, one statement per request: for low limits
// (sign-ins per e-mail address, per client address) where the batched limiter's
// trade-off (rate-limit.ts: each instance decides alone between flushes) would let N
// instances grant N times the limit. Same table and window rules as the batched one,
// on keys of its own.
import 'server-only';
import type { Db } from '../db';
import type { RateDecision } from './rate-limit';

export async function consumeRateLimitExact(db: Db, key: string, opts: { limit: number; windowMs: number; cost?: number }): Promise<RateDecision> {
  const cost = opts.cost ?? 1;
  // the row is locked by the upsert: concurrent requests on any instance are counted one after
  // another; clock_timestamp(), not now() (the transaction's start): a request that waited for
  // the lock would otherwise see a window that ends more than windowMs from its own now
  const [row] = await db.$queryRaw<Array<{ points: number; resetMs: number }>>`
    INSERT INTO "RateLimitBucket" ("key", "points", "resetAt")
    VALUES (${key}, ${cost}, clock_timestamp() + make_interval(secs => ${opts.windowMs / 1000}))
    ON CONFLICT ("key") DO UPDATE SET
      "points" = CASE WHEN "RateLimitBucket"."resetAt" <= clock_timestamp() THEN EXCLUDED."points"
                      ELSE "RateLimitBucket"."points" + EXCLUDED."points" END,
      "resetAt" = CASE WHEN "RateLimitBucket"."resetAt" <= clock_timestamp() THEN EXCLUDED."resetAt"
                       ELSE "RateLimitBucket"."resetAt" END
    RETURNING "points", GREATEST(0, EXTRACT(EPOCH FROM ("resetAt" - clock_timestamp())) * 1000)::float8 AS "resetMs"`;
  const points = row?.points ?? cost;
  return { allowed: points <= opts.limit, limit: opts.limit, remaining: Math.max(0, opts.limit - points), resetMs: Math.round(row?.resetMs ?? opts.windowMs) };
}
