// Changes a team's display name (its slug, the scope, never changes).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

export async function renameTeam(db: Db, actor: Actor, slug: string, name: unknown) {
  const team = await teamForActor(db, slug, actor, 'admin');
  const next = typeof name === 'string' ? name.trim() : '';
  if (!next || next.length > 100) throw new AppError('input/invalid', 'A display name is 1-100 characters.');
  await db.$transaction(async (tx) => {
    await tx.team.update({ where: { id: team.id }, data: { name: next } });
    await recordAudit(tx, team.id, actor, 'team.rename', `@${slug}`, { from: team.name, to: next });
  });
  return { ...team, name: next };
}
