// The publish page's scope choice lists exactly the scopes the publish itself accepts.
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { publishScopesOf } from './publish-scopes';
import { previewPackage } from './preview-package';

const enc = new TextEncoder();
const upload = { kind: 'files' as const, files: [{ path: 'hello/SKILL.md', content: enc.encode('---\nname: hello\ndescription: Says hello.\n---\n\nHello.\n') }] };

describe('publishScopesOf', () => {
  it('offers the own scope and teams where the user publishes; the others are refused by the publish too', async () => {
    const db = testDb();
    const stamp = Date.now().toString(36);
    const me = await db.user.create({ data: { handle: `ps-${stamp}` } });
    await db.scope.create({ data: { name: me.handle!, kind: 'user', userId: me.id } });
    const mk = async (slug: string, role: 'owner' | 'publisher' | 'member') => {
      const t = await db.team.create({ data: { slug, name: slug.toUpperCase(), memberships: { create: { userId: me.id, role } } } });
      await db.scope.create({ data: { name: slug, kind: 'team', teamId: t.id } });
    };
    await mk(`ps-pub-${stamp}`, 'publisher');
    await mk(`ps-mem-${stamp}`, 'member');
    const scopes = await publishScopesOf(db, me.id, me.handle!);
    expect(scopes.map((s) => s.scope)).toEqual([me.handle, `ps-pub-${stamp}`]);
    expect(scopes[1].label).toContain('publisher');
    // the choice is checked again on the server: a member's team is refused
    await expect(previewPackage(db, { upload, userId: me.id, scope: `ps-mem-${stamp}` })).rejects.toMatchObject({ code: 'publish/forbidden' });
    expect((await previewPackage(db, { upload, userId: me.id, scope: `ps-pub-${stamp}` })).scope).toBe(`ps-pub-${stamp}`);
  });
});
