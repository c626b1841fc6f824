import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { limitSignIn, SIGN_IN_LIMITS } from './sign-in-limit';

describe('sign-in rate limits', () => {
  it('refuse a sixth link to one address, and a flood from one client', async () => {
    const db = testDb();
    const email = `limit-${Date.now()}@example.com`;
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) await limitSignIn(db, `10.0.0.${i}`, email);
    await expect(limitSignIn(db, '10.0.0.99', email)).rejects.toMatchObject({ code: 'rate/limited', status: 429 });
    const ip = `192.0.2.${Date.now() % 200}`;
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) await limitSignIn(db, ip, null);
    await expect(limitSignIn(db, ip, `other-${Date.now()}@example.com`)).rejects.toMatchObject({ code: 'rate/limited' });
  });
});
