// One feed per live run in this process, shared by every viewer of that run: one bus
// subscription, one storage read per notice or timer tick, each event's frame encoded
// once. A shared link watched by a thousand people then costs the database what one
// viewer costs, not a thousand reads per event (stream-run-events.ts joins a feed after
// reading its own backfill from storage).
// Live events come from the bus (same process, or another instance's NOTIFY); storage is
// also read on a short timer, so a missed notice or a dropped LISTEN connection delays an
// event by CATCH_UP_MS at most and never stalls the viewers. A run that ended without its
// run-end event (its worker died) is seen by the status check and ends every viewer.
// Events published in one task (a storage read, the notices of one callback), or for a
// feed with many viewers in one turn of the event loop, go to each viewer as one batch: one write of
// the frames joined, so a burst (a turn's events, a storage read) costs each viewer one
// write instead of one per event, and a feed that falls behind batches more, not less.
import 'server-only';
import type { Db } from '../db';
import { sseFanout } from '../metrics';
import { runEventBus, type StoredRunEvent } from './run-event-bus';
import { errorContext, runsLog } from './runs-log';
import { storedEventReader } from './stored-event-reader';
import { eventFrame, joinFrames } from './sse-frame';

export const HEARTBEAT_MS = 15_000;
/** how often the feed reads storage whatever its notices say; skipped when an event arrived since */
export const CATCH_UP_MS = 1_000;
/** every this many ticks, the run's status too */
const STATUS_EVERY = 5;
/**
 * From this many viewers a feed batches the events of one event-loop turn (setImmediate):
 * bench:fanout (1,000 viewers) spent 3.2 s of server CPU with it against 4.5 s flushing each
 * task's events; with a viewer or two per run (bench:agent, 50 runs) waiting a turn doubled
 * the event -> SSE latency (p50 4 -> 10 ms).
 */
