// The scopes a user may publish into, for the publish page's scope choice: their own, and
// each team where their role is publisher or higher (the same rule as assertScopeOwner).
import 'server-only';
import type { Db } from '../db';
import { roleAtLeast, type TeamRole } from '../authz';

export type PublishScope = { scope: string; label: string };

export async function publishScopesOf(db: Db, userId: string, handle: string): Promise<PublishScope[]> {
  const rows = await db.membership.findMany({
    where: { userId, team: { scope: { isNot: null } } },
    orderBy: { createdAt: 'asc' },
    select: { role: true, team: { select: { name: true, scope: { select: { name: true } } } } },
  });
  const teams = rows
    .filter((r) => r.team.scope && roleAtLeast(r.role as TeamRole, 'publisher'))
    .map((r) => ({ scope: r.team.scope!.name, label: `@${r.team.scope!.name} (team ${r.team.name}, ${r.role})` }));
  return [{ scope: handle, label: `@${handle} (you)` }, ...teams];
}
