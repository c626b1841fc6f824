// Fixed-window rate limits counted in memory and shared through Postgres in batches.
//
// A request costs no database round trip: each key's window lives in this process and is
// decided there. The points counted since the last flush are written for all keys at once
// (one statement, every FLUSH_MS), and the statement answers with each key's total over
// every instance, which becomes this process's view. The first time a process sees a key
// (after a start, or after the key was evicted) it reads the key's row once, so a restart
// or another instance does not hand a caller a fresh window.
//
// The trade-off (docs/security.md): between two flushes each instance decides alone, so N
// instances may together let a caller past its limit by what the others counted in the
// last FLUSH_MS; and the points of the last FLUSH_MS before a crash are not stored. If
// Postgres fails, requests are decided from memory and the failure is logged (the limiter
// must not take the API down with it).
import 'server-only';
import type { Db } from '../db';
import { log, serializeError } from '../log';

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetMs: number };

type Bucket = {
  /** points of the current window as this process knows them (other instances' as of the last flush) */
  points: number;
  /** points counted here and not yet written */
  pending: number;
  /** the window's end (epoch ms) */
  resetAt: number;
  windowMs: number;
  /** the limit the last request was decided against (the front door refuses past it) */
  limit: number;
  db: Db;
};

/** how often counted points are written (ms) */
export const FLUSH_MS = 1_000;
/** keys kept in memory; past it, keys whose window ended go first, then the oldest */
const MAX_KEYS = 50_000;

// shared through globalThis: Next.js may load this module once per route bundle, and the
// front door (front-door.ts, outside any route) reads the same windows
const shared = globalThis as unknown as { skillyardRateBuckets?: Map<string, Bucket> };
const buckets = (shared.skillyardRateBuckets ??= new Map<string, Bucket>());
/** first sight of a key: its row is being read (concurrent first requests share the read) */
const loading = new Map<string, Promise<void>>();
let flushTimer: NodeJS.Timeout | null = null;
let flushing: Promise<void> | null = null;
let lastSweep = 0;

