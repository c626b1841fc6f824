// Who sees a private skill: the user who owns the scope, and every member of the team that
// owns it; nobody else (and to them it does not exist).
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { canSeePrivate, getSkill } from './get-skill';

const unique = () => crypto.randomBytes(4).toString('hex');
let owner: string, member: string, outsider: string, teamScope: string, userScope: string;

beforeAll(async () => {
  const db = testDb();
  owner = (await db.user.create({ data: { name: 'owner' } })).id;
  member = (await db.user.create({ data: { name: 'member' } })).id;
  outsider = (await db.user.create({ data: { name: 'outsider' } })).id;
  const team = await db.team.create({ data: { slug: `team-${unique()}`, name: 'Team' } });
  await db.membership.create({ data: { teamId: team.id, userId: member, role: 'member' } });
  teamScope = `t${unique()}`;
  userScope = `u${unique()}`;
  await db.scope.create({ data: { name: teamScope, kind: 'team', teamId: team.id } });
  await db.scope.create({ data: { name: userScope, kind: 'user', userId: owner } });
  await db.skill.create({ data: { scopeName: teamScope, name: 'secret-tool', description: '', format: 'malv', visibility: 'private', tags: [] } });
});

describe('private access', () => {
  it("a team member sees the team's private skills; an outsider and an anonymous viewer do not", async () => {
    expect(await canSeePrivate(testDb(), teamScope, { userId: member })).toBe(true);
    expect(await canSeePrivate(testDb(), teamScope, { userId: outsider })).toBe(false);
    expect(await canSeePrivate(testDb(), teamScope, null)).toBe(false);
    // the owner of another (user) scope is no member of this team
    expect(await canSeePrivate(testDb(), teamScope, { userId: owner })).toBe(false);
  });

  it("a user scope's owner sees its private skills; a team member of another team does not", async () => {
    expect(await canSeePrivate(testDb(), userScope, { userId: owner })).toBe(true);
    expect(await canSeePrivate(testDb(), userScope, { userId: member })).toBe(false);
  });

  it('to an outsider, a private skill is indistinguishable from a missing one', async () => {
    await expect(getSkill(testDb(), { scope: teamScope, name: 'secret-tool' }, { userId: outsider })).rejects.toMatchObject({ code: 'skill/not-found' });
    await expect(getSkill(testDb(), { scope: teamScope, name: 'no-such-skill' }, { userId: outsider })).rejects.toMatchObject({ code: 'skill/not-found' });
  });
});
