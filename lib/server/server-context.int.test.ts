// The server's capability providers on the real Postgres: per-skill namespaces by full
// @scope/name, storage quotas per principal and per skill, storage of anonymous callers
// (stable visitor identity, or nothing kept), and the environment provider.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { sealSecret } from '../auth/secret-box';
import type { CapabilityScope } from '../runtime';
import { createPgStorage } from './capabilities/pg-storage';
import { createServerContext, type ServerContext } from './server-context';
import { readServerConfig } from './server-config';
import { anonymousKey } from '../principal';

let server: ServerContext;
beforeAll(() => {
  const config = readServerConfig({
    SKILLYARD_STORAGE_MAX_ROWS: '5',
    SKILLYARD_STORAGE_MAX_BYTES: '1000',
    SKILLYARD_STORAGE_MAX_ROWS_PER_SKILL: '3',
    SKILLYARD_STORAGE_MAX_BYTES_PER_SKILL: '600',
    SKILLYARD_STORAGE_ANON_MAX_ROWS: '2',
    SKILLYARD_STORAGE_ANON_MAX_BYTES: '300',
  });
  server = createServerContext({ db: testDb(), config, signingKey: Buffer.alloc(32, 7) });
});
afterAll(() => server.close());

const unique = () => crypto.randomBytes(5).toString('hex');
const scope = (callerId: string, skill: string, callerKind: CapabilityScope['callerKind'] = 'user'): CapabilityScope => ({
  callerId,
  callerKind,
  skill,
  tool: 't',
});

