// Server-Sent Events for one run: every stored event after `afterSeq` (the client's
// Last-Event-ID), then live ones, each with `id: <seq>`, never a gap or a repeat; an
// `end` event when the run is over. A finished run simply replays from storage; a live
// one joins the run's shared feed (run-feed.ts) first, then reads its own backfill, then
// sends what the feed delivered meanwhile, in order.
// Events that arrive together go out as one chunk (one write to the socket): the feed's
// batches as the feed joined them, and a run of stored or held-back events joined here.
// Every resource (the feed membership, the abort listener) is released once, whichever
// way the stream ends: run over, client gone, a client too slow to keep up, or a failure
// to read storage (the stream then errors, and the failure is logged).
import 'server-only';
import type { Db } from '../db';
import { eventStreams } from '../metrics';
import { storedEventReader } from './stored-event-reader';
import { MAX_SEQ } from './parse-after-seq';
import { joinRunFeed, type FeedOptions } from './run-feed';
import type { StoredRunEvent } from './run-event-bus';
import { errorContext, runsLog } from './runs-log';
import { END_FRAME, HEARTBEAT_FRAME, eventFrame, joinFrames } from './sse-frame';

export { CATCH_UP_MS, HEARTBEAT_MS } from './run-feed';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
/**
 * Bytes queued for a client that does not read: past this, its stream is closed (it
 * reconnects with Last-Event-ID and loses nothing) instead of holding memory for it.
 * Eight events of the largest size (MAX_EVENT_BYTES), or thousands of ordinary ones.
 */
export const MAX_QUEUED_BYTES = 2 * 1024 * 1024;

let liveStreams = 0;
/** streams whose resources are not released yet (tests check that none leak) */
export const openRunStreams = () => liveStreams;

export type StreamOptions = FeedOptions & {
  /** called once when the stream's resources are released, whichever way it ended (the route's hold on the caller's stream count) */
  onRelease?: () => void;
};

export function streamRunEvents(db: Db, runId: string, afterSeq: number, signal: AbortSignal, opts: StreamOptions = {}): ReadableStream<Uint8Array> {
  let last = afterSeq;
  let closed = false;
  let released = false;
  let live = false;
  /** the feed sends events after this seq; what lies before it this stream reads from storage */
  let feedFrom = 0;
  let leave = () => {};
  let onAbort = () => {};
  // what the feed delivered while this stream read its backfill
  const pending = new Map<number, { event: StoredRunEvent; frame: Uint8Array }>();

  const release = () => {
    closed = true;
    if (released) return;
    released = true;
    liveStreams--;
    eventStreams.dec();
    leave();
    signal.removeEventListener('abort', onAbort);
    opts.onRelease?.();
  };

  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        liveStreams++;
        eventStreams.inc();
        // frames written one event at a time (the backfill, what waited in `pending`), sent as
        // one chunk once the synchronous run of writes is over
        let out: Uint8Array[] = [];
        let outScheduled = false;
        const close = () => {
          if (closed) return;
          flushOut();
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
        function flushOut() {
          if (!out.length) return;
          const frames = out;
          out = [];
          enqueueNow(joinFrames(frames));
        }
        /** in order after any frames still in `out` */
        const enqueue = (bytes: Uint8Array) => {
          flushOut();
          enqueueNow(bytes);
        };
        const enqueueNow = (bytes: Uint8Array) => {
          if (closed) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) {
            // a client that stopped reading: erroring drops what is queued for it (closing would keep it)
            release();
            try {
              controller.error(new Error('the client is too far behind; reconnect with Last-Event-ID'));
            } catch {
              // already gone
            }
            return;
          }
          try {
            controller.enqueue(bytes);
          } catch {
            release(); // the stream is gone (the client went away)
          }
        };
        const write = (event: StoredRunEvent, frame?: Uint8Array) => {
          if (closed || event.seq !== last + 1) return;
          out.push(frame ?? eventFrame(event));
          last = event.seq;
          if (!outScheduled) {
            outScheduled = true;
            queueMicrotask(() => {
              outScheduled = false;
              flushOut();
            });
          }
          if (event.type === 'run-end') {
            enqueue(END_FRAME);
            close();
          }
        };
        // reads what storage has past `last`, one read at a time
        const stored = storedEventReader(db, runId, { position: () => last, deliver: (e) => write(e), stopped: () => closed });
        const catchUp = () => stored.read();
        const drainPending = () => {
          while (pending.has(last + 1)) {
            const next = pending.get(last + 1)!;
            pending.delete(last + 1);
            write(next.event, next.frame);
          }
          for (const seq of pending.keys()) if (seq <= last) pending.delete(seq);
          // a gap (never expected: the feed sends every event in order) is read from storage
          if (pending.size && !closed) catchUp().then(drainPending, fail);
        };

        onAbort = close;
        if (signal.aborted) return close();
        signal.addEventListener('abort', onAbort, { once: true });
        if (!Number.isInteger(afterSeq) || afterSeq < 0 || afterSeq > MAX_SEQ) {
          return fail(new RangeError(`afterSeq must be an integer from 0 to ${MAX_SEQ}`));
        }
        try {
          // join the run's feed before reading storage, so nothing falls between the two
          leave = joinRunFeed(
            db,
            runId,
            {
              events({ events, frames, bytes }) {
                if (closed) return;
                const end = events[events.length - 1];
                if (live && !stored.busy && pending.size === 0 && events[0].seq === last + 1) {
                  // the usual case: the whole batch in one write, as the feed joined it
                  enqueue(bytes);
                  last = end.seq;
                  if (end.type === 'run-end') {
                    enqueue(END_FRAME);
                    close();
                  }
                  return;
                }
                for (let i = 0; i < events.length; i++) pending.set(events[i].seq, { event: events[i], frame: frames[i] });
                if (live && !stored.busy) drainPending();
              },
              heartbeat: () => enqueue(HEARTBEAT_FRAME),
              from(seq) {
                feedFrom = Math.max(feedFrom, seq);
                if (live && last < feedFrom) catchUp().then(drainPending, fail);
              },
              end: () => {
                void (async () => {
                  if (stored.busy) await catchUp();
                  drainPending();
                  await catchUp();
                  enqueue(END_FRAME);
                  close();
                })().catch(fail);
              },
              fail,
            },
            { heartbeatMs: opts.heartbeatMs, catchUpMs: opts.catchUpMs },
          );
          await catchUp();
          live = true;
          if (last < feedFrom) await catchUp();
          drainPending();
          if (closed) return;
          // a run that ended before this stream joined (or without its run-end event) ends the stream
          const now = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
          if (!now || TERMINAL.has(now.status)) {
            await catchUp();
            enqueue(END_FRAME);
            close();
          }
        } catch (err) {
          fail(err);
        }
      },
      cancel() {
        release();
      },
    },
    // bytes are counted, so desiredSize says how much a client has left unread
    new ByteLengthQueuingStrategy({ highWaterMark: 1 }),
  );
}
