// "My runs": a signed-in user's runs, newest first, with status, skills and times.
import 'server-only';
import type { Db } from '../db';

export type UserRunRow = {
  id: string;
  status: string;
  skills: string[];
  task: string;
  provider: string;
  visibility: string;
  createdAt: Date;
  finishedAt: Date | null;
  forkedFromId: string | null;
};

export async function listUserRuns(db: Db, userId: string, opts: { take?: number; before?: Date } = {}): Promise<UserRunRow[]> {
  const rows = await db.run.findMany({
    // a private team run stays listed while its creator is still in the team
    where: {
      userId,
      OR: [{ teamId: null }, { visibility: { not: 'private' } }, { team: { memberships: { some: { userId } } } }],
      ...(opts.before ? { createdAt: { lt: opts.before } } : {}),
    },
    orderBy: { createdAt: 'desc' },
    take: Math.min(opts.take ?? 50, 200),
    select: { id: true, status: true, config: true, visibility: true, createdAt: true, finishedAt: true, forkedFromId: true },
  });
  return rows.map((r) => {
    const config = (r.config ?? {}) as { skills?: unknown; task?: unknown; provider?: unknown };
    return {
      id: r.id,
      status: r.status,
      skills: Array.isArray(config.skills) ? config.skills.map(String) : [],
      task: typeof config.task === 'string' ? config.task : '',
      provider: typeof config.provider === 'string' ? config.provider : '',
      visibility: r.visibility,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      forkedFromId: r.forkedFromId,
    };
  });
}
