// Team connections: an admin connects an OAuth provider for the team. The OAuth callback
// (lib/session/auth.ts) hands the provider's tokens here when the admin started a team
// connect (team-connect-intent.ts); they are sealed as the team's one `@oauth/<provider>`
// held token (HeldToken.teamId), which members' runs of the team's own skills may use
// (team-held-tokens.ts). The admin role is checked again here, at the callback.
import 'server-only';
import type { Db } from '../db';
import { sealSecret, claimsFromScope, oauthIssuer, type ProviderTokens } from '../auth';
import { announceMembersTokens, teamMemberIds } from './announce-team-tokens';
import { recordAudit } from './record-audit';
import { teamForActor } from './team-for-actor';
import { userPrincipal } from '../principal';

export async function storeTeamConnection(db: Db, userId: string, slug: string, tokens: ProviderTokens, ip: string | null = null): Promise<void> {
  if (!tokens.access_token) return;
  const actor = { principal: userPrincipal(userId), ip };
  const team = await teamForActor(db, slug, actor, 'admin');
  const issuer = oauthIssuer(tokens.provider);
  const claims = claimsFromScope(tokens.scope);
  const expiresAt =
    typeof tokens.expires_at === 'number' ? new Date(tokens.expires_at * 1000) : typeof tokens.expires_in === 'number' ? new Date(Date.now() + tokens.expires_in * 1000) : null;
  await db.$transaction(async (tx) => {
    await tx.heldToken.deleteMany({ where: { teamId: team.id, issuer, mintedByTool: null } });
    await tx.heldToken.create({
      data: {
        teamId: team.id,
        issuer,
        claims,
        secret: sealSecret(tokens.access_token!),
        refreshSecret: tokens.refresh_token ? sealSecret(tokens.refresh_token) : null,
        expiresAt,
      },
    });
    await recordAudit(tx, team.id, actor, 'connection.add', issuer, { claims });
  });
  announceMembersTokens(await teamMemberIds(db, team.id));
}
