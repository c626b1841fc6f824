// The join page's preview of an invitation: what it offers, and every way it can fail
// before "Accept" (bogus, used, withdrawn, expired, addressed to someone else).
import { describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { acceptInvite } from './accept-invite';
import { createInvite } from './create-invite';
import { previewInvite } from './preview-invite';
import { revokeInvite } from './revoke-invite';
import { userPrincipal } from '../principal';

describe('previewInvite', () => {
  it('names the team, role and inviter, and fails before Accept for used, withdrawn, expired and bogus codes', async () => {
    const db = testDb();
    const stamp = Date.now().toString(36);
    const owner = await db.user.create({ data: { handle: `pi-owner-${stamp}`, name: 'Olga' } });
    const joiner = await db.user.create({ data: { handle: `pi-joiner-${stamp}` } });
    const slug = `pi-team-${stamp}`;
    await db.team.create({ data: { slug, name: 'Pi Team', memberships: { create: { userId: owner.id, role: 'owner' } } } });
    const as = { principal: userPrincipal(owner.id) };

    const inv = await createInvite(db, as, slug, { role: 'publisher' });
    expect(await previewInvite(db, joiner.id, inv.secret)).toMatchObject({
      team: { slug, name: 'Pi Team' },
      role: 'publisher',
      invitedBy: `@pi-owner-${stamp}`,
      wrongAccount: null,
      alreadyMember: false,
    });
    await acceptInvite(db, { principal: userPrincipal(joiner.id) }, inv.secret);
    await expect(previewInvite(db, joiner.id, inv.secret)).rejects.toMatchObject({ code: 'invite/used', message: expect.stringContaining('already used') });

    await expect(previewInvite(db, joiner.id, 'syi_thisisnotarealcode12345')).rejects.toMatchObject({ code: 'invite/not-found' });
    await expect(previewInvite(db, joiner.id, '<script>')).rejects.toMatchObject({ code: 'invite/not-found' });

    const expired = await createInvite(db, as, slug, { ttlMs: -1000 });
    await expect(previewInvite(db, joiner.id, expired.secret)).rejects.toMatchObject({ code: 'invite/expired' });

    const withdrawn = await createInvite(db, as, slug, {});
    await revokeInvite(db, as, slug, withdrawn.id);
    await expect(previewInvite(db, joiner.id, withdrawn.secret)).rejects.toMatchObject({ code: 'invite/revoked' });

    const addressed = await createInvite(db, as, slug, { email: 'someone@example.com' });
    expect((await previewInvite(db, joiner.id, addressed.secret)).wrongAccount).toContain('someone@example.com');
    // a preview changes nothing: the addressed invitation is still open
    expect(await db.teamInvite.findUnique({ where: { id: addressed.id }, select: { acceptedAt: true } })).toEqual({ acceptedAt: null });
  });
});
