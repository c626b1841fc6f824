// An invitation by link (optionally addressed to an email): single use, expiring,
// revocable. The link's secret is returned once; only its hash is stored.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { isTeamRole, roleAtLeast, type TeamRole } from '../authz';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';
import { setting } from '../config';

export const inviteTtlMs = () => setting('SKILLYARD_INVITE_TTL_HOURS') * 3600_000;
export const hashInvite = (secret: string) => crypto.createHash('sha256').update(secret).digest('hex');

export async function createInvite(db: Db, actor: Actor, slug: string, input: { role?: unknown; email?: unknown; ttlMs?: number }) {
  const team = await teamForActor(db, slug, actor, 'admin');
  const role: TeamRole =
    input.role === undefined
      ? 'member'
      : isTeamRole(input.role)
        ? input.role
        : (() => {
            throw new AppError('input/invalid', 'role is one of owner, admin, publisher, member.');
          })();
  if (role === 'owner' && !roleAtLeast(team.role, 'owner')) throw new AppError('team/forbidden', 'Only an owner can invite another owner.');
  const email = typeof input.email === 'string' && input.email.trim() ? input.email.trim().toLowerCase().slice(0, 320) : null;
  if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) throw new AppError('input/invalid', 'That is not an email address.');
  const secret = `syi_${crypto.randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + (input.ttlMs ?? inviteTtlMs()));
  const invite = await db.$transaction(async (tx) => {
    const row = await tx.teamInvite.create({ data: { teamId: team.id, hash: hashInvite(secret), email, role, createdById: team.userId, expiresAt } });
    await recordAudit(tx, team.id, actor, 'member.invite', email ?? 'link', { role, inviteId: row.id });
    return row;
  });
  return { id: invite.id, secret, role, email, expiresAt };
}
