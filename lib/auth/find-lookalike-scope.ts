// Whether a new scope name (a username or a team slug) would pass for an existing scope
// (scope-names.ts). Runs inside the transaction that creates the scope: the advisory lock
// on the skeleton makes two look-alikes created at once wait for each other, and the
// second then sees the first.
import 'server-only';
import type { Db } from '../db';
import { scopeSkeleton } from './scope-names';

type Tx = Pick<Db, '$queryRaw'>;

/** An existing scope other than `name` whose skeleton is `name`'s, or null. */
export async function findLookalikeScope(tx: Tx, name: string): Promise<string | null> {
  const skeleton = scopeSkeleton(name);
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`scope-skeleton:${skeleton}`}, 0))`;
  // the skeleton of scope-names.ts in SQL (a test holds the two equal); the Scope table
  // holds one row per user and team, scanned once per new name
  const rows = await tx.$queryRaw<Array<{ name: string }>>`
    SELECT name FROM "Scope"
    WHERE replace(replace(translate(lower(name), '01i-_.', 'oll'), 'rn', 'm'), 'vv', 'w') = ${skeleton} AND name <> ${name}
    ORDER BY "createdAt" LIMIT 1`;
  return rows[0]?.name ?? null;
}
