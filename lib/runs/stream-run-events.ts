// Server-Sent Events for one run: every stored event after `afterSeq` (the client's
// Last-Event-ID), then live ones, each with `id: <seq>`, never a gap or a repeat; an
// `end` event when the run is over. A finished run simply replays from storage.
// Live events come from the bus (same process, or another instance's NOTIFY); storage is
// also read on a short timer (CATCH_UP_MS), so a missed notice never stalls a stream.
// Every resource (the bus subscription, the timers, the abort listener) is
// released once, whichever way the stream ends: run over, client gone, or a failure to
// read storage (the stream then errors, and the failure is logged).
import 'server-only';
import type { Db } from '../db/client';
import { eventStreams } from '../metrics';
import { listRunEvents } from './list-run-events';
import { MAX_SEQ } from './parse-after-seq';
import { runEventBus, type StoredRunEvent } from './run-event-bus';
import { errorContext, runsLog } from './runs-log';
import { END_FRAME, HEARTBEAT_FRAME, eventFrame } from './sse-frame';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
export const HEARTBEAT_MS = 15_000;
/**
 * How often a stream reads storage whatever its notices say: a NOTIFY missed, or a LISTEN
 * connection dropped, delays an event by this much at most and never stalls the stream.
 * Skipped when an event arrived since the last look.
 */
export const CATCH_UP_MS = 1_000;
/** every this many catch-ups, the run's status too (a run that ended without its run-end) */
const STATUS_EVERY = 5;

let liveStreams = 0;
/** streams whose resources are not released yet (tests check that none leak) */
export const openRunStreams = () => liveStreams;

export function streamRunEvents(
  db: Db,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
  opts: { heartbeatMs?: number; catchUpMs?: number } = {},
): ReadableStream<Uint8Array> {
  let last = afterSeq;
  let closed = false;
  let released = false;
  let catchingUp: Promise<void> | null = null;
  const pending = new Map<number, StoredRunEvent>();
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | null = null;
  let catchUpTimer: NodeJS.Timeout | null = null;
  let onAbort = () => {};

  const release = () => {
    closed = true;
    if (released) return;
    released = true;
    liveStreams--;
    eventStreams.dec();
    unsubscribe();
    if (heartbeat) clearInterval(heartbeat);
    if (catchUpTimer) clearInterval(catchUpTimer);
    heartbeat = null;
    catchUpTimer = null;
    signal.removeEventListener('abort', onAbort);
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      liveStreams++;
      eventStreams.inc();
      const close = () => {
        if (closed) return;
        release();
        try {
          controller.close();
        } catch {
          // the client cancelled the stream already
        }
      };
      const fail = (err: unknown) => {
        if (closed) return;
        runsLog.error('event stream failed', { runId, afterSeq, last, ...errorContext(err) });
        release();
        try {
          controller.error(err);
        } catch {
          // already errored or cancelled
        }
      };
      const enqueue = (bytes: Uint8Array) => {
        try {
          controller.enqueue(bytes);
        } catch {
          release(); // the stream is gone (the client went away)
        }
      };
      const write = (event: StoredRunEvent) => {
        if (closed || event.seq !== last + 1) return;
        enqueue(eventFrame(event));
        last = event.seq;
        if (event.type === 'run-end') {
          enqueue(END_FRAME);
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

      onAbort = close;
      if (signal.aborted) return close();
      signal.addEventListener('abort', onAbort, { once: true });
      if (!Number.isInteger(afterSeq) || afterSeq < 0 || afterSeq > MAX_SEQ) {
        return fail(new RangeError(`afterSeq must be an integer from 0 to ${MAX_SEQ}`));
      }
      // subscribe before reading storage, so nothing falls between the two
      unsubscribe = runEventBus().subscribe(runId, ({ event, seq }) => {
        if (closed || seq <= last) return;
        if (event && seq === last + 1 && !catchingUp) {
          write(event);
          drainPending();
        } else {
          if (event) pending.set(seq, event);
          catchUp().catch(fail);
        }
      });
      heartbeat = setInterval(() => !closed && enqueue(HEARTBEAT_FRAME), opts.heartbeatMs ?? HEARTBEAT_MS);
      // a run that ended without its run-end event (its worker died) still ends the stream
      const endIfOver = async () => {
        const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
        if (closed || !run || !TERMINAL.has(run.status)) return;
        await catchUp();
        if (!closed) {
          enqueue(END_FRAME);
          close();
        }
      };
      let seenAtLastLook = last;
      let looks = 0;
      let looking = false;
      catchUpTimer = setInterval(() => {
        if (closed || looking) return;
        looks++;
        const checkStatus = looks % STATUS_EVERY === 0;
        if (last !== seenAtLastLook && !checkStatus) {
          seenAtLastLook = last;
          return;
        }
        looking = true;
        void (async () => {
          await catchUp();
          if (checkStatus && !closed) await endIfOver();
          seenAtLastLook = last;
        })().catch(fail).finally(() => (looking = false));
      }, opts.catchUpMs ?? CATCH_UP_MS);
      catchUpTimer.unref?.();
      try {
        await catchUp();
        if (closed) return;
        await endIfOver();
      } catch (err) {
        fail(err);
      }
    },
    cancel() {
      release();
    },
  });
}
