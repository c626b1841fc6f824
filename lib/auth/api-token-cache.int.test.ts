// API tokens are kept in memory while the process hears the database's notices, and a
// token that stops being valid (revoked here or by another instance, expiry moved, user
// deleted) is refused at the next call. Real Postgres: the trigger in migration
// 20261126070000_api_token_notices and the run event bus's LISTEN connection.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb, testDatabaseUrl } from '../../test/db';
import { runEventBus } from '../runs/run-event-bus';
import { apiTokenEpoch, cachedApiToken, forgetApiToken, hearApiTokenChanges, rememberApiToken, setApiTokenCacheLive } from './api-token-cache';
import { authenticateApiToken, createApiToken } from './api-tokens';
import { revokeApiToken } from './manage-api-tokens';

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
let userId: string;

/** Waits until the notice about `token` made this process forget it. */
async function forgotten(token: string): Promise<void> {
  const until = Date.now() + 5_000;
  while (cachedApiToken(hashOf(token)) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  expect(cachedApiToken(hashOf(token))).toBeNull();
}

beforeAll(async () => {
  await hearApiTokenChanges(runEventBus());
  await runEventBus().connect(testDatabaseUrl());
  userId = (await testDb().user.create({ data: { name: 'cached-token-user' } })).id;
});
afterAll(() => runEventBus().close());

describe('the API token cache', () => {
  it('keeps a valid token after its first use, so later calls need no query', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'cache', scopes: ['invoke'] });
    expect(cachedApiToken(hashOf(token))).toBeNull();
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(cachedApiToken(hashOf(token))).toMatchObject({ id, userId, scopes: ['invoke'] });
    // a database that cannot be asked about tokens: the cached answer needs none
    const db = testDb();
    const noTokenQueries = new Proxy(db, {
      get: (target, prop) => (prop === 'apiToken' ? { findUnique: () => Promise.reject(new Error('queried')), update: () => Promise.resolve() } : Reflect.get(target, prop)),
    });
    expect(await authenticateApiToken(noTokenQueries, `Bearer ${token}`)).toMatchObject({ tokenId: id, scopes: ['invoke'] });
  });

  it('refuses a token revoked on this instance at once', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'revoke-here', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    await revokeApiToken(testDb(), userId, id);
    await expect(authenticateApiToken(testDb(), `Bearer ${token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
  });

  it('forgets a token revoked, re-scoped or given an expiry elsewhere when the notice arrives', async () => {
    const revoked = await createApiToken(testDb(), { userId, name: 'revoke-elsewhere', scopes: ['invoke'] });
    const expiring = await createApiToken(testDb(), { userId, name: 'expire-elsewhere', scopes: ['invoke'] });
    const rescoped = await createApiToken(testDb(), { userId, name: 'rescope-elsewhere', scopes: ['invoke', 'runs'] });
    for (const t of [revoked, expiring, rescoped]) await authenticateApiToken(testDb(), `Bearer ${t.token}`);
    // another instance (plain SQL here): the trigger announces each change
    await testDb().apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    await testDb().apiToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await testDb().apiToken.update({ where: { id: rescoped.id }, data: { scopes: ['runs'] } });
    for (const t of [revoked, expiring, rescoped]) await forgotten(t.token);
    await expect(authenticateApiToken(testDb(), `Bearer ${revoked.token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
    await expect(authenticateApiToken(testDb(), `Bearer ${expiring.token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
    expect(await authenticateApiToken(testDb(), `Bearer ${rescoped.token}`)).toMatchObject({ scopes: ['runs'] });
  });

  it('forgets the tokens of a deleted user (the cascade is announced too)', async () => {
    const owner = await testDb().user.create({ data: { name: 'deleted-later' } });
    const { token } = await createApiToken(testDb(), { userId: owner.id, name: 'gone', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    await testDb().user.delete({ where: { id: owner.id } });
    await forgotten(token);
    await expect(authenticateApiToken(testDb(), `Bearer ${token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
  });

  it('a use that only moves lastUsedAt is not announced (the entry stays)', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'used', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    await testDb().apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 200));
    expect(cachedApiToken(hashOf(token))).not.toBeNull();
  });

  it('serves nothing while notices are not heard, and caches nothing read while one arrived', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'deaf', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    setApiTokenCacheLive(false);
    try {
      expect(cachedApiToken(hashOf(token))).toBeNull();
      await authenticateApiToken(testDb(), `Bearer ${token}`);
      expect(cachedApiToken(hashOf(token))).toBeNull();
    } finally {
      setApiTokenCacheLive(true);
    }
    // a read that began before a notice is not kept: the notice may be about its token
    const epoch = apiTokenEpoch();
    forgetApiToken('some-other-hash');
    rememberApiToken(hashOf(token), { id, userId, teamId: null, scopes: ['invoke'], expiresAt: null, lastUsedAt: null }, epoch);
    expect(cachedApiToken(hashOf(token))).toBeNull();
  });
});
