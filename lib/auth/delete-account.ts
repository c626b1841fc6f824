// Account deletion: the person's runs, tokens, keys, sessions and stored data go; the
// versions they published stay (as on npm), and their scope stays reserved, ownerless,
// so nobody else can publish under @<username> later. A team always keeps an owner
// (docs/teams.md): while the person is the last owner of a team, nothing is deleted.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { userKey } from '../principal';

type Tx = Pick<Db, '$queryRaw'>;

/**
 * Refuses while the user is the only owner of any team. The owner rows of those teams are
 * locked (as lib/teams/last-owner.ts does), so two owners deleting their accounts at once
 * cannot both pass: the second waits, then no longer sees the first as an owner.
 */
async function assertOwnsNoTeamAlone(tx: Tx, userId: string): Promise<void> {
  const owners = await tx.$queryRaw<Array<{ teamId: string; slug: string; userId: string }>>`
    SELECT m."teamId", t.slug, m."userId" FROM "Membership" m JOIN "Team" t ON t.id = m."teamId"
    WHERE m.role = 'owner'
      AND m."teamId" IN (SELECT "teamId" FROM "Membership" WHERE "userId" = ${userId} AND role = 'owner')
    ORDER BY m."teamId", m."userId"
    FOR UPDATE OF m`;
  const alone = new Map<string, string>();
  for (const o of owners) if (!owners.some((x) => x.teamId === o.teamId && x.userId !== userId)) alone.set(o.teamId, o.slug);
  if (alone.size === 0) return;
  const teams = [...alone.values()].sort().map((s) => `@${s}`);
  throw new AppError(
    'account/last-owner',
    `You are the last owner of ${teams.join(', ')}. Make another member an owner (on the team's page), or delete the team, then delete your account.`,
    { details: { teams } },
  );
}

export async function deleteAccount(db: Db, userId: string): Promise<{ runs: number }> {
  return db.$transaction(async (tx) => {
    await assertOwnsNoTeamAlone(tx, userId);
    // the scope (and with it the skills and versions) must not cascade away with the user
    await tx.scope.updateMany({ where: { userId }, data: { userId: null } });
    const runs = await tx.run.deleteMany({ where: { userId } });
    await tx.kvEntry.deleteMany({ where: { callerId: userKey(userId) } });
    // accounts, sessions, API tokens, held tokens, model keys, device logins and
    // memberships cascade with the user row
    await tx.user.delete({ where: { id: userId } });
    return { runs: runs.count };
  });
}
