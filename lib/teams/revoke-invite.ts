// Withdraws an invitation that has not been used yet.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

export async function revokeInvite(db: Db, actor: Actor, slug: string, inviteId: string): Promise<void> {
  const team = await teamForActor(db, slug, actor, 'admin');
  await db.$transaction(async (tx) => {
    const res = await tx.teamInvite.updateMany({ where: { id: inviteId, teamId: team.id, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
    if (res.count !== 1) throw new AppError('invite/not-found', 'No pending invitation with that id in this team.');
    await recordAudit(tx, team.id, actor, 'member.invite-revoke', inviteId);
  });
}
