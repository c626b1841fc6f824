// A team API token: the same scopes as a personal one, acting as the team through its
// service account (it publishes into the team's scope and sees the team's private skills,
// nothing of the admin who made it). Admins create and revoke them. It never gets the
// `teams` scope: managing teams is for people (lib/api/team-actor.ts refuses it as well).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { forgetApiTokenId, TEAM_API_TOKEN_SCOPES, createApiToken, type ApiTokenScope } from '../auth';
import type { Actor } from './actor';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';
import { teamBotFor } from './team-bot';

export async function createTeamApiToken(db: Db, actor: Actor, slug: string, input: { name: unknown; scopes: unknown; expiresAt?: Date | null }) {
  const team = await teamForActor(db, slug, actor, 'admin');
  const name = typeof input.name === 'string' ? input.name.trim().slice(0, 100) : '';
  if (!name) throw new AppError('input/invalid', 'Give the token a name.');
  const scopes = Array.isArray(input.scopes) ? input.scopes : [];
  if (scopes.includes('teams')) {
    throw new AppError('input/invalid', 'A team API token cannot have the "teams" scope: managing teams takes a person (sign in, or a personal API token with "teams").');
  }
  if (scopes.length === 0 || !scopes.every((s): s is ApiTokenScope => (TEAM_API_TOKEN_SCOPES as readonly string[]).includes(s))) {
    throw new AppError('input/invalid', `A team API token's scopes are some of ${TEAM_API_TOKEN_SCOPES.join(', ')}.`);
  }
  const botId = await db.$transaction((tx) => teamBotFor(tx, team));
  // charged to the admin who made it (lib/principal rateKeyOf), not to the team
  const created = await createApiToken(db, { userId: botId, teamId: team.id, createdById: team.userId, name, scopes, expiresAt: input.expiresAt ?? null });
  await recordAudit(db, team.id, actor, 'token.create', created.id, { name, scopes });
  return created;
}

export async function revokeTeamApiToken(db: Db, actor: Actor, slug: string, tokenId: string): Promise<void> {
  const team = await teamForActor(db, slug, actor, 'admin');
  const res = await db.apiToken.updateMany({ where: { id: tokenId, teamId: team.id, revokedAt: null }, data: { revokedAt: new Date() } });
  // every instance forgets it when the database's notice arrives; this one at once
  forgetApiTokenId(tokenId);
  if (res.count !== 1) throw new AppError('team/token-not-found', 'No active token with that id in this team.');
  await recordAudit(db, team.id, actor, 'token.revoke', tokenId);
}
