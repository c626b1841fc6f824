import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

export async function deleteTeamSecret(db: Db, actor: Actor, slug: string, name: string): Promise<void> {
  const team = await teamForActor(db, slug, actor, 'admin');
  await db.$transaction(async (tx) => {
    const res = await tx.teamSecret.deleteMany({ where: { teamId: team.id, name } });
    if (res.count !== 1) throw new AppError('team/secret-not-found', `@${slug} has no secret named ${name}.`);
    await recordAudit(tx, team.id, actor, 'secret.delete', name);
  });
}
