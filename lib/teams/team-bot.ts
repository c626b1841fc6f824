// A team's service account: the user its API tokens act as. It is a publisher of its own
// team and nothing else (no scope of its own, no other memberships), so every check that
// reads a user's standing gives a team token exactly the team's reach and never the reach
// of the admin who created it. It is never listed as a member and never an owner.
import 'server-only';
import type { Db } from '../db';

type Tx = Pick<Db, 'user' | 'membership'>;

export async function teamBotFor(tx: Tx, team: { id: string; slug: string }): Promise<string> {
  const existing = await tx.user.findUnique({ where: { botForTeamId: team.id }, select: { id: true } });
  if (existing) return existing.id;
  const bot = await tx.user.create({ data: { name: `@${team.slug} (team token)`, botForTeamId: team.id } });
  await tx.membership.create({ data: { teamId: team.id, userId: bot.id, role: 'publisher' } });
  return bot.id;
}
