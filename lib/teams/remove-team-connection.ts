// An admin disconnects one of the team's OAuth providers: members' runs lose it at once.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { oauthIssuer } from '../auth';
import type { Actor } from './actor';
import { announceMembersTokens, teamMemberIds } from './announce-team-tokens';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';

export async function removeTeamConnection(db: Db, actor: Actor, slug: string, provider: string): Promise<void> {
  const team = await teamForActor(db, slug, actor, 'admin');
  const issuer = oauthIssuer(provider);
  await db.$transaction(async (tx) => {
    const { count } = await tx.heldToken.deleteMany({ where: { teamId: team.id, issuer, mintedByTool: null } });
    if (count === 0) throw new AppError('team/connection-not-found', `@${slug} has no ${provider} connection.`);
    await recordAudit(tx, team.id, actor, 'connection.remove', issuer);
  });
  announceMembersTokens(await teamMemberIds(db, team.id));
}
