// The exact limiter decides in Postgres: 20 racing attempts (as if from many instances)
// against a limit of 5 let exactly 5 through, and a new window starts afresh.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { consumeRateLimitExact } from './exact-rate-limit';

describe('consumeRateLimitExact', () => {
  it('lets exactly the limit through under racing requests', async () => {
    const key = `test:exact:${Date.now()}:${Math.random()}`;
    const decisions = await Promise.all(Array.from({ length: 20 }, () => consumeRateLimitExact(testDb(), key, { limit: 5, windowMs: 60_000 })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.every((d) => d.resetMs > 0 && d.resetMs <= 60_000)).toBe(true);
  });

  it('starts a new window once the last one ended', async () => {
    const key = `test:exact-window:${Date.now()}:${Math.random()}`;
    expect((await consumeRateLimitExact(testDb(), key, { limit: 1, windowMs: 60_000 })).allowed).toBe(true);
    expect((await consumeRateLimitExact(testDb(), key, { limit: 1, windowMs: 60_000 })).allowed).toBe(false);
    await testDb().rateLimitBucket.update({ where: { key }, data: { resetAt: new Date(Date.now() - 1000) } });
    expect(await consumeRateLimitExact(testDb(), key, { limit: 1, windowMs: 60_000 })).toMatchObject({ allowed: true, remaining: 0 });
  });
});
