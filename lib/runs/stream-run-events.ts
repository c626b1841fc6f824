// Server-Sent Events for one run: every stored event after `afterSeq` (the client's
// Last-Event-ID), then live ones, each with `id: <seq>`, never a gap or a repeat; an
// `end` event when the run is over. A finished run simply replays from storage.
import type { Db } from '../db/client';
import { listRunEvents } from './list-run-events';
import { runEventBus, type StoredRunEvent } from './run-event-bus';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

function frame(event: StoredRunEvent): Uint8Array {
  // the run's seq wins over the agent's own `seq` inside the data (they differ once the run adds events)
  const payload = JSON.stringify({ ...event.data, seq: event.seq, type: event.type, createdAt: event.createdAt });
  return encoder.encode(`id: ${event.seq}\ndata: ${payload}\n\n`);
}

export function streamRunEvents(db: Db, runId: string, afterSeq: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  let last = afterSeq;
  let closed = false;
  let catchingUp: Promise<void> | null = null;
  const pending = new Map<number, StoredRunEvent>();
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | null = null;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        if (heartbeat) clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const write = (event: StoredRunEvent) => {
        if (closed || event.seq !== last + 1) return;
        controller.enqueue(frame(event));
        last = event.seq;
        if (event.type === 'run-end') {
          controller.enqueue(encoder.encode(`event: end\ndata: {}\n\n`));
          close();
        }
      };
      const drainPending = () => {
        while (pending.has(last + 1)) {
          const next = pending.get(last + 1)!;
          pending.delete(last + 1);
          write(next);
        }
        for (const seq of pending.keys()) if (seq <= last) pending.delete(seq);
      };
      // reads what storage has past `last`; a call during a read makes that read go
      // round once more, so an event stored meanwhile is never missed
      let again = false;
      const catchUp = (): Promise<void> => {
        again = true;
        catchingUp ??= (async () => {
          try {
            while (again && !closed) {
              again = false;
              for (;;) {
                const batch = await listRunEvents(db, runId, last, 500);
                for (const e of batch) write(e);
                if (batch.length < 500 || closed) break;
              }
              drainPending();
            }
          } finally {
            catchingUp = null;
          }
        })();
        return catchingUp;
      };

      signal.addEventListener('abort', close);
      // subscribe before reading storage, so nothing falls between the two
      unsubscribe = runEventBus().subscribe(runId, ({ event, seq }) => {
        if (closed || seq <= last) return;
        if (event && seq === last + 1 && !catchingUp) {
          write(event);
          drainPending();
        } else {
          if (event) pending.set(seq, event);
          void catchUp();
        }
      });
      heartbeat = setInterval(() => !closed && controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS);
      await catchUp();
      if (!closed) {
        const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
        // a run that ended without its run-end event (should not happen) still ends the stream
        if (run && TERMINAL.has(run.status)) {
          await catchUp();
          if (!closed) {
            controller.enqueue(encoder.encode(`event: end\ndata: {}\n\n`));
            close();
          }
        }
      }
    },
    cancel() {
      closed = true;
      unsubscribe();
      if (heartbeat) clearInterval(heartbeat);
    },
  });
}
