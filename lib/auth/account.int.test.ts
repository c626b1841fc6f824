// Accounts on the real database: usernames, API token scopes over their life, own model
// keys sealed at rest, and deletion that keeps published versions.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { authenticateApiToken } from './api-tokens';
import { deleteAccount } from './delete-account';
import { issueApiToken, listApiTokens, revokeApiToken } from './manage-api-tokens';
import { listModelKeys, setModelKey, userModelKey } from './model-keys';
import { storeConnectionTokens } from './oauth-connections';
import { endAllSessions } from './sessions';
import { chooseUsername } from './usernames';
import { newRunId } from '../runs/run-id';
import { requireScope } from '../principal';

const unique = () => Math.random().toString(36).slice(2, 10);

describe('usernames', () => {
  it('claims the scope once; a taken or second name is refused and changes nothing', async () => {
    const db = testDb();
    const a = await db.user.create({ data: {} });
    const b = await db.user.create({ data: {} });
    const name = `u-${unique()}`;
    expect(await chooseUsername(db, a.id, ` ${name.toUpperCase()} `)).toBe(name);
    expect(await db.scope.findUnique({ where: { name } })).toMatchObject({ kind: 'user', userId: a.id });
    await expect(chooseUsername(db, b.id, name)).rejects.toMatchObject({ code: 'account/username-exists' });
    await expect(chooseUsername(db, a.id, `other-${unique()}`)).rejects.toMatchObject({ code: 'account/username-conflict' });
    await expect(chooseUsername(db, b.id, 'x')).rejects.toMatchObject({ code: 'input/invalid-username' });
    expect((await db.user.findUnique({ where: { id: b.id } }))?.handle).toBeNull();
  });
});

describe('API tokens', () => {
  it('grant their scopes, refuse missing ones, and stop working when revoked or expired', async () => {
    const db = testDb();
    const user = await db.user.create({ data: {} });
    const { token, id } = await issueApiToken(db, user.id, { name: 'cli', scopes: ['invoke', 'runs'], expiresInDays: 30 });
    expect(token).toMatch(/^sy_[0-9a-f]{8}_/);
    // only the hash is stored
    expect(JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "ApiToken" WHERE id = $1`, id))).not.toContain(token.slice('sy_12345678_'.length));

    const principal = await authenticateApiToken(db, `Bearer ${token}`);
    expect(principal).toMatchObject({ userId: user.id, scopes: ['invoke', 'runs'] });
    expect(() => requireScope({ kind: 'token', ...principal! }, 'invoke')).not.toThrow();
    expect(() => requireScope({ kind: 'token', ...principal! }, 'publish')).toThrow(expect.objectContaining({ code: 'auth/forbidden' }));
    await new Promise((r) => setTimeout(r, 50));
    expect((await listApiTokens(db, user.id))[0].lastUsedAt).not.toBeNull();

    // someone else cannot revoke it
    const other = await db.user.create({ data: {} });
    await expect(revokeApiToken(db, other.id, id)).rejects.toMatchObject({ code: 'token/not-found' });
    await revokeApiToken(db, user.id, id);
    await expect(authenticateApiToken(db, `Bearer ${token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });

    const expiring = await issueApiToken(db, user.id, { name: 'short', scopes: ['invoke'], expiresInDays: 1 });
    await db.apiToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(authenticateApiToken(db, `Bearer ${expiring.token}`)).rejects.toMatchObject({ code: 'auth/unauthenticated' });
    await expect(authenticateApiToken(db, 'Bearer sy_00000000_forgedforgedforgedforgedforged')).rejects.toMatchObject({ code: 'auth/unauthenticated' });
  });

  it('refuses bad input with a reason', async () => {
    const db = testDb();
    const user = await db.user.create({ data: {} });
    await expect(issueApiToken(db, user.id, { name: '', scopes: ['invoke'], expiresInDays: 1 })).rejects.toMatchObject({ code: 'input/invalid' });
    await expect(issueApiToken(db, user.id, { name: 'x', scopes: ['admin'], expiresInDays: 1 })).rejects.toThrow(/Unknown scope: admin/);
    await expect(issueApiToken(db, user.id, { name: 'x', scopes: [], expiresInDays: 1 })).rejects.toThrow(/at least one/);
    await expect(issueApiToken(db, user.id, { name: 'x', scopes: ['invoke'], expiresInDays: 0 })).rejects.toThrow(/1 to 366/);
    expect(await listApiTokens(db, user.id)).toEqual([]);
  });
});

