// Which team a new run belongs to, and whether it must stay private. A run a member starts
// of their team's skills is a team run (`Run.teamId`): it shows on the team's workspace and
// every member sees it. A run that uses a private skill its creator may see is private
// whatever visibility was asked for: its trace shows the skill's tools and results, so a
// share link must not reach outsiders. Skills the creator may not see count for nothing
// here (the run then fails like one of a missing skill), so the answer reveals nothing.
import 'server-only';
import type { Db } from '../db/client';
import { parseSkillRef } from '../registry/load-skill-version';

export type RunTeam = { teamId: string | null; hasPrivate: boolean };

export async function runTeamFor(db: Pick<Db, 'skill' | 'membership'>, skillRefs: string[], userId: string | null): Promise<RunTeam> {
  if (!userId || skillRefs.length === 0) return { teamId: null, hasPrivate: false };
  const refs = skillRefs.map(parseSkillRef);
  const rows = await db.skill.findMany({
    where: { OR: refs.map((r) => ({ scopeName: r.scope, name: r.name })) },
    select: { scopeName: true, name: true, visibility: true, scope: { select: { userId: true, teamId: true } } },
  });
  const teamIds = [...new Set(rows.map((r) => r.scope.teamId).filter((id): id is string => id !== null))];
  const mine = teamIds.length
    ? new Set((await db.membership.findMany({ where: { userId, teamId: { in: teamIds } }, select: { teamId: true } })).map((m) => m.teamId))
    : new Set<string>();
  let teamId: string | null = null;
  let hasPrivate = false;
  // in the order the run names its skills: the first team the creator belongs to owns the run
  for (const ref of refs) {
    const row = rows.find((r) => r.scopeName === ref.scope && r.name === ref.name);
    if (!row) continue;
    const member = row.scope.teamId !== null && mine.has(row.scope.teamId);
    if (member && teamId === null) teamId = row.scope.teamId;
    if (row.visibility === 'private' && (member || row.scope.userId === userId)) hasPrivate = true;
  }
  return { teamId, hasPrivate };
}

/** Whether `userId` may see a run that belongs to a team while private: its members only, now. */
export async function maySeeTeamRun(db: Pick<Db, 'membership'>, teamId: string, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (await db.membership.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } })) !== null;
}
