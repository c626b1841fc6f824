// The Postgres side of the run queue: claiming the next run fairly between principals,
// the heartbeat that keeps a worker's claims, and the ends of a run. Every status change
// of a claimed run is conditional on the claim (`lockedBy` and `status = 'running'`):
// a run that another worker took over (after this one's heartbeat was missed) keeps the
// status that worker gave it.
import 'server-only';
import type { Db } from '../db/client';
import type { RunConfig } from './run-config';
import { appendEventsOnce, type RunFailure } from './run-event-log';

export type ClaimedRun = { id: string; userId: string | null; principal: string; config: RunConfig };

/**
 * Claims the next queued run for `workerId`, fairly between principals: the head (oldest
 * queued run) of the principal with the fewest running runs goes first, then the one
 * served least recently (never served first), then the older run. So one principal's
 * hundred queued runs take turns with another's first run instead of going before it.
 * Several workers may claim at once: the conditional UPDATE lets one of them have each run.
 */
export async function claimNextRun(db: Db, workerId: string): Promise<ClaimedRun | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidates = await db.$queryRaw<Array<{ id: string }>>`
      WITH heads AS (
        SELECT DISTINCT ON (principal) id, principal, "createdAt"
        FROM "Run" WHERE status = 'queued' AND "cancelRequested" = false
        ORDER BY principal, "createdAt"),
      busy AS (
        SELECT principal, count(*) AS n FROM "Run"
        WHERE status = 'running' AND principal IN (SELECT principal FROM heads) GROUP BY principal),
      served AS (
        SELECT principal, max("startedAt") AS last FROM "Run"
        WHERE "startedAt" IS NOT NULL AND principal IN (SELECT principal FROM heads) GROUP BY principal)
      SELECT heads.id FROM heads
      LEFT JOIN busy USING (principal) LEFT JOIN served USING (principal)
      ORDER BY COALESCE(busy.n, 0), served.last NULLS FIRST, heads."createdAt" LIMIT 3`;
    if (candidates.length === 0) return null;
    for (const { id } of candidates) {
      const rows = await db.$queryRaw<ClaimedRun[]>`
        UPDATE "Run" SET status = 'running', "lockedBy" = ${workerId}, "lockedAt" = now(),
               "startedAt" = COALESCE("startedAt", clock_timestamp()), attempts = attempts + 1
        WHERE id = ${id} AND status = 'queued' AND "cancelRequested" = false
        RETURNING id, "userId", principal, config`;
      if (rows[0]) return rows[0];
    }
  }
  return null;
}

/** Renews this worker's claims; returns the ids it no longer holds (taken over or ended elsewhere). */
export async function renewClaims(db: Db, workerId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const kept = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE "Run" SET "lockedAt" = now()
    WHERE id = ANY(${ids}) AND "lockedBy" = ${workerId} AND status = 'running'
    RETURNING id`;
  const held = new Set(kept.map((r) => r.id));
  return ids.filter((id) => !held.has(id));
}

export type RunOutcome = {
  status: 'succeeded' | 'failed' | 'cancelled';
  result: unknown;
  error: RunFailure | null;
};

/**
 * The final update of a run by the worker that claimed it; false when it no longer holds
 * it. `outcome.result` must already be storable (toStorableJson).
 */
export async function finishClaimedRun(db: Db, runId: string, workerId: string, outcome: RunOutcome): Promise<boolean> {
  const { count } = await db.run.updateMany({
    where: { id: runId, lockedBy: workerId, status: 'running' },
    data: {
      status: outcome.status,
      result: outcome.result === null || outcome.result === undefined ? undefined : (outcome.result as object),
      error: outcome.error ?? undefined,
      finishedAt: new Date(),
      lockedBy: null,
    },
  });
  return count === 1;
}

const WORKER_LOST: RunFailure = { code: 'run/worker-lost', message: 'The worker running this run stopped.' };

/**
 * Fails runs whose worker stopped renewing its claim for `staleAfterSeconds`, and closes
 * their traces (agent-error, run-end). Returns their ids.
 */
export async function failStaleRuns(db: Db, staleAfterSeconds: number): Promise<string[]> {
  const stale = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE "Run" SET status = 'failed', "finishedAt" = now(), "lockedBy" = NULL,
           error = ${JSON.stringify(WORKER_LOST)}::jsonb
    WHERE status = 'running' AND "lockedAt" < now() - make_interval(secs => ${staleAfterSeconds})
    RETURNING id`;
  for (const { id } of stale) await closeTrace(db, id, WORKER_LOST);
  return stale.map((r) => r.id);
}

/**
 * A run whose executor died (threw instead of recording an end): failed, if this worker
 * still holds it, with its trace closed. Returns false when the run was not ours any more.
 */
export async function failClaimedRun(db: Db, runId: string, workerId: string, error: RunFailure): Promise<boolean> {
  const { count } = await db.run.updateMany({
    where: { id: runId, lockedBy: workerId, status: 'running' },
    data: { status: 'failed', error, finishedAt: new Date(), lockedBy: null },
  });
  if (count === 1) await closeTrace(db, runId, error);
  return count === 1;
}

async function closeTrace(db: Db, runId: string, error: RunFailure) {
  const timestamp = Date.now();
  await appendEventsOnce(db, runId, [
    { type: 'agent-error', data: { error, timestamp } },
    { type: 'run-end', data: { status: 'failed', timestamp } },
  ]);
}