describe('own model keys', () => {
  it('are sealed at rest, shown as the last four characters, and only for their owner', async () => {
    const db = testDb();
    const user = await db.user.create({ data: {} });
    const key = `sk-test-${unique()}${unique()}WXYZ`;
    await setModelKey(db, user.id, 'openai', key);
    expect(JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "ModelKey" WHERE "userId" = $1`, user.id))).not.toContain(key);
    expect(await listModelKeys(db, user.id)).toEqual([expect.objectContaining({ provider: 'openai', last4: 'WXYZ' })]);
    expect(await userModelKey(db, user.id, 'openai')).toBe(key);
    const other = await db.user.create({ data: {} });
    expect(await userModelKey(db, other.id, 'openai')).toBeNull();
    expect(await userModelKey(db, null, 'openai')).toBeNull();
    await expect(setModelKey(db, user.id, 'cohere', key)).rejects.toMatchObject({ code: 'input/invalid' });
    await expect(setModelKey(db, user.id, 'openai', 'short')).rejects.toMatchObject({ code: 'input/invalid' });
  });
});

describe('account deletion', () => {
  it('deletes runs, tokens, keys and sessions but keeps published versions and the scope', async () => {
    const db = testDb();
    const user = await db.user.create({ data: { email: `${unique()}@example.com` } });
    const name = `del-${unique()}`;
    await chooseUsername(db, user.id, name);
    const skill = await db.skill.create({ data: { scopeName: name, name: 'kept', description: 'd', format: 'skill-md' } });
    const version = await db.skillVersion.create({
      data: { skillId: skill.id, version: '1.0.0', manifest: {}, contentHash: 'h', sizeBytes: 1, publishedById: user.id },
    });
    await db.run.create({ data: { id: newRunId(), userId: user.id, config: { skills: [], task: 't', provider: 'scripted' } } });
    await issueApiToken(db, user.id, { name: 'cli', scopes: ['invoke'], expiresInDays: 1 });
    await setModelKey(db, user.id, 'anthropic', 'sk-ant-0123456789');
    await storeConnectionTokens(db, user.id, { provider: 'github', access_token: 'gho_x', scope: 'repo' });
    await db.session.create({ data: { userId: user.id, sessionToken: `s-${unique()}`, expires: new Date(Date.now() + 86_400_000) } });
    await db.kvEntry.create({ data: { skill: '@x/y', callerId: `user:${user.id}`, namespace: 'default', key: 'k', value: 1 } });

    const out = await deleteAccount(db, user.id);
    expect(out.runs).toBe(1);
    expect(await db.user.findUnique({ where: { id: user.id } })).toBeNull();
    expect(await db.run.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.apiToken.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.heldToken.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.modelKey.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.kvEntry.count({ where: { callerId: `user:${user.id}` } })).toBe(0);
    // published versions stay, and nobody else can take the scope
    expect(await db.skillVersion.findUnique({ where: { id: version.id } })).toMatchObject({ publishedById: null });
    expect(await db.scope.findUnique({ where: { name } })).toMatchObject({ userId: null });
    const newcomer = await db.user.create({ data: {} });
    await expect(chooseUsername(db, newcomer.id, name)).rejects.toMatchObject({ code: 'account/username-exists' });
  });

  it("is refused while the user is a team's last owner, naming the team and what to do; allowed once another owner exists", async () => {
    const db = testDb();
    const owner = await db.user.create({ data: { handle: `lo-${unique()}` } });
    const member = await db.user.create({ data: { handle: `lm-${unique()}` } });
    const slug = `lo-team-${unique()}`;
    const team = await db.team.create({
      data: {
        slug,
        name: slug,
        memberships: {
          create: [
            { userId: owner.id, role: 'owner' },
            { userId: member.id, role: 'member' },
          ],
        },
      },
    });
    await db.run.create({ data: { id: newRunId(), userId: owner.id, config: { skills: [], task: 't', provider: 'scripted' } } });

    const refused = await deleteAccount(db, owner.id).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'account/last-owner', status: 409, details: { teams: [`@${slug}`] } });
    expect((refused as Error).message).toContain(`@${slug}`);
    expect((refused as Error).message).toMatch(/another member an owner.*delete the team/);
    // nothing was deleted, and the team still has its owner
    expect(await db.user.findUnique({ where: { id: owner.id } })).not.toBeNull();
    expect(await db.run.count({ where: { userId: owner.id } })).toBe(1);
    expect(await db.membership.count({ where: { teamId: team.id, role: 'owner' } })).toBe(1);

    // a plain member may leave by deleting their account
    await deleteAccount(db, member.id);
    // with a second owner, the first may go; the team keeps the other one
    const second = await db.user.create({ data: {} });
    await db.membership.create({ data: { teamId: team.id, userId: second.id, role: 'owner' } });
    await deleteAccount(db, owner.id);
    expect(await db.membership.findMany({ where: { teamId: team.id }, select: { userId: true, role: true } })).toEqual([{ userId: second.id, role: 'owner' }]);
    // now the second owner is the last one
    await expect(deleteAccount(db, second.id)).rejects.toMatchObject({ code: 'account/last-owner' });
  });

  it('two owners of one team deleting their accounts at once cannot leave it ownerless', async () => {
    const db = testDb();
    const [a, b] = await Promise.all([db.user.create({ data: {} }), db.user.create({ data: {} })]);
    const team = await db.team.create({
      data: {
        slug: `lo2-${unique()}`,
        name: 'x',
        memberships: {
          create: [
            { userId: a.id, role: 'owner' },
            { userId: b.id, role: 'owner' },
          ],
        },
      },
    });
    const results = await Promise.allSettled([deleteAccount(db, a.id), deleteAccount(db, b.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'account/last-owner' } });
    expect(await db.membership.count({ where: { teamId: team.id, role: 'owner' } })).toBe(1);
  });

  it('sign out everywhere ends every session of that user only', async () => {
    const db = testDb();
    const [a, b] = await Promise.all([db.user.create({ data: {} }), db.user.create({ data: {} })]);
    const expires = new Date(Date.now() + 86_400_000);
    await db.session.createMany({
      data: [
        { userId: a.id, sessionToken: `a1-${unique()}`, expires },
        { userId: a.id, sessionToken: `a2-${unique()}`, expires },
        { userId: b.id, sessionToken: `b1-${unique()}`, expires },
      ],
    });
    expect(await endAllSessions(db, a.id)).toBe(2);
    expect(await db.session.count({ where: { userId: b.id } })).toBe(1);
  });
});
