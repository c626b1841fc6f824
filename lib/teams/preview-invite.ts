// What an invitation link offers, read before "Accept": the team, the role, who invited,
// until when; a used, withdrawn, expired or bogus code fails here with the same messages
// acceptInvite gives, so the join page never shows an Accept button that cannot work.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { TeamRole } from '../authz';
import { hashInvite } from './create-invite';

export type InvitePreview = {
  team: { slug: string; name: string };
  role: TeamRole;
  invitedBy: string | null;
  expiresAt: Date;
  /** set when the invitation is addressed to an email other than the viewer's (verified) one */
  wrongAccount: string | null;
  /** the viewer is in the team already */
  alreadyMember: boolean;
};

export async function previewInvite(db: Db, userId: string, secret: unknown): Promise<InvitePreview> {
  if (typeof secret !== 'string' || !/^syi_[A-Za-z0-9_-]{20,64}$/.test(secret)) throw new AppError('invite/not-found', 'This invitation link is not valid.');
  const invite = await db.teamInvite.findUnique({ where: { hash: hashInvite(secret) }, include: { team: { select: { id: true, slug: true, name: true } } } });
  if (!invite) throw new AppError('invite/not-found', 'This invitation link is not valid.');
  if (invite.revokedAt) throw new AppError('invite/revoked', 'This invitation was withdrawn; ask for a new one.');
  if (invite.acceptedAt) throw new AppError('invite/used', 'This invitation was already used; ask for a new one.');
  if (invite.expiresAt <= new Date()) throw new AppError('invite/expired', 'This invitation has expired; ask for a new one.');
  const [inviter, viewer, member] = await Promise.all([
    db.user.findUnique({ where: { id: invite.createdById }, select: { handle: true, name: true } }),
    db.user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true } }),
    db.membership.findUnique({ where: { teamId_userId: { teamId: invite.team.id, userId } }, select: { role: true } }),
  ]);
  const mismatch = invite.email && (viewer?.email?.toLowerCase() !== invite.email || !viewer?.emailVerified);
  return {
    team: { slug: invite.team.slug, name: invite.team.name },
    role: invite.role as TeamRole,
    invitedBy: inviter?.handle ? `@${inviter.handle}` : (inviter?.name ?? null),
    expiresAt: invite.expiresAt,
    wrongAccount: mismatch ? `This invitation is for ${invite.email}; sign in with that (verified) email to accept it.` : null,
    alreadyMember: !!member,
  };
}
