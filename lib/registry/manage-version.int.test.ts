// The skill page's version controls on the real database: who may use them (the scope's
// user, a team's publishers and up), and that a refused or malformed request changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';
import { manageVersion } from './manage-version';
import { mayManageSkill } from './may-manage-skill';
import { userPrincipal } from '../principal';

const enc = new TextEncoder();
const stamp = Date.now().toString(36);
const owner = `mv-owner-${stamp}`;
const team = `mv-team-${stamp}`;
const ids = { owner: '', stranger: '', member: '', publisher: '' };

async function user(handle: string) {
  const db = testDb();
  const u = await db.user.create({ data: { handle, name: handle } });
  await db.scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}

async function publish(scope: string, name: string, version: string, by: string) {
  const pkg = readUpload({
    kind: 'files',
    files: [{ path: `${name}/SKILL.md`, content: enc.encode(`---\nname: ${name}\ndescription: A skill called ${name}.\n---\n\nHello.\n`) }],
  });
  await publishVersion(testDb(), { scope, manifest: pkg.manifest!, files: pkg.files, version, publishedById: by });
}

const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.9' });
const row = (scope: string, name: string, version: string) =>
  testDb().skillVersion.findFirstOrThrow({ where: { version, skill: { scopeName: scope, name } }, select: { yankedAt: true, yankReason: true, deprecated: true } });

beforeAll(async () => {
  ids.owner = await user(owner);
  ids.stranger = await user(`mv-stranger-${stamp}`);
  ids.member = await user(`mv-member-${stamp}`);
  ids.publisher = await user(`mv-publisher-${stamp}`);
  const t = await testDb().team.create({
    data: {
      slug: team,
      name: 'MV',
      memberships: {
        create: [
          { userId: ids.owner, role: 'owner' },
          { userId: ids.member, role: 'member' },
          { userId: ids.publisher, role: 'publisher' },
        ],
      },
    },
  });
  await testDb().scope.create({ data: { name: team, kind: 'team', teamId: t.id } });
  await publish(owner, 'mine', '1.0.0', ids.owner);
  await publish(owner, 'mine', '1.1.0', ids.owner);
  await publish(team, 'shared', '1.0.0', ids.owner);
});

describe('manageVersion', () => {
  it('lets the scope owner yank with a reason, unyank, deprecate, undeprecate, tag and untag', async () => {
    const db = testDb();
    const me = as(ids.owner);
    expect(await manageVersion(db, me, { op: 'yank', scope: owner, name: 'mine', version: '1.0.0', reason: 'breaks on empty input' })).toMatch(/yanked/);
    expect(await row(owner, 'mine', '1.0.0')).toMatchObject({ yankReason: 'breaks on empty input', yankedAt: expect.any(Date) });
    await manageVersion(db, me, { op: 'unyank', scope: owner, name: 'mine', version: '1.0.0' });
    expect(await row(owner, 'mine', '1.0.0')).toMatchObject({ yankedAt: null, yankReason: null });
    await manageVersion(db, me, { op: 'deprecate', scope: owner, name: 'mine', version: '1.0.0', message: 'use 1.1.0' });
    expect((await row(owner, 'mine', '1.0.0')).deprecated).toBe('use 1.1.0');
    // an exact version deprecates that version only
    expect((await row(owner, 'mine', '1.1.0')).deprecated).toBeNull();
    await manageVersion(db, me, { op: 'undeprecate', scope: owner, name: 'mine', version: '1.0.0' });
    expect((await row(owner, 'mine', '1.0.0')).deprecated).toBeNull();
    await manageVersion(db, me, { op: 'tag', scope: owner, name: 'mine', version: '1.0.0', tag: 'stable' });
    const tags = async () => (await db.distTag.findMany({ where: { skill: { scopeName: owner, name: 'mine' } }, select: { tag: true } })).map((t) => t.tag).sort();
    expect(await tags()).toEqual(['latest', 'stable']);
    await manageVersion(db, me, { op: 'untag', scope: owner, name: 'mine', tag: 'stable' });
    expect(await tags()).toEqual(['latest']);
  });

  it('refuses a signed-in stranger, and a yank changes nothing', async () => {
    await expect(manageVersion(testDb(), as(ids.stranger), { op: 'yank', scope: owner, name: 'mine', version: '1.1.0', reason: 'mine now' })).rejects.toMatchObject({
      code: 'publish/forbidden',
    });
    await expect(manageVersion(testDb(), as(ids.stranger), { op: 'tag', scope: owner, name: 'mine', version: '1.1.0', tag: 'evil' })).rejects.toMatchObject({
      code: 'publish/forbidden',
    });
    await expect(manageVersion(testDb(), as(ids.stranger), { op: 'deprecate', scope: owner, name: 'mine', version: '1.1.0', message: 'x' })).rejects.toMatchObject({
      code: 'publish/forbidden',
    });
    expect(await row(owner, 'mine', '1.1.0')).toMatchObject({ yankedAt: null, deprecated: null });
    expect(await mayManageSkill(testDb(), owner, ids.stranger)).toBe(false);
    expect(await mayManageSkill(testDb(), owner, null)).toBe(false);
    expect(await mayManageSkill(testDb(), owner, ids.owner)).toBe(true);
  });

  it('in a team scope: a member is refused, a publisher may yank, and the audit log records it', async () => {
    await expect(manageVersion(testDb(), as(ids.member), { op: 'yank', scope: team, name: 'shared', version: '1.0.0' })).rejects.toMatchObject({ code: 'publish/forbidden' });
    expect((await row(team, 'shared', '1.0.0')).yankedAt).toBeNull();
    expect(await mayManageSkill(testDb(), team, ids.member)).toBe(false);
    expect(await mayManageSkill(testDb(), team, ids.publisher)).toBe(true);
    await manageVersion(testDb(), as(ids.publisher), { op: 'yank', scope: team, name: 'shared', version: '1.0.0', reason: 'leaks a key' });
    expect((await row(team, 'shared', '1.0.0')).yankReason).toBe('leaks a key');
    const audit = await testDb().auditEvent.findFirst({ where: { team: { slug: team }, action: 'skill.yank' } });
    expect(audit).toMatchObject({ target: `@${team}/shared@1.0.0` });
  });

  it('answers bad input with a clear error and changes nothing', async () => {
    await expect(manageVersion(testDb(), as(ids.owner), { op: 'explode', scope: owner, name: 'mine', version: '1.1.0' })).rejects.toMatchObject({ code: 'input/invalid' });
    await expect(manageVersion(testDb(), as(ids.owner), { op: 'deprecate', scope: owner, name: 'mine', version: '1.1.0', message: '   ' })).rejects.toMatchObject({
      code: 'input/invalid',
      message: /Say why/,
    });
    await expect(manageVersion(testDb(), as(ids.owner), { op: 'tag', scope: owner, name: 'mine', version: '1.1.0', tag: '1.0.0' })).rejects.toMatchObject({
      code: 'input/invalid-tag',
    });
    await expect(manageVersion(testDb(), as(ids.owner), { op: 'yank', scope: owner, name: 'mine', version: '9.9.9' })).rejects.toMatchObject({ code: 'skill/version-not-found' });
    expect(await row(owner, 'mine', '1.1.0')).toMatchObject({ yankedAt: null, deprecated: null });
  });
});
