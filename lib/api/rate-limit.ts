// Fixed-window rate limits shared by every instance through one Postgres row per key
// (an atomic upsert per request). A key over its limit is also remembered in memory
// until its window ends, so a flood is refused without touching the database.
import type { Db } from '../db/client';
import { log, serializeError } from '../log';

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetMs: number };

const blocked = new Map<string, number>(); // key -> resetAt (epoch ms)
const MAX_BLOCKED = 10_000;
let lastSweep = 0;

export async function consumeRateLimit(
  db: Db,
  key: string,
  opts: { limit: number; windowMs: number; cost?: number; now?: number },
): Promise<RateDecision> {
  const now = opts.now ?? Date.now();
  const cost = opts.cost ?? 1;
  const until = blocked.get(key);
  if (until !== undefined) {
    if (until > now) return { allowed: false, limit: opts.limit, remaining: 0, resetMs: until - now };
    blocked.delete(key);
  }
  let points: number;
  let resetAt: number;
  try {
    const rows = await db.$queryRaw<Array<{ points: number; resetAt: Date }>>`
      INSERT INTO "RateLimitBucket" ("key", "points", "resetAt")
      VALUES (${key}, ${cost}, ${new Date(now + opts.windowMs)})
      ON CONFLICT ("key") DO UPDATE SET
        "points" = CASE WHEN "RateLimitBucket"."resetAt" <= ${new Date(now)} THEN EXCLUDED."points"
                        ELSE "RateLimitBucket"."points" + EXCLUDED."points" END,
        "resetAt" = CASE WHEN "RateLimitBucket"."resetAt" <= ${new Date(now)} THEN EXCLUDED."resetAt"
                         ELSE "RateLimitBucket"."resetAt" END
      RETURNING "points", "resetAt"`;
    points = rows[0]!.points;
    resetAt = rows[0]!.resetAt.getTime();
  } catch (err) {
    // the limiter must not take the API down with it: allow, and say so in the log
    log.error('rate limiter failed; request allowed', { component: 'rate-limit', err: serializeError(err) });
    return { allowed: true, limit: opts.limit, remaining: opts.limit, resetMs: opts.windowMs };
  }
  if (now - lastSweep > opts.windowMs) {
    lastSweep = now;
    void db.rateLimitBucket
      .deleteMany({ where: { resetAt: { lt: new Date(now - opts.windowMs) } } })
      .catch((err: unknown) => log.warn('rate-limit sweep failed', { component: 'rate-limit', err: serializeError(err) }));
  }
  const allowed = points <= opts.limit;
  if (!allowed) {
    if (blocked.size >= MAX_BLOCKED) blocked.clear();
    blocked.set(key, resetAt);
  }
  return { allowed, limit: opts.limit, remaining: Math.max(0, opts.limit - points), resetMs: Math.max(0, resetAt - now) };
}

/** Standard headers for a decision (RateLimit-* as in the IETF draft, Retry-After on 429). */
export function rateLimitHeaders(d: RateDecision, windowMs: number): Record<string, string> {
  const reset = Math.ceil(d.resetMs / 1000);
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(reset),
    'RateLimit-Policy': `${d.limit};w=${Math.round(windowMs / 1000)}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(Math.max(1, reset));
  return headers;
}

/** Only for tests: forget the in-memory blocks. */
export function resetRateLimitMemoryForTests(): void {
  blocked.clear();
  lastSweep = 0;
}
