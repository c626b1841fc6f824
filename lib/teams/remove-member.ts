// Removes a member (admins; owners only by owners), or a member leaves. Access ends at
// once: membership is what every check reads, and the team's connections and tokens are
// the team's, never copied to the member.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Actor } from './actor';
import { assertNotLastOwner } from './last-owner';
import { announceMembersTokens } from './announce-team-tokens';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

export async function removeMember(db: Db, actor: Actor, slug: string, memberUserId: string): Promise<void> {
  const self = actor.principal.kind === 'user' && actor.principal.userId === memberUserId;
  const team = await teamForActor(db, slug, actor, self ? 'member' : 'admin');
  await db.$transaction(async (tx) => {
    const m = await tx.membership.findUnique({ where: { teamId_userId: { teamId: team.id, userId: memberUserId } } });
    if (!m) throw new AppError('team/member-not-found', 'That person is not a member of this team.');
    if (m.role === 'owner') {
      if (!self && team.role !== 'owner') throw new AppError('team/forbidden', 'Only an owner can remove an owner.');
      await assertNotLastOwner(tx, team.id, slug);
    }
    await tx.membership.delete({ where: { teamId_userId: { teamId: team.id, userId: memberUserId } } });
    // personal API tokens keep working for the person, but team tokens they made stay the team's
    await recordAudit(tx, team.id, actor, self ? 'member.leave' : 'member.remove', memberUserId, { role: m.role });
  });
  announceMembersTokens([memberUserId]);
}
