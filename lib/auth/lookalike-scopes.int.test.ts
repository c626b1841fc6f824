// A username or team slug that reads like an existing scope is refused, whichever of the
// two the existing scope is; the SQL skeleton in find-lookalike-scope.ts matches
// scope-names.ts's.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { createTeam } from '../teams';
import { findLookalikeScope } from './find-lookalike-scope';
import { scopeSkeleton } from './scope-names';
import { chooseUsername } from './usernames';
import { userPrincipal } from '../principal';

// letters only (no look-alike characters of their own), unique per run
const tag = Array.from(Date.now().toString(26), (d) => 'abcdefghjkpqstuxyz'[parseInt(d, 26) % 18]).join('');
let seq = 0;
const newcomer = async () => (await testDb().user.create({ data: { name: `n${seq++}` } })).id;

describe('look-alike scopes', () => {
  it('refuses a username that reads like an existing user or team, and a team that reads like a user', async () => {
    const db = testDb();
    const ann = await newcomer();
    const name = `modello-${tag}`;
    expect(await chooseUsername(db, ann, name)).toBe(name);
    for (const twin of [`rnodello-${tag}`, `mode11o-${tag}`, `modell0-${tag}`, `modello${tag}`, `MODELLO-${tag}`.toLowerCase().replace('o', '0')]) {
      await expect(chooseUsername(db, await newcomer(), twin), twin).rejects.toMatchObject({ code: 'account/username-exists', message: expect.stringContaining(`@${name}`) });
      await expect(createTeam(db, { principal: userPrincipal(ann), ip: '203.0.113.5' }, { slug: twin }), twin).rejects.toMatchObject({ code: 'team/slug-taken' });
    }
    const team = `vvorks-${tag}`;
    await createTeam(db, { principal: userPrincipal(ann), ip: '203.0.113.5' }, { slug: team });
    await expect(chooseUsername(db, await newcomer(), `works${tag}`)).rejects.toMatchObject({ code: 'account/username-exists', message: expect.stringContaining(`@${team}`) });
    // a name that merely shares letters is fine
    expect(await chooseUsername(db, await newcomer(), `modellos-${tag}`)).toBe(`modellos-${tag}`);
    expect(await db.scope.count({ where: { name: { in: [`rnodello-${tag}`, `works${tag}`] } } })).toBe(0);
  });

  it('computes the same skeleton in SQL as in TypeScript', async () => {
    const db = testDb();
    const names = [`x0-1i_l.rn-vv-${tag}`, `Q-MIX-${tag}`, `zz-arrnvvv-${tag}`];
    for (const name of names) await db.scope.create({ data: { name, kind: 'team' } });
    for (const name of names) {
      const probe = `${scopeSkeleton(name)}`;
      expect(scopeSkeleton(probe)).toBe(scopeSkeleton(name));
      expect(await db.$transaction((tx) => findLookalikeScope(tx, probe))).toBe(name);
    }
  });
});
