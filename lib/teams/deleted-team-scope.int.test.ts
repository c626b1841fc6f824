// A deleted team's scope stays reserved once it published a version: nobody can create a
// team or take a username of that name and serve `@<team>/lib@^1` to its dependents. A
// team that never published frees its name.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { chooseUsername } from '../auth/usernames';
import { publishPackage } from '../registry/publish-package';
import { downloadVersion } from '../registry/download-version';
import { createTeam, deleteTeam } from '.';
import { userPrincipal } from '../principal';

const stamp = Date.now().toString(36);
let seq = 0;
async function person(withHandle = true) {
  const handle = withHandle ? `dt${stamp}${seq++}` : null;
  const u = await testDb().user.create({ data: { handle, name: `p${seq++}` } });
  if (handle) await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}
const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.8' });
const lib = new TextEncoder().encode('---\nname: lib\ndescription: A library others depend on.\nversion: 1.0.0\n---\nHello.\n');

describe('a deleted team', () => {
  it('keeps its scope reserved once it published, for other teams, usernames and its old owner', async () => {
    const db = testDb();
    const [owner, stranger] = [await person(), await person()];
    const slug = `acme-${stamp}`;
    await createTeam(db, as(owner), { slug });
    await publishPackage(db, { upload: { kind: 'bytes', bytes: lib, fileName: 'lib.skill.md' }, userId: owner, scope: slug, visibility: 'public' });
    // deleting takes private skills only (delete-team.ts): the owner hides it first
    await db.skill.updateMany({ where: { scopeName: slug }, data: { visibility: 'private' } });
    await deleteTeam(db, as(owner), slug);

    await expect(createTeam(db, as(stranger), { slug })).rejects.toMatchObject({ code: 'team/slug-taken' });
    await expect(chooseUsername(db, await person(false), slug)).rejects.toMatchObject({ code: 'account/username-exists' });
    await expect(publishPackage(db, { upload: { kind: 'bytes', bytes: lib, fileName: 'lib.skill.md' }, userId: stranger, scope: slug, version: '1.0.1' })).rejects.toMatchObject({
      code: 'publish/forbidden',
    });
    await expect(downloadVersion(db, { scope: slug, name: 'lib', spec: '^1' }, null)).rejects.toMatchObject({ status: 404 });
    expect(await db.team.count({ where: { slug } })).toBe(0);
    expect(await db.scope.findUnique({ where: { name: slug }, select: { kind: true, teamId: true, userId: true } })).toEqual({ kind: 'team', teamId: null, userId: null });
  });

  it('frees the name of a team that never published', async () => {
    const db = testDb();
    const [owner, other] = [await person(), await person()];
    const slug = `draft-${stamp}`;
    await createTeam(db, as(owner), { slug });
    await deleteTeam(db, as(owner), slug);
    await expect(createTeam(db, as(other), { slug })).resolves.toMatchObject({ slug });
  });
});
