// Creates a team with its scope `@<slug>` and the creator as its first owner. An account
// may create at most SKILLYARD_MAX_TEAMS_PER_ACCOUNT teams (default 10): a team and its
// tokens cost nothing to make, so they are charged to who made them (Team.createdById).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { actingPerson, type Actor } from './actor';
import { recordAudit } from './record-audit';
import { parseTeamSlug } from './team-slug';
import { findLookalikeScope, lookalikeMessage } from '../auth';
import { setting } from '../config';

export const maxTeamsPerAccount = () => setting('SKILLYARD_MAX_TEAMS_PER_ACCOUNT');

export async function createTeam(db: Db, actor: Actor, input: { slug: unknown; name?: unknown }) {
  const userId = await actingPerson(db, actor);
  const slug = parseTeamSlug(input.slug);
  const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim().slice(0, 100) : slug;
  const taken = await db
    .$transaction(async (tx) => {
      // one creation at a time per account, so racing requests cannot pass the cap together
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`team-create:${userId}`}, 0))::text`;
      const mine = await tx.team.count({ where: { createdById: userId } });
      const max = maxTeamsPerAccount();
      if (mine >= max) {
        throw new AppError(
          'team/too-many',
          `You have created ${mine} teams, the most one account may create here (SKILLYARD_MAX_TEAMS_PER_ACCOUNT=${max}). Delete one, or ask the operator.`,
        );
      }
      const [scope, user] = await Promise.all([
        tx.scope.findUnique({ where: { name: slug }, select: { name: true } }),
        tx.user.findUnique({ where: { handle: slug }, select: { id: true } }),
      ]);
      if (scope || user) return true;
      const twin = await findLookalikeScope(tx, slug);
      if (twin) throw new AppError('team/slug-taken', lookalikeMessage(slug, twin));
      const team = await tx.team.create({ data: { slug, name, createdById: userId, memberships: { create: { userId, role: 'owner' } } } });
      await tx.scope.create({ data: { name: slug, kind: 'team', teamId: team.id } });
      await recordAudit(tx, team.id, actor, 'team.create', `@${slug}`, { name });
      return false;
    })
    .catch((err: { code?: string }) => {
      // two creations of one slug at once: the unique index decides
      if (err?.code === 'P2002') return true;
      throw err;
    });
  if (taken) throw new AppError('team/slug-taken', `@${slug} is already taken by a user or a team.`);
  return db.team.findUniqueOrThrow({ where: { slug }, select: { id: true, slug: true, name: true } });
}
