// Accepts an invitation while signed in: once, before it expires, unless revoked. An
// invitation addressed to an email is for the account with that (verified) email only.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { TeamRole } from '../authz';
import { actingPerson, type Actor } from './actor';
import { hashInvite } from './create-invite';
import { announceMembersTokens } from './announce-team-tokens';
import { recordAudit } from './record-audit';

export async function acceptInvite(db: Db, actor: Actor, secret: unknown): Promise<{ slug: string; role: TeamRole }> {
  const userId = await actingPerson(db, actor);
  if (typeof secret !== 'string' || !/^syi_[A-Za-z0-9_-]{20,64}$/.test(secret)) throw new AppError('invite/not-found', 'This invitation link is not valid.');
  const joined = await db.$transaction(async (tx) => {
    const invite = await tx.teamInvite.findUnique({ where: { hash: hashInvite(secret) }, include: { team: { select: { slug: true } } } });
    if (!invite) throw new AppError('invite/not-found', 'This invitation link is not valid.');
    if (invite.revokedAt) throw new AppError('invite/revoked', 'This invitation was withdrawn; ask for a new one.');
    if (invite.acceptedAt) throw new AppError('invite/used', 'This invitation was already used; ask for a new one.');
    if (invite.expiresAt <= new Date()) throw new AppError('invite/expired', 'This invitation has expired; ask for a new one.');
    if (invite.email) {
      const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true } });
      if (user?.email?.toLowerCase() !== invite.email || !user.emailVerified) {
        throw new AppError('invite/wrong-account', `This invitation is for ${invite.email}; sign in with that (verified) email to accept it.`);
      }
    }
    // single use even when two tabs accept at once: only one update matches
    const claimed = await tx.teamInvite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: new Date(), acceptedBy: userId } });
    if (claimed.count !== 1) throw new AppError('invite/used', 'This invitation was already used; ask for a new one.');
    const existing = await tx.membership.findUnique({ where: { teamId_userId: { teamId: invite.teamId, userId } } });
    if (existing) return { slug: invite.team.slug, role: existing.role as TeamRole };
    await tx.membership.create({ data: { teamId: invite.teamId, userId, role: invite.role } });
    await recordAudit(tx, invite.teamId, actor, 'member.join', userId, { role: invite.role, inviteId: invite.id });
    return { slug: invite.team.slug, role: invite.role as TeamRole };
  });
  // the team's connections are the new member's to use now
  announceMembersTokens([userId]);
  return joined;
}
