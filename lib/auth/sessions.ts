// Sessions are rows (database strategy): signing out everywhere deletes them all.
import 'server-only';
import type { Db } from '../db';

export async function endAllSessions(db: Db, userId: string): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { userId } });
  return count;
}
