// A manual run's turns, stored so that any instance can take one and the worker running
// the run (on any machine) reads it: NOTIFY only says "look" (pg_notify refuses payloads
// of 8,000 bytes or more, and a notice can be missed); the worker also looks on a timer.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';

export type ManualTurn = { text?: string; code?: string } | string | null;

/** turns of one run stored and not yet taken, at most */
export const MAX_PENDING_TURNS = 10;

/** Stores a turn for the run; refused when MAX_PENDING_TURNS wait already. */
export async function storeRunTurn(db: Db, runId: string, turn: ManualTurn): Promise<void> {
  // the count and the insert under one lock of the run's row: two instances racing cannot both pass the cap
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Run" WHERE id = ${runId} FOR UPDATE`;
    const pending = await tx.runTurn.count({ where: { runId } });
    if (pending >= MAX_PENDING_TURNS) {
      throw new AppError('run/turns-pending', `The run has ${pending} turns waiting to be taken; wait for it to take one.`);
    }
    // JSON null cannot be a Json column's value in Prisma: a "no more turns" is stored as {end: true}
    await tx.runTurn.create({ data: { runId, turn: turn === null ? { end: true } : { value: turn } } });
  });
}

/** Takes (removes) the run's oldest stored turn, or returns undefined when none waits. */
export async function takeRunTurn(db: Db, runId: string): Promise<ManualTurn | undefined> {
  const rows = await db.$queryRaw<Array<{ turn: { end?: true; value?: ManualTurn } }>>`
    DELETE FROM "RunTurn" WHERE id = (
      SELECT id FROM "RunTurn" WHERE "runId" = ${runId} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING turn`;
  const row = rows[0];
  if (!row) return undefined;
  return row.turn.end ? null : (row.turn.value ?? null);
}
