// Appends a run's events in order: each gets the next seq at once, is stored (one insert
// at a time, so the table never has a gap that later fills), then published live.
import type { Db } from '../db/client';
import { runEventBus, type StoredRunEvent } from './run-event-bus';

export type RunEventLog = {
  append(type: string, data: Record<string, unknown>): void;
  /** resolves when everything appended so far is stored and published */
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
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  return {
    append(type, data) {
      const event: StoredRunEvent = { seq: ++seq, type, data: capped(data), createdAt: new Date().toISOString() };
      chain = chain.then(async () => {
        if (failure) return;
        try {
          await db.runEvent.create({
            data: { runId, seq: event.seq, type: event.type, data: event.data as object, createdAt: new Date(event.createdAt) },
          });
          runEventBus().publishEvent(runId, event);
        } catch (err) {
          failure = err;
        }
      });
    },
    async flush() {
      await chain;
      if (failure) throw failure;
    },
  };
}
