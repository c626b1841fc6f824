// Retention for the run log: the events of runs that finished more than `traceDays` ago
// are deleted (the run keeps its summary: status, result, error, and says its trace was
// removed), and runs that finished more than `runDays` ago are deleted with their events,
// leaving a tombstone so their link says "removed" rather than "no such run". Runs still
// queued or running are never touched. 0 days turns a rule off. Works in batches so a
// first application to a large log never holds one long transaction.
import 'server-only';
import type { Db } from '../db';

export type RunRetention = { traceDays: number; runDays: number };
export type RetentionResult = { tracesRemoved: number; runsRemoved: number; eventsRemoved: number; dryRun: boolean };

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;
const FINISHED = ['succeeded', 'failed', 'cancelled'] as const;

export async function applyRunRetention(db: Db, rules: RunRetention, opts: { now?: Date; dryRun?: boolean } = {}): Promise<RetentionResult> {
  const now = opts.now ?? new Date();
  const result: RetentionResult = { tracesRemoved: 0, runsRemoved: 0, eventsRemoved: 0, dryRun: !!opts.dryRun };
  if (rules.runDays > 0) {
    const before = new Date(now.getTime() - rules.runDays * DAY_MS);
    const where = { status: { in: [...FINISHED] }, finishedAt: { lt: before } };
    if (opts.dryRun) {
      result.runsRemoved = await db.run.count({ where });
      result.eventsRemoved += await db.runEvent.count({ where: { run: where } });
    } else {
      for (;;) {
        const ids = (await db.run.findMany({ where, select: { id: true }, take: BATCH })).map((r) => r.id);
        if (!ids.length) break;
        const [events, , runs] = await db.$transaction([
          db.runEvent.deleteMany({ where: { runId: { in: ids } } }),
          db.removedRun.createMany({ data: ids.map((id) => ({ id, removedAt: now })), skipDuplicates: true }),
          db.run.deleteMany({ where: { id: { in: ids } } }),
        ]);
        result.eventsRemoved += events.count;
        result.runsRemoved += runs.count;
        if (ids.length < BATCH) break;
      }
    }
  }
  if (rules.traceDays > 0) {
    const before = new Date(now.getTime() - rules.traceDays * DAY_MS);
    const where = { status: { in: [...FINISHED] }, finishedAt: { lt: before }, traceRemovedAt: null };
    if (opts.dryRun) {
      result.tracesRemoved = await db.run.count({ where });
      result.eventsRemoved += await db.runEvent.count({ where: { run: where } });
    } else {
      for (;;) {
        const ids = (await db.run.findMany({ where, select: { id: true }, take: BATCH })).map((r) => r.id);
        if (!ids.length) break;
        const [events, runs] = await db.$transaction([
          db.runEvent.deleteMany({ where: { runId: { in: ids } } }),
          db.run.updateMany({ where: { id: { in: ids } }, data: { traceRemovedAt: now } }),
        ]);
        result.eventsRemoved += events.count;
        result.tracesRemoved += runs.count;
        if (ids.length < BATCH) break;
      }
    }
  }
  return result;
}

/** When retention removed this run, for a link that no longer finds it; null if it never did. */
export async function runRemovedAt(db: Db, id: string): Promise<Date | null> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) return null;
  return (await db.removedRun.findUnique({ where: { id }, select: { removedAt: true } }))?.removedAt ?? null;
}
