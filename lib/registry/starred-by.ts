// Which of some skills a user has starred (the star buttons' pressed state).
import 'server-only';
import type { Db } from '../db';

export async function starredBy(db: Db, userId: string, refs: Array<{ scope: string; name: string }>): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db.star.findMany({
    where: { userId, skill: { OR: refs.slice(0, 200).map((r) => ({ scopeName: r.scope, name: r.name })) } },
    select: { skill: { select: { scopeName: true, name: true } } },
  });
  return new Set(rows.map((r) => `${r.skill.scopeName}/${r.skill.name}`));
}
