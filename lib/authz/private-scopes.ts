// The scopes whose private and unlisted skills a user sees in lists and search: their own
// scope and every team scope they belong to (a team token's bot user is a member of its
// team). The same rule as maySeePrivate, asked once for a whole list.
import 'server-only';
import type { Db } from '../db';

export async function privateScopesOf(db: Db, userId: string | null | undefined): Promise<string[]> {
  if (!userId) return [];
  const rows = await db.scope.findMany({
    where: { OR: [{ userId }, { team: { memberships: { some: { userId } } } }] },
    select: { name: true },
  });
  return rows.map((r) => r.name);
}
