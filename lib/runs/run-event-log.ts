// Appends a run's events in order. Each event gets the next seq at once and goes live to
// this process's subscribers at once; storage follows in batches (one insert for all
// events waiting), and other app instances are told only after their batch is stored,
// so what they read from the database never has a gap.
import type { Db } from '../db/client';
import { runEventBus, type StoredRunEvent } from './run-event-bus';

export type RunEventLog = {
  append(type: string, data: Record<string, unknown>): void;
  /** resolves when everything appended so far is stored */
  flush(): Promise<void>;
};

// Trace events may carry large tool results; the stored copy is capped.
const MAX_EVENT_BYTES = 256 * 1024;

function capped(data: Record<string, unknown>): Record<string, unknown> {
  const json = JSON.stringify(data);
  if (json.length <= MAX_EVENT_BYTES) return JSON.parse(json);
  return { truncated: true, bytes: json.length, preview: json.slice(0, 2000) };
}

export async function openRunEventLog(db: Db, runId: string): Promise<RunEventLog> {
  const last = await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: 'desc' }, select: { seq: true } });
  let seq = last?.seq ?? 0;
  let waiting: StoredRunEvent[] = [];
  let writing: Promise<void> | null = null;
  let failure: unknown = null;

  async function writeLoop() {
    while (waiting.length > 0 && !failure) {
      const batch = waiting;
      waiting = [];
      try {
        await db.runEvent.createMany({
          data: batch.map((e) => ({ runId, seq: e.seq, type: e.type, data: e.data as object, createdAt: new Date(e.createdAt) })),
        });
        runEventBus().announceStored(runId, batch[batch.length - 1].seq);
      } catch (err) {
        failure = err;
      }
    }
    writing = null;
  }

  return {
    append(type, data) {
      const event: StoredRunEvent = { seq: ++seq, type, data: capped(data), createdAt: new Date().toISOString() };
      runEventBus().publishLocal(runId, event);
      waiting.push(event);
      writing ??= writeLoop();
    },
    async flush() {
      while (writing) await writing;
      if (failure) throw failure;
    },
  };
}
