// The team connections a user may use right now: those of every team they are a member of
// at this moment, each held only for the tools of that team's own skills
// (HeldToken.onlyForScope; the token gate in lib/runtime/tokens.ts enforces it). Read
// whenever a caller is resolved, so removal from the team ends the use at once.
import 'server-only';
import type { Db } from '../db';
import { openSecret } from '../auth';
import type { HeldToken } from '../runtime';

/** `secrets: false`: claims only (for pages that show what is unlocked), nothing unsealed. */
export async function teamHeldTokens(db: Pick<Db, 'heldToken'>, userId: string, opts: { secrets?: boolean } = {}): Promise<HeldToken[]> {
  const rows = await db.heldToken.findMany({
    where: { issuer: { startsWith: '@oauth/' }, mintedByTool: null, team: { memberships: { some: { userId } } } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, issuer: true, claims: true, expiresAt: true, secret: true, team: { select: { slug: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    issuer: r.issuer,
    claims: r.claims,
    expiresAt: r.expiresAt,
    secret: opts.secrets === false ? '' : openSecret(r.secret),
    onlyForScope: r.team!.slug,
  }));
}
