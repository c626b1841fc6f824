// Which team a new run belongs to, and whether it must stay private. A run a member starts
// of their team's skills is a team run (`Run.teamId`): it shows on the team's workspace and
// every member sees it. A run that uses a private skill its creator may see is private
// whatever visibility was asked for: its trace shows the skill's tools and results, so a
// share link must not reach outsiders. A run is a team's only when every private skill in
// it is that team's: with private skills of two owners (two teams, or a team and the
// creator's own scope), no team's members may all see its trace, so it stays the
// creator's own. Skills the creator may not see count for nothing here (the run then
// fails like one of a missing skill), so the answer reveals nothing.
import 'server-only';
import type { Db } from '../db';
import { skillRefOf } from '../skills';
import { privateScopesOf } from '../authz';

export type RunTeam = { teamId: string | null; hasPrivate: boolean };

export async function runTeamFor(db: Pick<Db, 'skill' | 'membership'>, skillRefs: string[], userId: string | null): Promise<RunTeam> {
  if (!userId || skillRefs.length === 0) return { teamId: null, hasPrivate: false };
  // create-run refused a malformed ref (lib/registry's parseSkillRef) before asking
  const refs = skillRefs.flatMap((text) => skillRefOf(text) ?? []);
  const rows = await db.skill.findMany({
    where: { OR: refs.map((r) => ({ scopeName: r.scope, name: r.name })) },
    select: { scopeName: true, name: true, visibility: true, scope: { select: { userId: true, teamId: true } } },
  });
  const teamIds = [...new Set(rows.map((r) => r.scope.teamId).filter((id): id is string => id !== null))];
  const mine = teamIds.length
    ? new Set((await db.membership.findMany({ where: { userId, teamId: { in: teamIds } }, select: { teamId: true } })).map((m) => m.teamId))
    : new Set<string>();
  let firstTeam: string | null = null;
  // who owns the private skills the creator may see: `team:<id>` or `user:<id>`
  const privateOwners = new Set<string>();
  // in the order the run names its skills: the first team the creator belongs to owns the run
  for (const ref of refs) {
    const row = rows.find((r) => r.scopeName === ref.scope && r.name === ref.name);
    if (!row) continue;
    const member = row.scope.teamId !== null && mine.has(row.scope.teamId);
    if (member && firstTeam === null) firstTeam = row.scope.teamId;
    if (row.visibility === 'private' && (member || row.scope.userId === userId)) {
      privateOwners.add(row.scope.teamId !== null ? `team:${row.scope.teamId}` : `user:${row.scope.userId}`);
    }
  }
  const hasPrivate = privateOwners.size > 0;
  if (!hasPrivate) return { teamId: firstTeam, hasPrivate };
  const [owner] = [...privateOwners];
  // one team owns every private skill: the run is that team's; anything else: the creator's own
  const teamId = privateOwners.size === 1 && owner.startsWith('team:') ? owner.slice('team:'.length) : null;
  return { teamId, hasPrivate };
}

/**
 * Whether `userId` may see every private skill that a run's configuration names (their own
 * scope's, or a team's they belong to). A private team run asks this on top of membership,
 * so a run tagged with a team can never show a member another owner's private skill.
 */
export async function maySeeRunSkills(db: Db, skillRefs: unknown, userId: string | null): Promise<boolean> {
  const refs = (Array.isArray(skillRefs) ? skillRefs : []).flatMap((s) => skillRefOf(String(s)) ?? []);
  if (refs.length === 0) return true;
  const privateRows = await db.skill.findMany({
    where: { visibility: 'private', OR: refs.map((r) => ({ scopeName: r.scope, name: r.name })) },
    select: { scopeName: true },
  });
  if (privateRows.length === 0) return true;
  if (!userId) return false;
  const visible = new Set(await privateScopesOf(db, userId));
  return privateRows.every((r) => visible.has(r.scopeName));
}

/** Whether `userId` may see a run that belongs to a team while private: its members only, now. */
export async function maySeeTeamRun(db: Pick<Db, 'membership'>, teamId: string, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (await db.membership.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } })) !== null;
}
