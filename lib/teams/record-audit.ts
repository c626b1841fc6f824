// The team audit log: who did what, when, and from which IP or API token. Written in the
// same transaction as the change it records, so the log never misses one.
import 'server-only';
import type { Prisma, Db } from '../db';
import { tokenIdOf } from '../principal';
import type { Actor } from './actor';

export type AuditAction =
  | 'team.create'
  | 'team.rename'
  | 'team.delete'
  | 'member.invite'
  | 'member.invite-revoke'
  | 'member.join'
  | 'member.role'
  | 'member.remove'
  | 'member.leave'
  | 'secret.set'
  | 'secret.delete'
  | 'token.create'
  | 'token.revoke'
  | 'connection.add'
  | 'connection.remove'
  | 'skill.publish'
  | 'skill.yank'
  | 'skill.unyank'
  | 'skill.deprecate'
  | 'skill.tag'
  | 'skill.untag'
  | 'skill.delete-version'
  | 'skill.visibility'
  | 'skill.review-finding'
  | 'skill.trusted-publisher-add'
  | 'skill.trusted-publisher-remove';

type Tx = Pick<Db, 'auditEvent'>;

export async function recordAudit(tx: Tx, teamId: string, actor: Actor, action: AuditAction, target?: string | null, data?: Record<string, unknown>): Promise<void> {
  const p = actor.principal;
  await tx.auditEvent.create({
    data: {
      teamId,
      actorUserId: p.kind === 'anonymous' ? null : p.userId,
      actorTokenId: tokenIdOf(p),
      ip: actor.ip ?? null,
      action,
      target: target ?? null,
      data: (data ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
}
