// A team as its member sees it, with the member's role. To anyone who is not a member the
// workspace does not exist (404); a member without the needed role gets a 403 that says
// which role it takes.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { roleAtLeast, type TeamRole } from '../authz';
import { actingUser, refuseTeamServiceAccount, type Actor } from './actor';

export type TeamForActor = { id: string; slug: string; name: string; role: TeamRole; userId: string };

export async function teamForActor(db: Db, slug: string, actor: Actor, needs: TeamRole = 'member'): Promise<TeamForActor> {
  const userId = actingUser(actor);
  const team = await db.team.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, memberships: { where: { userId }, select: { role: true, user: { select: { botForTeamId: true } } } } },
  });
  // a team token's service account is a member of its team, but no person: it manages nothing
  refuseTeamServiceAccount(team?.memberships[0]?.user.botForTeamId);
  const role = team?.memberships[0]?.role as TeamRole | undefined;
  if (!team || !role) throw new AppError('team/not-found', `@${slug} was not found, or you are not one of its members.`);
  if (!roleAtLeast(role, needs)) throw new AppError('team/forbidden', `This takes the ${needs} role in @${slug}; you are a ${role}.`);
  return { id: team.id, slug: team.slug, name: team.name, role, userId };
}
