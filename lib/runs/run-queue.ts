// The Postgres side of the run queue: claiming the next run fairly between principals,
// the heartbeat that keeps a worker's claims, and the ends of a run. Every status change
// of a claimed run is conditional on the claim (`lockedBy` and `status = 'running'`):
// a run that another worker took over (after this one's heartbeat was missed) keeps the
// status that worker gave it.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { runEventBus } from './run-event-bus';
import { runLimits } from './run-limits';
import type { RunConfig } from './run-config';
import { appendEventsOnce, type RunFailure } from './run-event-log';

/** `pins`: what the run was pinned to when created (run-pins.ts); null for runs made before pins */
export type ClaimedRun = { id: string; userId: string | null; principal: string; config: RunConfig; pins?: unknown };

/**
 * Claims the next queued run for `workerId`, fairly between principals: the head (oldest
 * queued run) of the principal with the fewest running runs goes first, then the one
 * served least recently (never served first), then the older run. So one principal's
 * hundred queued runs take turns with another's first run instead of going before it.
 * Several workers may claim at once: each locks its candidate with SKIP LOCKED, so one
 * of them has each run and the others move on to the next candidate instead of waiting.
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
        WHERE id = (SELECT id FROM "Run" WHERE id = ${id} AND status = 'queued' AND "cancelRequested" = false
                    FOR UPDATE SKIP LOCKED)
        RETURNING id, "userId", principal, config, pins`;
      if (rows[0]) return rows[0];
    }
  }
  return null;
}

/**
 * Renews this worker's claims; returns the ids it no longer holds (taken over or ended
 * elsewhere) and those whose cancel was requested (stored by any instance: a missed
 * notice is caught here).
 */
export async function renewClaims(db: Db, workerId: string, ids: string[]): Promise<{ lost: string[]; cancelled: string[] }> {
  if (ids.length === 0) return { lost: [], cancelled: [] };
  const kept = await db.$queryRaw<Array<{ id: string; cancelRequested: boolean }>>`
    UPDATE "Run" SET "lockedAt" = now()
    WHERE id = ANY(${ids}) AND "lockedBy" = ${workerId} AND status = 'running'
    RETURNING id, "cancelRequested"`;
  const held = new Set(kept.map((r) => r.id));
  return { lost: ids.filter((id) => !held.has(id)), cancelled: kept.filter((r) => r.cancelRequested).map((r) => r.id) };
}

const RETRIABLE_SQL = 'attempts < $3 AND "cancelRequested" = false AND NOT EXISTS (SELECT 1 FROM "RunEvent" e WHERE e."runId" = r.id AND e.type = \'tool-call\')';

/** Of `ids` held by this worker: those that may be started again (no tool call began, attempts left, no cancel). */
export async function retriableRuns(db: Db, workerId: string, ids: string[], maxAttempts: number): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT id FROM "Run" r WHERE id = ANY($1) AND "lockedBy" = $2 AND status = 'running' AND ${RETRIABLE_SQL}`,
    ids,
    workerId,
    maxAttempts,
  );
  return rows.map((r) => r.id);
}

/**
 * Gives runs back to the queue (a draining worker that will not finish them; their
 * executors stopped already): only those this worker holds, whose tools never acted and
 * that may be claimed again; with `failOthers` the rest are failed with
 * `run/worker-stopped`. Returns the ids handed back.
 */
export async function handBackRuns(db: Db, workerId: string, ids: string[], opts: { maxAttempts: number; failOthers: boolean }): Promise<string[]> {
  const back: string[] = [];
  const retriable = new Set(await retriableRuns(db, workerId, ids, opts.maxAttempts));
  for (const id of ids) {
    if (retriable.has(id)) {
      await requeue(db, id, workerId, { reason: 'worker-stopped' });
      back.push(id);
    } else if (opts.failOthers) {
      await failClaimedRun(db, id, workerId, WORKER_STOPPED);
    }
  }
  return back;
}

/** a retried run's trace says so, then the run is queued again (only while `holder` still holds it) */
async function requeue(db: Db, runId: string, holder: string, why: { reason: 'worker-lost' | 'worker-stopped' }) {
  await appendEventsOnce(db, runId, [{ type: 'run-retry', data: { ...why, timestamp: Date.now() } }]);
  const { count } = await db.run.updateMany({ where: { id: runId, lockedBy: holder, status: 'running' }, data: { status: 'queued', lockedBy: null, lockedAt: null } });
  if (count) runEventBus().announceQueued();
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
const WORKER_STOPPED: RunFailure = {
  code: 'run/worker-stopped',
  message: 'The worker running this run shut down before the run ended; its tools had acted, so it was not started again.',
};

/**
 * Runs whose worker stopped renewing its claim for `staleAfterSeconds`: those none of
 * whose tool calls began (no `tool-call` event: nothing the run did can have had an
 * effect) are queued again, up to `maxAttempts` claims, with a `run-retry` event in their
 * trace; the others are failed with the reason and their traces closed (agent-error,
 * run-end). Returns the ids failed (`retried` gets the others).
 */
export async function failStaleRuns(db: Db, staleAfterSeconds: number, opts: { maxAttempts?: number; retried?: (id: string) => void } = {}): Promise<string[]> {
  const maxAttempts = opts.maxAttempts ?? runLimits().maxAttempts;
  // the retriable ones are held by this check (a holder of its own) while their trace says so
  const reclaimer = `reclaim-${crypto.randomUUID()}`;
  const retriable = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE "Run" r SET "lockedBy" = ${reclaimer}, "lockedAt" = now()
    WHERE id IN (SELECT id FROM "Run" WHERE status = 'running'
                   AND "lockedAt" < now() - make_interval(secs => ${staleAfterSeconds})
                 FOR UPDATE SKIP LOCKED)
      AND attempts < ${maxAttempts} AND "cancelRequested" = false
      AND NOT EXISTS (SELECT 1 FROM "RunEvent" e WHERE e."runId" = r.id AND e.type = 'tool-call')
    RETURNING id`;
  for (const { id } of retriable) {
    await requeue(db, id, reclaimer, { reason: 'worker-lost' });
    opts.retried?.(id);
  }
  const stale = await db.$queryRaw<Array<{ id: string; error: RunFailure | null }>>`
    UPDATE "Run" r SET status = 'failed', "finishedAt" = now(), "lockedBy" = NULL,
           error = jsonb_build_object('code', 'run/worker-lost', 'message',
             CASE WHEN EXISTS (SELECT 1 FROM "RunEvent" e WHERE e."runId" = r.id AND e.type = 'tool-call')
                  THEN 'The worker running this run stopped after its tools had acted, so it was not started again.'
                  WHEN r."cancelRequested" THEN 'The worker running this run stopped after a cancel was asked.'
                  ELSE 'The worker running this run stopped ' || r.attempts || ' times; it is not started again.' END)
    WHERE id IN (SELECT id FROM "Run" WHERE status = 'running'
                   AND "lockedAt" < now() - make_interval(secs => ${staleAfterSeconds})
                 FOR UPDATE SKIP LOCKED)
    RETURNING id, error`;
  for (const row of stale) await closeTrace(db, row.id, row.error ?? WORKER_LOST);
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
