// Sets or replaces a team secret (what the `environment` capability of the team's skills
// reads). Write-only: sealed at rest, never shown again.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { sealSecret } from '../auth';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

const NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
export const MAX_SECRET_BYTES = 16 * 1024;
export const MAX_SECRETS_PER_TEAM = 100;

export async function setTeamSecret(db: Db, actor: Actor, slug: string, name: unknown, value: unknown): Promise<void> {
  if (typeof name !== 'string' || !NAME.test(name)) throw new AppError('input/invalid', 'A secret name is UPPER_CASE letters, digits and _ (at most 64).');
  if (typeof value !== 'string' || value.length === 0) throw new AppError('input/invalid', 'A secret needs a value.');
  if (Buffer.byteLength(value) > MAX_SECRET_BYTES) throw new AppError('input/too-large', `A secret is at most ${MAX_SECRET_BYTES / 1024} KiB.`);
  const team = await teamForActor(db, slug, actor, 'admin');
  await db.$transaction(async (tx) => {
    const exists = await tx.teamSecret.findUnique({ where: { teamId_name: { teamId: team.id, name } }, select: { id: true } });
    if (!exists && (await tx.teamSecret.count({ where: { teamId: team.id } })) >= MAX_SECRETS_PER_TEAM) {
      throw new AppError('team/too-many-secrets', `A team holds at most ${MAX_SECRETS_PER_TEAM} secrets.`);
    }
    await tx.teamSecret.upsert({
      where: { teamId_name: { teamId: team.id, name } },
      create: { teamId: team.id, name, value: sealSecret(value) },
      update: { value: sealSecret(value) },
    });
    await recordAudit(tx, team.id, actor, 'secret.set', name, { replaced: Boolean(exists) });
  });
}
