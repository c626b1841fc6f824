// Account deletion: the person's runs, tokens, keys, sessions and stored data go; the
// versions they published stay (as on npm), and their scope stays reserved, ownerless,
// so nobody else can publish under @<username> later.
import 'server-only';
import type { Db } from '../db/client';

export async function deleteAccount(db: Db, userId: string): Promise<{ runs: number }> {
  return db.$transaction(async (tx) => {
    // the scope (and with it the skills and versions) must not cascade away with the user
    await tx.scope.updateMany({ where: { userId }, data: { userId: null } });
    const runs = await tx.run.deleteMany({ where: { userId } });
    await tx.kvEntry.deleteMany({ where: { callerId: `user:${userId}` } });
    // accounts, sessions, API tokens, held tokens, model keys, device logins and
    // memberships cascade with the user row
    await tx.user.delete({ where: { id: userId } });
    return { runs: runs.count };
  });
}
