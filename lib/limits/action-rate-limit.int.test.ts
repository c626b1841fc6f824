// Starting runs from the page counts against the same budget as POST /api/v1/runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { consumeRateLimit } from './rate-limit';
import { clientAddressOf, userPrincipal } from '../principal';
import { limitActionCall } from './action-rate-limit';

beforeAll(() => {
  // small limits so the test reaches them (read once per process by lib/api/limits.ts)
  process.env.SKILLYARD_RATE_LIMIT_AUTHENTICATED = '12';
  process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = '7';
});

describe('server action rate limits', () => {
  it("share the API's bucket for a user, and refuse past the limit", async () => {
    const userId = `limit-user-${Date.now()}`;
    const caller = { principal: userPrincipal(userId), address: '192.0.2.1' };
    // the API already spent 5 of this user's 12 points in this window
    await consumeRateLimit(testDb(), `user:${userId}`, { limit: 12, windowMs: 60_000, cost: 5 });
    await limitActionCall(testDb(), caller, 5);
    await expect(limitActionCall(testDb(), caller, 5)).rejects.toMatchObject({ code: 'rate/limited', status: 429 });
  });

  it('limit anonymous visitors per address (the last X-Forwarded-For entry), not per forged first entry', async () => {
    const ip = `203.0.113.${Date.now() % 250}`;
    const from = (forged: string) => ({ principal: userPrincipal(null), address: clientAddressOf(new Headers({ 'x-forwarded-for': `${forged}, ${ip}` })) });
    await limitActionCall(testDb(), from('1.1.1.1'), 5);
    await expect(limitActionCall(testDb(), from('2.2.2.2'), 5)).rejects.toMatchObject({ code: 'rate/limited' });
  });
});
