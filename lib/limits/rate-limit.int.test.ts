// The rate limiter against the real Postgres: decided in memory, written in batches, and
// a process that has never seen a key (a restart, another instance) starts from its row.
import { afterEach, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { consumeRateLimit, flushRateLimits, resetRateLimitMemoryForTests } from './rate-limit';

const key = () => `test:${Date.now()}:${Math.random().toString(36).slice(2)}`;
const opts = { limit: 3, windowMs: 60_000 };

afterEach(() => resetRateLimitMemoryForTests());

describe('rate limits: memory first, Postgres in batches', () => {
  it('refuses past the limit without writing per request, then writes the total once', async () => {
    const k = key();
    const seen: boolean[] = [];
    for (let i = 0; i < 5; i++) seen.push((await consumeRateLimit(testDb(), k, opts)).allowed);
    expect(seen).toEqual([true, true, true, false, false]);
    expect(await testDb().rateLimitBucket.findUnique({ where: { key: k } })).toBeNull();
    await flushRateLimits();
    expect((await testDb().rateLimitBucket.findUniqueOrThrow({ where: { key: k } })).points).toBe(5);
  });

  it('a restarted process (no memory) continues the stored window instead of starting a fresh one', async () => {
    const k = key();
    for (let i = 0; i < 3; i++) await consumeRateLimit(testDb(), k, opts);
    await flushRateLimits();
    resetRateLimitMemoryForTests();
    const d = await consumeRateLimit(testDb(), k, opts);
    expect(d.allowed).toBe(false);
    expect(d.remaining).toBe(0);
    expect(d.resetMs).toBeGreaterThan(50_000);
  });

  it("adopts other instances' points at each flush", async () => {
    const k = key();
    expect((await consumeRateLimit(testDb(), k, opts)).allowed).toBe(true);
    // another instance counted 2 meanwhile (and wrote them)
    await testDb().rateLimitBucket.create({ data: { key: k, points: 2, resetAt: new Date(Date.now() + 60_000) } });
    await flushRateLimits();
    expect((await testDb().rateLimitBucket.findUniqueOrThrow({ where: { key: k } })).points).toBe(3);
    expect((await consumeRateLimit(testDb(), k, opts)).allowed).toBe(false);
  });

  it('a window that ended starts over, in memory and in the row', async () => {
    const k = key();
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await consumeRateLimit(testDb(), k, { ...opts, now: t0 });
    expect((await consumeRateLimit(testDb(), k, { ...opts, now: t0 + 1 })).allowed).toBe(false);
    const later = await consumeRateLimit(testDb(), k, { ...opts, now: t0 + 60_001 });
    expect(later).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('concurrent first requests of a key read its row once and each count', async () => {
    const k = key();
    const all = await Promise.all(Array.from({ length: 6 }, () => consumeRateLimit(testDb(), k, opts)));
    expect(all.filter((d) => d.allowed)).toHaveLength(3);
    await flushRateLimits();
    expect((await testDb().rateLimitBucket.findUniqueOrThrow({ where: { key: k } })).points).toBe(6);
  });
});