const BATCH_TURN_VIEWERS = 32;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** consecutive events (each seq the previous one's + 1), their frames, and those frames joined */
export type FeedBatch = { events: StoredRunEvent[]; frames: Uint8Array[]; bytes: Uint8Array };

export type FeedViewer = {
  /** the next events in order (the first one's seq = the previous batch's last + 1) */
  events(batch: FeedBatch): void;
  heartbeat(): void;
  /** the feed knows storage up to `seq` and sends only later events: a viewer behind it reads storage */
  from(seq: number): void;
  /** the run is over (its run-end event, if any, was sent before) */
  end(): void;
  fail(err: unknown): void;
};

export type FeedOptions = { heartbeatMs?: number; catchUpMs?: number };

type Feed = {
  /** the highest seq the feed has read from storage or the bus and sent on */
  last: number;
  viewers: Set<FeedViewer>;
  /** sends the viewers what was published and not sent yet */
  flush(): void;
  /** the run ended or the feed failed: it sends nothing more */
  closed: boolean;
  dispose(): void;
};

const feedsByDb = new WeakMap<Db, Map<string, Feed>>();

function openFeed(db: Db, runId: string, key: string, opts: FeedOptions, feeds: Map<string, Feed>): Feed {
  const viewers = new Set<FeedViewer>();
  const pending = new Map<number, StoredRunEvent>();
  let disposed = false;
  // unknown until the first look at storage; events heard before wait in `pending`
  let ready = false;
  const feed: Feed = { last: 0, viewers, closed: false, dispose, flush };
  // published, not yet sent to the viewers (sent at the end of the current task)
  let outEvents: StoredRunEvent[] = [];
  let outFrames: Uint8Array[] = [];
  // a flush is queued (end of this task, or of this loop turn for many viewers)
  let flushing = false;

  function dispose() {
    if (disposed) return;
    disposed = true;
    feed.closed = true;
    unsubscribe();
    flushing = false;
    clearInterval(heartbeat);
    clearInterval(ticker);
    if (feeds.get(key) === feed) feeds.delete(key);
  }
  const everyone = (fn: (v: FeedViewer) => void) => {
    for (const v of [...viewers]) fn(v);
  };
  const flushQueued = () => {
    if (flushing && !disposed) flush();
  };
  /** sends what was published to every viewer (always before anything else reaches them) */
  function flush() {
    flushing = false;
    if (!outEvents.length) return;
    const batch: FeedBatch = { events: outEvents, frames: outFrames, bytes: joinFrames(outFrames) };
    outEvents = [];
    outFrames = [];
    everyone((v) => v.events(batch));
    // each viewer's write to its socket follows in the microtasks after this task; the next
    // loop turn's timers see them all done (or waiting on a viewer's back-pressure), before its I/O
    // (an event whose time does not parse is not measured: observe() throws on NaN, in a timer)
    const created = Date.parse(batch.events[0].createdAt);
    if (Number.isFinite(created)) setTimeout(() => sseFanout.observe(Math.max(0, Date.now() - created) / 1000), 0);
  }
  const publish = (event: StoredRunEvent) => {
    if (disposed || event.seq !== feed.last + 1) return;
    feed.last = event.seq;
    outEvents.push(event);
    outFrames.push(eventFrame(event));
    if (event.type === 'run-end') {
      flush();
      everyone((v) => v.end());
      dispose();
    } else if (!flushing) {
      flushing = true;
      // a feed with many viewers waits a loop turn for more events (each write is paid per
      // viewer); a feed with few sends at the end of this task (no turn of latency)
      if (viewers.size >= BATCH_TURN_VIEWERS) setImmediate(flushQueued);
      else queueMicrotask(flushQueued);
    }
  };
  const drainPending = () => {
    while (pending.has(feed.last + 1)) {
      const next = pending.get(feed.last + 1)!;
      pending.delete(feed.last + 1);
      publish(next);
    }
    for (const seq of pending.keys()) if (seq <= feed.last) pending.delete(seq);
  };
  const fail = (err: unknown) => {
    if (disposed) return;
    runsLog.error('run feed failed', { runId, last: feed.last, ...errorContext(err) });
    flush();
    everyone((v) => v.fail(err));
    dispose();
  };
  const stored = storedEventReader(db, runId, { position: () => feed.last, deliver: publish, stopped: () => disposed, afterRound: drainPending });
  const catchUp = () => stored.read();
  // subscribed at once, so that an event published while the feed opens is not missed
  const unsubscribe = runEventBus().subscribe(runId, ({ event, seq }) => {
    if (disposed || (ready && seq <= feed.last)) return;
    if (ready && event && seq === feed.last + 1 && !stored.busy) {
      publish(event);
      drainPending();
    } else {
      if (event) pending.set(seq, event);
      if (ready) catchUp().catch(fail);
    }
  });
  void db.runEvent
    .aggregate({ where: { runId }, _max: { seq: true } })
    .then((top) => {
      // the viewers read what storage holds up to here themselves
      feed.last = Math.max(feed.last, top._max.seq ?? 0);
      ready = true;
      flush();
      everyone((v) => v.from(feed.last));
      drainPending();
      // a notice heard before that named a stored event past this point
      if (pending.size) return catchUp();
    })
    .catch(fail);
  const heartbeat = setInterval(() => everyone((v) => v.heartbeat()), opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref?.();
  let seenAtLastTick = feed.last;
  let ticks = 0;
  let ticking = false;
  const ticker = setInterval(() => {
    if (disposed || ticking || !ready) return;
    ticks++;
    const checkStatus = ticks % STATUS_EVERY === 0;
    if (feed.last !== seenAtLastTick && !checkStatus) {
      seenAtLastTick = feed.last;
      return;
    }
    ticking = true;
    void (async () => {
      await catchUp();
      if (checkStatus && !disposed) {
        const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
        if (!disposed && (!run || TERMINAL.has(run.status))) {
          await catchUp();
          if (!disposed) {
            flush();
            everyone((v) => v.end());
            dispose();
          }
        }
      }
      seenAtLastTick = feed.last;
    })()
      .catch(fail)
      .finally(() => (ticking = false));
  }, opts.catchUpMs ?? CATCH_UP_MS);
  ticker.unref?.();
  feeds.set(key, feed);
  return feed;
}

/**
 * Adds a viewer to the run's feed (opening it if this is the first). The viewer reads
 * its backfill from storage itself, after joining, and is sent every event the feed
 * hears from then on, in order. `leave()` removes it; the last one to leave closes the feed.
 */
export function joinRunFeed(db: Db, runId: string, viewer: FeedViewer, opts: FeedOptions = {}): () => void {
  let feeds = feedsByDb.get(db);
  if (!feeds) feedsByDb.set(db, (feeds = new Map()));
  const key = `${runId}:${opts.catchUpMs ?? ''}:${opts.heartbeatMs ?? ''}`;
  const found = feeds.get(key);
  const feed = found && !found.closed ? found : openFeed(db, runId, key, opts, feeds);
  // what was published before this viewer joined goes to the others only (it reads storage up to feed.last)
  feed.flush();
  feed.viewers.add(viewer);
  if (found === feed && feed.last > 0) viewer.from(feed.last);
  return () => {
    feed.viewers.delete(viewer);
    if (feed.viewers.size === 0) feed.dispose();
  };
}

/** feeds open in this process for this database (tests check that none leak) */
export function runFeedCount(db: Db): number {
  return feedsByDb.get(db)?.size ?? 0;
}
