// The Postgres side of publish-time runs: a VersionEvidence row per published version is
// the job. Workers claim the oldest queued one with SKIP LOCKED (several instances share
// the work, none waits for another), keep their claim fresh while running, and store the
// evidence; a claim nobody renewed is queued again, up to MAX_ATTEMPTS claims.
import 'server-only';
import { setting, type Env } from '../config';
import type { Db } from '../db';
import type { Evidence } from './types';

export const MAX_ATTEMPTS = 3;

/** Queues the publish-time run of a version (in the publish's own transaction); off with SKILLYARD_EVIDENCE=0. */
export async function queueEvidence(tx: Pick<Db, 'versionEvidence'>, versionId: string, env?: Env): Promise<void> {
  if (!setting('SKILLYARD_EVIDENCE', env)) return;
  await tx.versionEvidence.create({ data: { versionId } });
}

export async function claimNextEvidence(db: Db, workerId: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ versionId: string }>>`
    UPDATE "VersionEvidence" SET status = 'running', "lockedBy" = ${workerId}, "lockedAt" = now(),
           "startedAt" = clock_timestamp(), attempts = attempts + 1
    WHERE "versionId" = (SELECT "versionId" FROM "VersionEvidence" WHERE status = 'queued'
                         ORDER BY "queuedAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING "versionId"`;
  return rows[0]?.versionId ?? null;
}

export async function renewEvidenceClaims(db: Db, workerId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.versionEvidence.updateMany({ where: { versionId: { in: ids }, lockedBy: workerId, status: 'running' }, data: { lockedAt: new Date() } });
}

export async function finishEvidence(db: Db, versionId: string, workerId: string, evidence: Evidence): Promise<boolean> {
  const { count } = await db.versionEvidence.updateMany({
    where: { versionId, lockedBy: workerId, status: 'running' },
    data: { status: 'done', evidence: evidence as object, finishedAt: new Date(), lockedBy: null, error: null },
  });
  return count === 1;
}

export async function failEvidence(db: Db, versionId: string, workerId: string, error: string): Promise<boolean> {
  const { count } = await db.versionEvidence.updateMany({
    where: { versionId, lockedBy: workerId, status: 'running' },
    data: { status: 'failed', error: error.slice(0, 500), finishedAt: new Date(), lockedBy: null },
  });
  return count === 1;
}

/** Claims not renewed for `staleAfterSeconds`: queued again while attempts are left, failed after. */
export async function requeueStaleEvidence(db: Db, staleAfterSeconds: number): Promise<void> {
  await db.$executeRaw`
    UPDATE "VersionEvidence" SET
      status = CASE WHEN attempts < ${MAX_ATTEMPTS} THEN 'queued' ELSE 'failed' END,
      error = CASE WHEN attempts < ${MAX_ATTEMPTS} THEN NULL ELSE 'the worker running it stopped ' || attempts || ' times' END,
      "finishedAt" = CASE WHEN attempts < ${MAX_ATTEMPTS} THEN NULL ELSE now() END,
      "lockedBy" = NULL
    WHERE "versionId" IN (SELECT "versionId" FROM "VersionEvidence" WHERE status = 'running'
                          AND "lockedAt" < now() - make_interval(secs => ${staleAfterSeconds})
                          FOR UPDATE SKIP LOCKED)`;
}
