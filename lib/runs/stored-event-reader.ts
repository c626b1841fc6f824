// Reads a run's stored events past a position, in batches, one read at a time: a call
// while a read is in progress makes that read go round once more, so an event stored
// meanwhile is never missed and two reads never race. Shared by the run's feed and each
// stream's backfill.
import 'server-only';
import type { Db } from '../db';
import { listRunEvents } from './list-run-events';
import type { StoredRunEvent } from './run-event-bus';

export type StoredEventReader = {
  /** reads what storage holds past `position()`; resolves when caught up */
  read(): Promise<void>;
  /** a read is in progress */
  readonly busy: boolean;
};

export function storedEventReader(
  db: Db,
  runId: string,
  opts: { position: () => number; deliver: (event: StoredRunEvent) => void; stopped: () => boolean; afterRound?: () => void },
): StoredEventReader {
  let reading: Promise<void> | null = null;
  let again = false;
  return {
    read() {
      again = true;
      reading ??= (async () => {
        try {
          while (again && !opts.stopped()) {
            again = false;
            for (;;) {
              const batch = await listRunEvents(db, runId, opts.position(), 500);
              for (const e of batch) opts.deliver(e);
              if (batch.length < 500 || opts.stopped()) break;
            }
            opts.afterRound?.();
          }
        } finally {
          reading = null;
        }
      })();
      return reading;
    },
    get busy() {
      return reading !== null;
    },
  };
}