describe('storage on Postgres', () => {
  it('keys rows by the full @scope/name, so same-named skills of two scopes share nothing', async () => {
    const { storage } = server.providers;
    const caller = `user:${unique()}`;
    await storage.put(scope(caller, '@skillyard/notebook'), 'default', 'secret', { diary: 1 });
    expect(await storage.get(scope(caller, '@mallory/notebook'), 'default', 'secret')).toBeNull();
    expect(await storage.list(scope(caller, '@mallory/notebook'), 'default', '')).toEqual([]);
    expect(await storage.get(scope(caller, '@skillyard/notebook'), 'default', 'secret')).toEqual({ diary: 1 });
    const row = await testDb().kvEntry.findFirstOrThrow({ where: { callerId: caller } });
    expect(row).toMatchObject({ skill: '@skillyard/notebook', bytes: Buffer.byteLength('{"diary":1}') });
  });

  it('refuses the row past the per-skill quota; replacing a key adds no row', async () => {
    const { storage } = server.providers;
    const s = scope(`user:${unique()}`, '@a/quota');
    for (const k of ['k1', 'k2', 'k3']) await storage.put(s, 'default', k, 1);
    await storage.put(s, 'default', 'k3', 2); // replace: still 3 rows
    await expect(storage.put(s, 'default', 'k4', 1)).rejects.toMatchObject({ code: 'storage/quota-exceeded', message: expect.stringContaining('rows in this skill') });
    await storage.delete(s, 'default', 'k1');
    await storage.put(s, 'default', 'k4', 1);
    expect(await storage.list(s, 'default', '')).toEqual(['k2', 'k3', 'k4']);
  });

  it('refuses past the per-principal totals across skills, in rows and in bytes', async () => {
    const { storage } = server.providers;
    const caller = `user:${unique()}`;
    for (const k of ['a', 'b', 'c']) await storage.put(scope(caller, '@a/one'), 'default', k, 0);
    await storage.put(scope(caller, '@a/two'), 'default', 'd', 0);
    await storage.put(scope(caller, '@a/two'), 'default', 'e', 0);
    await expect(storage.put(scope(caller, '@a/three'), 'default', 'f', 0)).rejects.toMatchObject({
      code: 'storage/quota-exceeded',
      message: expect.stringContaining('rows across all skills'),
    });
    const other = `user:${unique()}`;
    await storage.put(scope(other, '@a/one'), 'default', 'big', 'x'.repeat(500));
    await expect(storage.put(scope(other, '@a/one'), 'default', 'more', 'x'.repeat(200))).rejects.toMatchObject({
      message: expect.stringContaining('bytes in this skill'),
    });
    // another principal is unaffected by the first one's usage
    await storage.put(scope(`user:${unique()}`, '@a/one'), 'default', 'a', 0);
  });

  it('holds the quota under parallel writes (one writer per principal at a time)', async () => {
    const { storage } = server.providers;
    const s = scope(`user:${unique()}`, '@a/race');
    const results = await Promise.allSettled(['1', '2', '3', '4', '5', '6'].map((k) => storage.put(s, 'default', k, k)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await testDb().kvEntry.count({ where: { callerId: s.callerId } })).toBe(3);
  });
});

describe('storage of anonymous callers', () => {
  it('a visitor with a stable (cookie) identity keeps data between calls, under the anonymous quota', async () => {
    const visitorId = `v${unique()}xyz`;
    const first = await server.runtimeFor({ userId: null, visitorId });
    const second = await server.runtimeFor({ userId: null, visitorId });
    expect(first.caller.id).toBe(second.caller.id);
    const s = scope(first.caller.id, '@a/notes', 'anonymous');
    await first.providers!.storage!.put(s, 'default', 'k', 'v');
    expect(await second.providers!.storage!.get(s, 'default', 'k')).toBe('v');
    await first.providers!.storage!.put(s, 'default', 'k2', 'v');
    await expect(first.providers!.storage!.put(s, 'default', 'k3', 'v')).rejects.toMatchObject({ code: 'storage/quota-exceeded' });
  });

  it('all visitors together share a pool on top of their own quotas (a visitor cookie is free to mint)', async () => {
    const prefix = `visitor:pool-${unique()}-`;
    const quota = { maxRows: 2, maxBytes: 1000, maxRowsPerSkill: 2, maxBytesPerSkill: 1000 };
    const storage = createPgStorage(testDb(), quota, { callerPrefix: prefix, maxRows: 3, maxBytes: 10_000 });
    // three visitors, each well within their own quota, fill the pool's three rows
    for (const v of ['a', 'b', 'c']) await storage.put(scope(`${prefix}${v}`, '@a/notes', 'anonymous'), 'default', 'k', 'v');
    await expect(storage.put(scope(`${prefix}d`, '@a/notes', 'anonymous'), 'default', 'k', 'v')).rejects.toMatchObject({
      code: 'storage/quota-exceeded',
      message: expect.stringContaining('storage for visitors who are not signed in is full'),
    });
    // replacing a value of the same size still works; callers outside the pool are not counted
    await storage.put(scope(`${prefix}a`, '@a/notes', 'anonymous'), 'default', 'k', 'w');
    await storage.put(scope(`user:${unique()}`, '@a/notes'), 'default', 'k', 'v');
  });

  it('without one, storage lasts one call and nothing reaches the database', async () => {
    const before = await testDb().kvEntry.count();
    const call = await server.runtimeFor({ userId: null });
    const s = scope(call.caller.id, '@a/notes', 'anonymous');
    await call.providers!.storage!.put(s, 'default', 'k', 'v');
    expect(await call.providers!.storage!.get(s, 'default', 'k')).toBe('v');
    const next = await server.runtimeFor({ userId: null });
    expect(next.caller.id).not.toBe(call.caller.id);
    expect(await next.providers!.storage!.get(scope(next.caller.id, '@a/notes', 'anonymous'), 'default', 'k')).toBeNull();
    expect(await testDb().kvEntry.count()).toBe(before);
    // and even in memory it is bounded
    await call.providers!.storage!.put(s, 'default', 'k2', 'v');
    await expect(call.providers!.storage!.put(s, 'default', 'k3', 'v')).rejects.toMatchObject({ code: 'storage/quota-exceeded' });
  });

  it("anonymous callers' sandbox jobs queue under their address, with a cookie or without (signed-in users under their own id)", async () => {
    const ip = '203.0.113.7';
    expect((await server.runtimeFor({ userId: null, ip })).caller.queueKey).toBe(anonymousKey(ip));
    expect((await server.runtimeFor({ userId: null, visitorId: `v${unique()}xyz`, ip })).caller.queueKey).toBe(anonymousKey(ip));
    expect((await server.runtimeFor({ userId: null })).caller.queueKey).toBeUndefined();
    const user = await testDb().user.create({ data: {} });
    expect((await server.runtimeFor({ userId: user.id, ip })).caller.queueKey).toBeUndefined();
  });

  it('an unsafe visitor id is not trusted as an identity', async () => {
    const call = await server.runtimeFor({ userId: null, visitorId: 'x' });
    expect(call.caller.id).toMatch(/^anonymous:/);
  });
});

describe('the environment provider', () => {
  it("gives a team caller its own team's secrets, and nothing to users or other teams", async () => {
    const team = await testDb().team.create({ data: { slug: `t${unique()}`, name: 'T' } });
    const other = await testDb().team.create({ data: { slug: `o${unique()}`, name: 'O' } });
    await testDb().teamSecret.create({ data: { teamId: team.id, name: 'API_KEY', value: sealSecret('sk-team') } });
    const env = server.providers.environment;
    expect(await env.get(scope(`team:${team.id}`, '@a/x', 'team'), 'API_KEY')).toBe('sk-team');
    expect(await env.get(scope(`team:${team.id}`, '@a/x', 'team'), 'MISSING')).toBeNull();
    expect(await env.get(scope(`team:${other.id}`, '@a/x', 'team'), 'API_KEY')).toBeNull();
    expect(await env.get(scope(`user:${team.id}`, '@a/x'), 'API_KEY')).toBeNull();
    expect(await env.get(scope(`anonymous:${team.id}`, '@a/x', 'anonymous'), 'API_KEY')).toBeNull();
  });
});

describe('the environment provider for a team skill run by a user', () => {
  it("reads the skill's team secrets for its members only, and stops the moment one is removed", async () => {
    const team = await testDb().team.create({ data: { slug: `s${unique()}`, name: 'S' } });
    await testDb().scope.create({ data: { name: team.slug, kind: 'team', teamId: team.id } });
    const member = await testDb().user.create({ data: { name: 'member' } });
    const stranger = await testDb().user.create({ data: { name: 'stranger' } });
    await testDb().membership.create({ data: { teamId: team.id, userId: member.id, role: 'member' } });
    await testDb().teamSecret.create({ data: { teamId: team.id, name: 'API_KEY', value: sealSecret('sk-of-the-team') } });
    const env = server.providers.environment;
    const teamSkill = `@${team.slug}/reporter`;
    expect(await env.get(scope(`user:${member.id}`, teamSkill), 'API_KEY')).toBe('sk-of-the-team');
    expect(await env.get(scope(`user:${stranger.id}`, teamSkill), 'API_KEY')).toBeNull();
    // the same user running someone else's skill does not get the team's secrets
    expect(await env.get(scope(`user:${member.id}`, '@skillyard/reporter'), 'API_KEY')).toBeNull();
    await testDb().membership.delete({ where: { teamId_userId: { teamId: team.id, userId: member.id } } });
    expect(await env.get(scope(`user:${member.id}`, teamSkill), 'API_KEY')).toBeNull();
  });
});

describe('the signer', () => {
  it('signs per full skill name with the server key', async () => {
    const token = await server.providers.signer.sign(scope('user:u', '@skillyard/notebook'), { ok: 1 }, {});
    expect(await server.providers.signer.verify(scope('user:u', '@skillyard/notebook'), token)).toEqual({ valid: true, payload: { ok: 1 } });
    expect(await server.providers.signer.verify(scope('user:u', '@mallory/notebook'), token)).toEqual({ valid: false, reason: 'bad signature' });
  });
});
