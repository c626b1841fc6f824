// A team's audit log, newest first, for admins (pages of at most 200).
import 'server-only';
import type { Db } from '../db';
import type { Actor } from './actor';
import { teamForActor } from './team-for-actor';

export async function listAudit(db: Db, actor: Actor, slug: string, opts: { before?: Date; limit?: number } = {}) {
  const team = await teamForActor(db, slug, actor, 'admin');
  const take = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  return db.auditEvent.findMany({
    where: { teamId: team.id, ...(opts.before ? { createdAt: { lt: opts.before } } : {}) },
    orderBy: { createdAt: 'desc' },
    take,
    select: { id: true, action: true, target: true, data: true, ip: true, actorUserId: true, actorTokenId: true, createdAt: true },
  });
}
