// Teams on the real Postgres: creation and scope uniqueness, roles and the last-owner
// rule, invitations (single use, expiry, revocation, addressed email), removal revoking
// access to private skills at once, sealed secrets, team tokens and the audit log.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { assertScopeOwner } from '../registry/assert-scope-owner';
import { authenticateApiToken, createApiToken } from '../auth/api-tokens';
import { canSeePrivate } from '../registry/get-skill';
import {
  acceptInvite,
  changeMemberRole,
  createInvite,
  createTeam,
  createTeamApiToken,
  deleteTeam,
  deleteTeamSecret,
  getWorkspace,
  listAudit,
  removeMember,
  renameTeam,
  revokeInvite,
  setTeamSecret,
} from '.';
import { userPrincipal } from '../principal';

const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.7' });
let seq = 0;
async function user(handle = `u${Date.now().toString(36)}${seq++}`, email?: string) {
  const db = testDb();
  const u = await db.user.create({ data: { handle, name: handle, email, emailVerified: email ? new Date() : null } });
  await db.scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}
const slug = () => `team-${Date.now().toString(36)}-${seq++}`;

let ann = '';
let bob = '';
let cat = '';

beforeAll(async () => {
  ann = await user();
  bob = await user();
  cat = await user();
});

describe('teams', () => {
  it('creates a team whose slug is unique against users and teams', async () => {
    const s = slug();
    const team = await createTeam(testDb(), as(ann), { slug: s, name: 'Acme' });
    expect(team).toMatchObject({ slug: s, name: 'Acme' });
    await expect(createTeam(testDb(), as(bob), { slug: s })).rejects.toMatchObject({ code: 'team/slug-taken', status: 409 });
    const handle = (await testDb().user.findUniqueOrThrow({ where: { id: bob } })).handle;
    await expect(createTeam(testDb(), as(ann), { slug: handle })).rejects.toMatchObject({ code: 'team/slug-taken' });
    await expect(createTeam(testDb(), as(ann), { slug: 'Bad--Name' })).rejects.toMatchObject({ code: 'team/invalid-slug', status: 400 });
    await expect(createTeam(testDb(), as(ann), { slug: 'skillyard' })).rejects.toMatchObject({ code: 'team/slug-taken' });
    await expect(createTeam(testDb(), { principal: { kind: 'anonymous' } }, { slug: slug() })).rejects.toMatchObject({ status: 401 });
  });

  it('keeps at least one owner', async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    await expect(removeMember(testDb(), as(ann), s, ann)).rejects.toMatchObject({ code: 'team/last-owner', status: 409 });
    await expect(changeMemberRole(testDb(), as(ann), s, ann, 'admin')).rejects.toMatchObject({ code: 'team/last-owner' });
    const inv = await createInvite(testDb(), as(ann), s, { role: 'owner' });
    await acceptInvite(testDb(), as(bob), inv.secret);
    await changeMemberRole(testDb(), as(ann), s, ann, 'member'); // now bob is the one owner
    await expect(removeMember(testDb(), as(bob), s, bob)).rejects.toMatchObject({ code: 'team/last-owner' });
    await expect(deleteTeam(testDb(), as(ann), s)).rejects.toMatchObject({ code: 'team/forbidden', status: 403 });
  });

  it('uses an invitation once, refuses it expired or revoked, and keeps it to its addressee', async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    const inv = await createInvite(testDb(), as(ann), s, { role: 'publisher' });
    expect(await acceptInvite(testDb(), as(bob), inv.secret)).toEqual({ slug: s, role: 'publisher' });
    await expect(acceptInvite(testDb(), as(cat), inv.secret)).rejects.toMatchObject({ code: 'invite/used', status: 410 });

    const expired = await createInvite(testDb(), as(ann), s, { ttlMs: -1000 });
    await expect(acceptInvite(testDb(), as(cat), expired.secret)).rejects.toMatchObject({ code: 'invite/expired', status: 410 });
    const revoked = await createInvite(testDb(), as(ann), s, {});
    await revokeInvite(testDb(), as(ann), s, revoked.id);
    await expect(acceptInvite(testDb(), as(cat), revoked.secret)).rejects.toMatchObject({ code: 'invite/revoked' });
    await expect(acceptInvite(testDb(), as(cat), 'syi_not-a-real-invitation-secret')).rejects.toMatchObject({ code: 'invite/not-found', status: 404 });

    const dora = await user(undefined, `dora${seq}@example.com`);
    const addressed = await createInvite(testDb(), as(ann), s, { email: `dora${seq - 1}@example.com` });
    await expect(acceptInvite(testDb(), as(cat), addressed.secret)).rejects.toMatchObject({ code: 'invite/wrong-account', status: 403 });
    expect((await acceptInvite(testDb(), as(dora), addressed.secret)).role).toBe('member');

    // a publisher may not invite; a member may not see the pending invitations
    await expect(createInvite(testDb(), as(bob), s, {})).rejects.toMatchObject({ code: 'team/forbidden' });
    expect((await getWorkspace(testDb(), as(dora), s)).invites).toEqual([]);
  });

  it('lets publishers publish into the team scope and members only see, and removal ends access at once', async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    await acceptInvite(testDb(), as(bob), (await createInvite(testDb(), as(ann), s, { role: 'member' })).secret);
    await expect(assertScopeOwner(testDb(), s, bob)).rejects.toMatchObject({ code: 'publish/forbidden' });
    await changeMemberRole(testDb(), as(ann), s, bob, 'publisher');
    await expect(assertScopeOwner(testDb(), s, bob)).resolves.toBeUndefined();
    await expect(assertScopeOwner(testDb(), s, cat)).rejects.toMatchObject({ code: 'publish/forbidden' });

    expect(await canSeePrivate(testDb(), s, { userId: bob })).toBe(true);
    expect(await canSeePrivate(testDb(), s, { userId: cat })).toBe(false);
    await removeMember(testDb(), as(ann), s, bob);
    expect(await canSeePrivate(testDb(), s, { userId: bob })).toBe(false);
    await expect(getWorkspace(testDb(), as(bob), s)).rejects.toMatchObject({ code: 'team/not-found', status: 404 });
  });

  it('keeps secrets sealed and write-only, and logs every change with who and where', async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    await setTeamSecret(testDb(), as(ann), s, 'API_KEY', 'sk-live-very-secret');
    await setTeamSecret(testDb(), as(ann), s, 'API_KEY', 'sk-live-rotated');
    const row = await testDb().teamSecret.findFirstOrThrow({ where: { team: { slug: s }, name: 'API_KEY' } });
    expect(row.value).not.toContain('sk-live');
    const ws = await getWorkspace(testDb(), as(ann), s);
    expect(ws.secrets.map((x) => x.name)).toEqual(['API_KEY']);
    expect(JSON.stringify(ws)).not.toContain('sk-live');
    await expect(setTeamSecret(testDb(), as(ann), s, 'lower', 'x')).rejects.toMatchObject({ code: 'input/invalid' });
    await deleteTeamSecret(testDb(), as(ann), s, 'API_KEY');
    await expect(deleteTeamSecret(testDb(), as(ann), s, 'API_KEY')).rejects.toMatchObject({ status: 404 });

    const token = await createTeamApiToken(testDb(), as(ann), s, { name: 'ci', scopes: ['publish'] });
    expect(token.token).toMatch(/^sy_/);
    await renameTeam(testDb(), as(ann), s, 'Renamed');
    const log = await listAudit(testDb(), as(ann), s);
    expect(log.map((e) => e.action)).toEqual(['team.rename', 'token.create', 'secret.delete', 'secret.set', 'secret.set', 'team.create']);
    expect(log.every((e) => e.actorUserId === ann && e.ip === '203.0.113.7')).toBe(true);
    expect(JSON.stringify(log)).not.toContain('sk-live');
    await expect(listAudit(testDb(), as(cat), s)).rejects.toMatchObject({ status: 404 });
  });

  it("gives a team token the team's reach and none of its creator's", async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    const { token } = await createTeamApiToken(testDb(), as(ann), s, { name: 'ci', scopes: ['publish', 'invoke'] });
    const principal = await authenticateApiToken(testDb(), `Bearer ${token}`);
    expect(principal).toMatchObject({ scopes: ['publish', 'invoke'] });
    expect(principal!.userId).not.toBe(ann);
    const viewer = { userId: principal!.userId };
    expect(await canSeePrivate(testDb(), s, viewer)).toBe(true);
    await expect(assertScopeOwner(testDb(), s, viewer.userId)).resolves.toBeUndefined();
    const annHandle = (await testDb().user.findUniqueOrThrow({ where: { id: ann } })).handle!;
    expect(await canSeePrivate(testDb(), annHandle, viewer)).toBe(false);
    await expect(assertScopeOwner(testDb(), annHandle, viewer.userId)).rejects.toMatchObject({ code: 'publish/forbidden' });
    // the service account is nobody's teammate on the page and cannot manage the team
    expect((await getWorkspace(testDb(), as(ann), s)).members.map((m) => m.user.id)).toEqual([ann]);
    await expect(createInvite(testDb(), as(viewer.userId), s, {})).rejects.toMatchObject({ code: 'auth/forbidden' });
  });

  it('never lets a team token manage teams: no `teams` scope at creation, and its service account is refused everywhere', async () => {
    const s = slug();
    await createTeam(testDb(), as(ann), { slug: s });
    await expect(createTeamApiToken(testDb(), as(ann), s, { name: 'ci', scopes: ['publish', 'teams'] })).rejects.toMatchObject({
      code: 'input/invalid',
      message: expect.stringContaining('"teams"'),
    });
    expect(await testDb().apiToken.count({ where: { team: { slug: s } } })).toBe(0);
    // the lowest layer refuses it too, whoever calls it
    const teamId = (await testDb().team.findUniqueOrThrow({ where: { slug: s } })).id;
    await expect(createApiToken(testDb(), { userId: ann, teamId, name: 'x', scopes: ['teams'] })).rejects.toMatchObject({ code: 'input/invalid' });

    // a token made before the refusal (the scope written straight into its row)
    const { id, token } = await createTeamApiToken(testDb(), as(ann), s, { name: 'old', scopes: ['publish'] });
    await testDb().apiToken.update({ where: { id }, data: { scopes: ['publish', 'teams'] } });
    const principal = (await authenticateApiToken(testDb(), `Bearer ${token}`))!;
    expect(principal.teamId).toBe(teamId);
    const bot = as(principal.userId);
    const invite = await createInvite(testDb(), as(ann), s, { role: 'admin' });
    const refused = { code: 'auth/forbidden', status: 403 };
    await expect(getWorkspace(testDb(), bot, s)).rejects.toMatchObject(refused);
    await expect(createInvite(testDb(), bot, s, { role: 'owner' })).rejects.toMatchObject(refused);
    await expect(setTeamSecret(testDb(), bot, s, 'API_KEY', 'sk-bot')).rejects.toMatchObject(refused);
    await expect(createTeam(testDb(), bot, { slug: slug() })).rejects.toMatchObject(refused);
    await expect(acceptInvite(testDb(), bot, invite.secret)).rejects.toMatchObject(refused);
    // the invitation is still unused, and the service account is still a publisher only
    expect((await testDb().teamInvite.findUniqueOrThrow({ where: { id: invite.id } })).acceptedAt).toBeNull();
    expect((await testDb().membership.findMany({ where: { userId: principal.userId } })).map((m) => m.role)).toEqual(['publisher']);
  });

  it('deletes a team only while it has no public skills', async () => {
    const s = slug();
    const team = await createTeam(testDb(), as(ann), { slug: s });
    await testDb().skill.create({ data: { scopeName: s, name: 'public-thing', description: 'x', format: 'skill-md', visibility: 'public' } });
    await expect(deleteTeam(testDb(), as(ann), s)).rejects.toMatchObject({ code: 'team/has-published-skills', status: 409 });
    await testDb().skill.updateMany({ where: { scopeName: s }, data: { visibility: 'private' } });
    await deleteTeam(testDb(), as(ann), s);
    expect(await testDb().team.findUnique({ where: { id: team.id } })).toBeNull();
    expect(await testDb().scope.findUnique({ where: { name: s } })).toBeNull();
  });

  it("purges what the team's skills stored and minted, so whoever takes the name next gets none of it", async () => {
    const s = slug();
    await createTeam(testDb(), as(cat), { slug: s });
    await testDb().skill.create({ data: { scopeName: s, name: 'vault', description: 'x', format: 'skill-md', visibility: 'private' } });
    const kv = (callerId: string, skill = `@${s}/vault`) => ({ skill, callerId, namespace: 'ns', key: 'k', value: { secret: 'carol-data' } });
    await testDb().kvEntry.createMany({ data: [kv(`user:${cat}`), kv(`user:${ann}`), kv(`user:${cat}`, `@${s}-other/vault`)] });
    await testDb().heldToken.create({ data: { userId: ann, issuer: `@${s}/vault`, claims: ['read'], secret: 'sealed', mintedByTool: `@${s}/vault/mint` } });
    await testDb().heldToken.create({ data: { userId: ann, issuer: `@${s}-other/vault`, claims: ['read'], secret: 'sealed' } });

    await deleteTeam(testDb(), as(cat), s);
    await createTeam(testDb(), as(bob), { slug: s });

    expect(await testDb().kvEntry.count({ where: { skill: `@${s}/vault` } })).toBe(0);
    expect(await testDb().heldToken.count({ where: { issuer: { startsWith: `@${s}/` } } })).toBe(0);
    // a scope whose name merely starts the same keeps its own
    expect(await testDb().kvEntry.count({ where: { skill: `@${s}-other/vault` } })).toBe(1);
    expect(await testDb().heldToken.count({ where: { issuer: `@${s}-other/vault` } })).toBe(1);
  });
});
