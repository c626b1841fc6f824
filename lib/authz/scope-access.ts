// What a principal may do in a scope (`@user` or `@team`): the one answer that pages,
// routes, search and the runtime share. A user in their own scope may do everything; in
// a team scope their role decides; a team API token acts as a publisher of its own team.
import 'server-only';
import type { Db } from '../db';
import type { Principal } from '../principal';
import { roleAtLeast, type TeamRole } from './team-roles';

export type ScopeAccess = { scope: string; kind: 'user' | 'team' | 'none'; teamId: string | null; role: TeamRole | 'self' | null };

export async function scopeAccess(db: Db, scope: string, principal: Principal): Promise<ScopeAccess> {
  const row = await db.scope.findUnique({ where: { name: scope }, select: { kind: true, userId: true, teamId: true } });
  if (!row) return { scope, kind: 'none', teamId: null, role: null };
  if (row.kind === 'user') {
    const self = principal.kind !== 'anonymous' && principal.userId === row.userId;
    return { scope, kind: 'user', teamId: null, role: self ? 'self' : null };
  }
  // a team's token acts as the team's service account, a publisher member of its team
  if (principal.kind === 'anonymous' || !row.teamId) return { scope, kind: 'team', teamId: row.teamId, role: null };
  const m = await db.membership.findUnique({ where: { teamId_userId: { teamId: row.teamId, userId: principal.userId } }, select: { role: true } });
  return { scope, kind: 'team', teamId: row.teamId, role: (m?.role as TeamRole | undefined) ?? null };
}

/** Sees the scope's private skills, runs and streams. */
export const maySeePrivate = (a: ScopeAccess) => (a.role === 'self' ? true : roleAtLeast(a.role, 'member'));
/** Publishes, yanks, deprecates and tags in the scope. */
export const mayPublish = (a: ScopeAccess) => (a.role === 'self' ? true : roleAtLeast(a.role, 'publisher'));
/** Manages the team: members, invites, secrets, tokens, connections, audit log. */
export const mayAdminister = (a: ScopeAccess) => (a.role === 'self' ? false : a.kind === 'team' && roleAtLeast(a.role, 'admin'));
/** Deletes the team, makes or unmakes owners. */
export const mayOwn = (a: ScopeAccess) => a.kind === 'team' && a.role === 'owner';
