// API tokens are kept in memory while the process hears the database's notices, and a
// token that stops being valid (revoked here or by another instance, expiry moved, user
// deleted, table truncated) is refused at the next call; a LISTEN connection that drops
// or silently stops hearing empties the cache until it hears again. Real Postgres, in a
// database of its own (this file truncates): the triggers of migrations
// 20261126070000_api_token_notices and 20261126071000_api_token_truncate_notice and the
// run event bus's LISTEN connection.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { runEventBus } from '../runs/run-event-bus';
import { isolatedRunDb } from '../runs/testing/isolated-db';
import { apiTokenEpoch, cachedApiToken, forgetApiToken, hearApiTokenChanges, rememberApiToken, setApiTokenCacheLive } from './api-token-cache';
import { authenticateApiToken, createApiToken } from './api-tokens';
import { revokeApiToken } from './manage-api-tokens';
import { createTeam, createTeamApiToken, revokeTeamApiToken } from '../teams';
import { userPrincipal } from '../principal';

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
let userId: string;
let db: Db;
let url: string;
let drop: () => Promise<void>;
const testDb = () => db;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const live = () => until('the LISTEN connection to hear its probe', () => runEventBus().live);

/** Waits until the notice about `token` made this process forget it. */
async function forgotten(token: string): Promise<void> {
  const until = Date.now() + 5_000;
  while (cachedApiToken(hashOf(token)) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  expect(cachedApiToken(hashOf(token))).toBeNull();
}

beforeAll(async () => {
  ({ db, url, drop } = await isolatedRunDb());
  await hearApiTokenChanges(runEventBus());
  await runEventBus().connect(url);
  await live();
  userId = (await testDb().user.create({ data: { name: 'cached-token-user' } })).id;
});
afterAll(async () => {
  await runEventBus().close();
  await drop();
});

describe('the API token cache', () => {
  it('keeps a valid token after its first use, so later calls need no query', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'cache', scopes: ['invoke'] });
    expect(cachedApiToken(hashOf(token))).toBeNull();
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(cachedApiToken(hashOf(token))).toMatchObject({ id, userId, scopes: ['invoke'] });
    // a database that cannot be asked about tokens: the cached answer needs none
    const noTokenQueries = new Proxy(testDb(), {
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

  it("refuses a team's token revoked on this instance at once", async () => {
    const admin = await testDb().user.create({ data: { handle: `cache-admin-${Date.now().toString(36)}`, name: 'admin' } });
    await testDb().scope.create({ data: { name: admin.handle!, kind: 'user', userId: admin.id } });
    const actor = { principal: userPrincipal(admin.id), ip: '203.0.113.9' };
    const slug = `cache-team-${Date.now().toString(36)}`;
    await createTeam(testDb(), actor, { slug, name: 'cache team' });
    const { id, token } = await createTeamApiToken(testDb(), actor, slug, { name: 'ci', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(cachedApiToken(hashOf(token))).not.toBeNull();
    await revokeTeamApiToken(testDb(), actor, slug, id);
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
    rememberApiToken(hashOf(token), { id, userId, teamId: null, chargeUserId: userId, scopes: ['invoke'], expiresAt: null, lastUsedAt: null }, epoch);
    expect(cachedApiToken(hashOf(token))).toBeNull();
  });

  it('forgets every token when the table is truncated', async () => {
    const { token } = await createApiToken(testDb(), { userId, name: 'truncated', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    await testDb().$executeRawUnsafe('TRUNCATE "ApiToken" CASCADE');
    await forgotten(token);
    await expect(authenticateApiToken(testDb(), `Bearer ${token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
  });

  it('a LISTEN connection that drops empties the cache; once reconnected, revocations are heard again', async () => {
    const { id, token } = await createApiToken(testDb(), { userId, name: 'dropped', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    const listeners = async () =>
      (await testDb().$queryRawUnsafe<{ pid: number }[]>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, `skillyard-listen-${process.pid}`)).map((r) => r.pid);
    const [pid] = await listeners();
    await testDb().$queryRawUnsafe('SELECT pg_terminate_backend($1)', pid);
    await until('the cache to stop serving', () => !runEventBus().live);
    expect(cachedApiToken(hashOf(token))).toBeNull();
    await live();
    expect(await listeners()).toHaveLength(1); // one connection: no second reconnect loop
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(cachedApiToken(hashOf(token))).not.toBeNull();
    await testDb().apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    await forgotten(token);
  });

  it('a connection that silently stops hearing (its own probe goes unheard) is replaced', async () => {
    const { token } = await createApiToken(testDb(), { userId, name: 'deaf-connection', scopes: ['invoke'] });
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    // as a pooler that drops LISTEN would: the connection stays up, the notices stop
    const bus = runEventBus() as unknown as { listener: { query(sql: string): Promise<unknown> } };
    await bus.listener.query('UNLISTEN *');
    runEventBus().checkLiveness(); // sends a probe nobody hears
    runEventBus().checkLiveness(Date.now() + 60_000); // ...which is overdue
    expect(runEventBus().live).toBe(false);
    expect(cachedApiToken(hashOf(token))).toBeNull();
    await live();
    await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(cachedApiToken(hashOf(token))).not.toBeNull();
  });
});
