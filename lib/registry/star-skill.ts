// Stars by signed-in users; Skill.stars counts them (changed in the same transaction).
import 'server-only';
import type { Db } from '../db';
import type { Viewer } from './get-skill';
import { findVisibleSkill } from './find-visible-skill';

export async function starSkill(db: Db, ref: { scope: string; name: string }, userId: string, starred: boolean): Promise<{ starred: boolean; stars: number }> {
  const skill = await findVisibleSkill(db, ref, { userId } satisfies Viewer);
  return db.$transaction(async (tx) => {
    if (starred) {
      const added = await tx.$executeRaw`INSERT INTO "Star" ("userId", "skillId") VALUES (${userId}, ${skill.id}) ON CONFLICT DO NOTHING`;
      if (added) await tx.$executeRaw`UPDATE "Skill" SET stars = stars + 1 WHERE id = ${skill.id}`;
    } else {
      const removed = await tx.star.deleteMany({ where: { userId, skillId: skill.id } });
      if (removed.count) await tx.$executeRaw`UPDATE "Skill" SET stars = stars - 1 WHERE id = ${skill.id}`;
    }
    const row = await tx.skill.findUniqueOrThrow({ where: { id: skill.id }, select: { stars: true } });
    return { starred, stars: row.stars };
  });
}
