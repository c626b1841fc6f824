// Stored events of a run after a given seq (for SSE backfill and replay).
import 'server-only';
import type { Db } from '../db';
import type { StoredRunEvent } from './run-event-bus';

export async function listRunEvents(db: Db, runId: string, afterSeq: number, take = 1000): Promise<StoredRunEvent[]> {
  const rows = await db.runEvent.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: 'asc' },
    take,
  });
  return rows.map((r) => ({ seq: r.seq, type: r.type, data: r.data as Record<string, unknown>, createdAt: r.createdAt.toISOString() }));
}
