// A team always keeps at least one owner. Called inside the transaction that would remove
// or demote an owner; the row lock keeps two concurrent demotions from both passing.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';

type Tx = Pick<Db, '$queryRaw'>;

export async function assertNotLastOwner(tx: Tx, teamId: string, slug: string): Promise<void> {
  const owners = await tx.$queryRaw<Array<{ userId: string }>>`SELECT "userId" FROM "Membership" WHERE "teamId" = ${teamId} AND role = 'owner' FOR UPDATE`;
  if (owners.length <= 1) {
    throw new AppError('team/last-owner', `@${slug} must keep at least one owner: make someone else an owner first.`);
  }
}
