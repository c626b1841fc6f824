// A publish (or its dry run) into a scope that is not the caller's answers alike whether the
// scope is unknown, another user's, or a team the caller is not in: the answer must not
// tell an outsider that a team exists. A member without the publisher role is told which
// role they lack.
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { acceptInvite, createInvite, createTeam } from '../teams';
import { previewPackage } from './preview-package';
import { userPrincipal } from '../principal';

const SKILL = new TextEncoder().encode('---\nname: probe\ndescription: Probes a scope.\nversion: 1.0.0\n---\nHello.\n');
let seq = 0;
const stamp = Date.now().toString(36);
async function user() {
  const handle = `pa${stamp}${seq++}`;
  const u = await testDb().user.create({ data: { handle, name: handle } });
  await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}
const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.9' });

let owner = '';
let outsider = '';
let member = '';
const team = `secret-team-${stamp}`;

beforeAll(async () => {
  [owner, outsider, member] = [await user(), await user(), await user()];
  await createTeam(testDb(), as(owner), { slug: team });
  await acceptInvite(testDb(), as(member), (await createInvite(testDb(), as(owner), team, { role: 'member' })).secret);
});

async function answer(userId: string, scope: string) {
  try {
    await previewPackage(testDb(), { upload: { kind: 'bytes', bytes: SKILL, fileName: 'probe.skill.md' }, userId, scope });
  } catch (err) {
    const e = err as { code: string; status: number; message: string };
    return { code: e.code, status: e.status, message: e.message.replaceAll(`@${scope}`, '@SCOPE') };
  }
  return 'accepted';
}

describe('a publish into a scope that is not yours', () => {
  it('answers an outsider alike for a team, an unknown scope and another user', async () => {
    const unknown = await answer(outsider, `no-such-team-${stamp}`);
    expect(unknown).toMatchObject({ code: 'publish/forbidden', status: 403 });
    expect(await answer(outsider, team)).toEqual(unknown);
    const someone = (await testDb().user.findUniqueOrThrow({ where: { id: owner }, select: { handle: true } })).handle!;
    expect(await answer(outsider, someone)).toEqual(unknown);
  });

  it('tells a member which role they lack, and lets the owner in', async () => {
    expect(await answer(member, team)).toMatchObject({ code: 'publish/forbidden', message: expect.stringContaining('publisher role') });
    expect(await answer(owner, team)).toBe('accepted');
  });
});
