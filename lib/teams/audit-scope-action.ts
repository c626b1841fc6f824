// Registry actions in a team's scope (publish, yank, deprecate, tags, deletion, visibility)
// go into that team's audit log; in a user's own scope there is no team log to write.
import 'server-only';
import type { Db } from '../db';
import type { Actor } from './actor';
import { recordAudit, type AuditAction } from './record-audit';

export async function auditScopeAction(db: Db, scope: string, actor: Actor, action: AuditAction, target: string, data?: Record<string, unknown>): Promise<void> {
  const row = await db.scope.findUnique({ where: { name: scope }, select: { teamId: true } });
  if (row?.teamId) await recordAudit(db, row.teamId, actor, action, target, data);
}
