// API token authentication: the token is shown once and only its hash is stored; unknown,
// malformed, revoked and expired tokens are refused with auth/unauthenticated; scopes hold.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { authenticateApiToken, createApiToken } from './api-tokens';
import { requireScope } from '../principal';

let userId: string;
beforeAll(async () => {
  userId = (await testDb().user.create({ data: { name: 'token-user' } })).id;
});

describe('API tokens', () => {
  it('authenticate as their user with their scopes; the plaintext is not stored', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'cli', scopes: ['invoke'] });
    expect(token).toMatch(/^sy_[0-9a-f]{8}_[A-Za-z0-9_-]{20,}$/);
    const row = await testDb().apiToken.findUniqueOrThrow({ where: { id } });
    // the whole secret (it may hold "_" itself: split('_') took a random fragment, which a cuid or the hash could contain)
    expect(JSON.stringify(row)).not.toContain(token.slice('sy_12345678_'.length));
    expect(row.hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    // a personal token: no team
    expect(await authenticateApiToken(testDb(), `Bearer ${token}`)).toEqual({ userId, tokenId: id, scopes: ['invoke'], teamId: null, chargeUserId: userId });
  });

  it("say which team a team's token belongs to, and a team token never holds the teams scope", async () => {
    const team = await testDb().team.create({ data: { slug: `tok-${Date.now().toString(36)}`, name: 't' } });
    await expect(createApiToken(testDb(), { userId, teamId: team.id, name: 'x', scopes: ['publish', 'teams'] })).rejects.toMatchObject({ code: 'input/invalid' });
    const { id, token } = await createApiToken(testDb(), { userId, teamId: team.id, name: 'ci', scopes: ['publish'] });
    expect(await authenticateApiToken(testDb(), `Bearer ${token}`)).toEqual({ userId, tokenId: id, scopes: ['publish'], teamId: team.id, chargeUserId: userId }); // no maker recorded: charged to its own user
  });

  it('no header is anonymous (null); a malformed one is refused', async () => {
    expect(await authenticateApiToken(testDb(), null)).toBeNull();
    for (const header of ['Basic abc', 'Bearer', 'Bearer sy_nothex!_xxxxxxxxxxxxxxxxxxxxxxxx', 'token sy_0123abcd_xxxxxxxxxxxxxxxxxxxxxxxx']) {
      await expect(authenticateApiToken(testDb(), header)).rejects.toMatchObject({ code: 'auth/unauthenticated', status: 401 });
    }
  });

  it('refuses unknown, revoked and expired tokens', async () => {
    await expect(authenticateApiToken(testDb(), `Bearer sy_0123abcd_${'x'.repeat(32)}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
    const revoked = await createApiToken(testDb(), { userId, name: 'revoked', scopes: ['invoke'] });
    await testDb().apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    await expect(authenticateApiToken(testDb(), `Bearer ${revoked.token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
    const expired = await createApiToken(testDb(), { userId, name: 'expired', scopes: ['invoke'], expiresAt: new Date(Date.now() - 1000) });
    await expect(authenticateApiToken(testDb(), `Bearer ${expired.token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
  });

  it('records when a token was last used', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'used', scopes: ['runs'] });
    expect((await testDb().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    // the update is best effort and not awaited by authentication: wait for it (bounded)
    let used: Date | null = null;
    for (let i = 0; i < 50 && !used; i++) {
      used = (await testDb().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt;
      if (!used) await new Promise((r) => setTimeout(r, 20));
    }
    expect(used).toBeInstanceOf(Date);
  });

  it('requireScope refuses a token without the scope and lets anonymous and scoped callers through', () => {
    expect(() => requireScope({ kind: 'token', userId, tokenId: 't', scopes: ['runs'] }, 'invoke')).toThrow(expect.objectContaining({ code: 'auth/forbidden' }));
    expect(() => requireScope({ kind: 'token', userId, tokenId: 't', scopes: ['invoke'] }, 'invoke')).not.toThrow();
    expect(() => requireScope({ kind: 'anonymous', anonymousId: 'a' }, 'invoke')).not.toThrow();
    expect(() => requireScope({ kind: 'user', userId }, 'invoke')).not.toThrow();
  });
});
