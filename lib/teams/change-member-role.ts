// Changes a member's role. Admins manage members below owner; only owners make or unmake
// owners; the last owner cannot step down (a team always has one).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { isTeamRole, type TeamRole } from '../authz';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';
import { assertNotLastOwner } from './last-owner';

export async function changeMemberRole(db: Db, actor: Actor, slug: string, memberUserId: string, role: unknown): Promise<void> {
  if (!isTeamRole(role)) throw new AppError('input/invalid', 'role is one of owner, admin, publisher, member.');
  const team = await teamForActor(db, slug, actor, 'admin');
  await db.$transaction(async (tx) => {
    const m = await tx.membership.findUnique({ where: { teamId_userId: { teamId: team.id, userId: memberUserId } } });
    if (!m) throw new AppError('team/member-not-found', 'That person is not a member of this team.');
    const from = m.role as TeamRole;
    if ((from === 'owner' || role === 'owner') && team.role !== 'owner') throw new AppError('team/forbidden', 'Only an owner can make or unmake owners.');
    if (from === role) return;
    if (from === 'owner') await assertNotLastOwner(tx, team.id, slug);
    await tx.membership.update({ where: { teamId_userId: { teamId: team.id, userId: memberUserId } }, data: { role } });
    await recordAudit(tx, team.id, actor, 'member.role', memberUserId, { from, to: role });
  });
}
