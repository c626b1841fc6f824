// The teams a user belongs to, with their role (for the header's workspace switcher).
import 'server-only';
import type { Db } from '../db';
import type { TeamRole } from '../authz';

export async function listUserTeams(db: Db, userId: string): Promise<Array<{ slug: string; name: string; role: TeamRole }>> {
  const rows = await db.membership.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { role: true, team: { select: { slug: true, name: true } } } });
  return rows.map((r) => ({ slug: r.team.slug, name: r.team.name, role: r.role as TeamRole }));
}