export async function consumeRateLimit(db: Db, key: string, opts: { limit: number; windowMs: number; cost?: number; now?: number }): Promise<RateDecision> {
  const cost = opts.cost ?? 1;
  if (!buckets.has(key)) {
    let pending = loading.get(key);
    if (!pending) {
      pending = load(db, key, opts.windowMs, opts.now ?? Date.now()).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    await pending;
  }
  const now = opts.now ?? Date.now();
  let b = buckets.get(key);
  if (!b) {
    b = { points: 0, pending: 0, resetAt: now + opts.windowMs, windowMs: opts.windowMs, limit: opts.limit, db };
    remember(key, b, now);
  } else if (b.resetAt <= now) {
    // a new window; points of the old one that were not written no longer matter
    b.points = 0;
    b.pending = 0;
    b.resetAt = now + opts.windowMs;
    b.windowMs = opts.windowMs;
  }
  b.limit = opts.limit;
  b.points += cost;
  b.pending += cost;
  scheduleFlush();
  return { allowed: b.points <= opts.limit, limit: opts.limit, remaining: Math.max(0, opts.limit - b.points), resetMs: Math.max(0, b.resetAt - now) };
}

/** The key's row, if its window is still open, becomes the bucket (one read per key per process). */
async function load(db: Db, key: string, windowMs: number, now: number): Promise<void> {
  try {
    const rows = await db.$queryRaw<Array<{ points: number; resetAt: Date }>>`
      SELECT "points", "resetAt" FROM "RateLimitBucket" WHERE "key" = ${key}`;
    const row = rows[0];
    if (row && row.resetAt.getTime() > now && !buckets.has(key)) {
      remember(key, { points: row.points, pending: 0, resetAt: row.resetAt.getTime(), windowMs, limit: Infinity, db }, now);
    }
  } catch (err) {
    log.error('rate limiter could not read a key; deciding from memory', { component: 'rate-limit', err: serializeError(err) });
  }
}

function remember(key: string, b: Bucket, now: number): void {
  if (buckets.size >= MAX_KEYS) evict(now);
  buckets.set(key, b);
}

function evict(now: number): void {
  for (const [k, b] of buckets) if (b.resetAt <= now) buckets.delete(k);
  // still full: drop the oldest tenth (their unwritten points are written first, best effort)
  if (buckets.size >= MAX_KEYS) {
    let n = Math.ceil(MAX_KEYS / 10);
    const dropped: Array<[string, Bucket]> = [];
    for (const [k, b] of buckets) {
      if (n-- <= 0) break;
      buckets.delete(k);
      if (b.pending > 0) dropped.push([k, b]);
    }
    if (dropped.length) void write(dropped, now);
  }
}

function scheduleFlush(): void {
  if (flushTimer) return;
  flushTimer = setTimeout(() => {
    flushTimer = null;
    void flushRateLimits();
  }, FLUSH_MS);
  flushTimer.unref?.();
}

/** Writes every key's unwritten points now (one statement per database) and adopts the totals. */
export function flushRateLimits(): Promise<void> {
  if (flushing) return flushing.then(() => flushRateLimits());
  const now = Date.now();
  const batch: Array<[string, Bucket]> = [];
  for (const entry of buckets) if (entry[1].pending > 0) batch.push(entry);
  if (batch.length === 0) return Promise.resolve();
  flushing = write(batch, now).finally(() => (flushing = null));
  return flushing;
}

async function write(batch: Array<[string, Bucket]>, now: number): Promise<void> {
  const byDb = new Map<Db, Array<{ key: string; b: Bucket; sent: number }>>();
  for (const [key, b] of batch) {
    const list = byDb.get(b.db) ?? [];
    list.push({ key, b, sent: b.pending });
    byDb.set(b.db, list);
    b.pending = 0;
  }
  for (const [db, list] of byDb) {
    const rows = JSON.stringify(list.map(({ key, b, sent }) => ({ key, points: sent, resetAt: new Date(b.resetAt).toISOString() })));
    const at = new Date(now);
    try {
      const totals = await db.$queryRaw<Array<{ key: string; points: number; resetAt: Date }>>`
        INSERT INTO "RateLimitBucket" ("key", "points", "resetAt")
        SELECT x."key", x."points", x."resetAt" FROM json_to_recordset(${rows}::json) AS x("key" text, "points" int, "resetAt" timestamp(3))
        ON CONFLICT ("key") DO UPDATE SET
          "points" = CASE WHEN "RateLimitBucket"."resetAt" <= ${at} THEN EXCLUDED."points"
                          ELSE "RateLimitBucket"."points" + EXCLUDED."points" END,
          "resetAt" = CASE WHEN "RateLimitBucket"."resetAt" <= ${at} THEN EXCLUDED."resetAt"
                           ELSE "RateLimitBucket"."resetAt" END
        RETURNING "key", "points", "resetAt"`;
      for (const t of totals) {
        const b = buckets.get(t.key);
        // every instance's points so far, plus what this one counted since the batch left
        if (b && b.resetAt > now) {
          b.points = t.points + b.pending;
          b.resetAt = t.resetAt.getTime();
        }
      }
    } catch (err) {
      // kept for the next flush (a window that ended meanwhile drops them)
      for (const { b, sent } of list) b.pending += sent;
      scheduleFlush();
      log.error('rate limiter could not write its counts; deciding from memory', { component: 'rate-limit', err: serializeError(err) });
      continue;
    }
    if (now - lastSweep > 60_000) {
      lastSweep = now;
      void db.rateLimitBucket
        .deleteMany({ where: { resetAt: { lt: new Date(now - 60_000) } } })
        .catch((err: unknown) => log.warn('rate-limit sweep failed', { component: 'rate-limit', err: serializeError(err) }));
    }
  }
}

/** ms until the key's window ends when it is already past its limit, else 0 (no counting, no database). */
export function overLimitForMs(key: string, now = Date.now()): number {
  const b = buckets.get(key);
  return b && b.resetAt > now && b.points > b.limit ? b.resetAt - now : 0;
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

/** Only for tests: forget every key, as a fresh instance would (unwritten points are lost: flush first). */
export function resetRateLimitMemoryForTests(): void {
  buckets.clear();
  loading.clear();
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  lastSweep = 0;
}
