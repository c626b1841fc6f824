'use client';
// Loads a run's stored events as JSON pages (a finished run, or the backlog of a live
// one; a page holds at most 10,000 events and about SKILLYARD_RUN_EVENT_PAGE_BYTES),
// folds them into the trace in slices of a few milliseconds that yield to the browser,
// and sets the trace once (a transition, which React renders in slices too); then it
// subscribes to the Server-Sent Events after the last stored seq only (EventSource resumes
// after Last-Event-ID on its own) and folds live events in once per animation frame. A
// run whose stored events end with run-end needs no stream at all.
import { startTransition, useEffect, useState } from 'react';
import { TraceBuilder, type RunEvent, type RunStatus, type TraceState } from '@/lib/trace';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'closed';

type EventPage = { events: RunEvent[]; lastSeq: number; more: boolean };
const MAX_PAGES = 50;
/** main-thread time one slice of the fold may take before it yields */
const SLICE_MS = 8;

/** Resolves in a new task: what came before it is one task, what comes after another. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Folds `events` into `builder` a slice at a time (the parse of a page is a task of its own). */
async function applyInSlices(builder: TraceBuilder, events: RunEvent[], signal: AbortSignal): Promise<void> {
  let i = 0;
  while (i < events.length) {
    await nextTask();
    if (signal.aborted) return;
    const end = performance.now() + SLICE_MS;
    do {
      const stop = Math.min(events.length, i + 64);
      for (; i < stop; i++) builder.apply(events[i]);
    } while (i < events.length && performance.now() < end);
  }
}

/** The stored events after `after`, page by page; null when the JSON route fails (the stream then replays them). */
async function loadStored(runId: string, signal: AbortSignal): Promise<{ events: RunEvent[]; lastSeq: number } | null> {
  const events: RunEvent[] = [];
  let after = 0;
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await fetch(`/api/v1/runs/${runId}/events?format=json&after=${after}`, { signal, cache: 'no-store' });
    if (!res.ok) return events.length ? { events, lastSeq: after } : null;
    const page = (await res.json()) as EventPage;
    for (const e of page.events) events.push(e);
    after = page.lastSeq;
    if (!page.more) break;
  }
  return { events, lastSeq: after };
}

export function useRunTrace(runId: string, initialStatus: RunStatus) {
  const [trace, setTrace] = useState<TraceState>(() => new TraceBuilder(initialStatus).snapshot());
  const [connection, setConnection] = useState<Connection>('connecting');

  useEffect(() => {
    const builder = new TraceBuilder(initialStatus);
    const queue: RunEvent[] = [];
    const aborter = new AbortController();
    let source: EventSource | null = null;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let seen = 0;
    const flush = () => {
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
      frame = 0;
      timer = null;
      if (queue.length === 0) return;
      for (const event of queue.splice(0)) builder.apply(event);
      setTrace(builder.snapshot());
    };
    // one state update per frame however many events arrived; the timer covers hidden tabs
    const schedule = () => {
      if (frame || timer) return;
      frame = requestAnimationFrame(flush);
      timer = setTimeout(flush, 250);
    };
    const subscribe = (after: number) => {
      if (aborter.signal.aborted) return;
      seen = Math.max(seen, after);
      const s = new EventSource(`/api/v1/runs/${runId}/events${after > 0 ? `?after=${after}` : ''}`);
      source = s;
      let ended = false;
      s.onopen = () => setConnection('live');
      s.onmessage = (m) => {
        try {
          const event = JSON.parse(m.data) as RunEvent;
          // the SSE id is the run's sequence number (what a reconnect resumes after)
          const id = Number(m.lastEventId);
          if (Number.isInteger(id) && id > seen) seen = id;
          queue.push(Number.isInteger(id) && id > 0 ? { ...event, seq: id } : event);
          schedule();
        } catch {
          // a malformed frame is skipped; the seq check will show the gap
        }
      };
      s.addEventListener('end', () => {
        ended = true;
        s.close();
        flush();
        setConnection('closed');
      });
      s.onerror = () => {
        // EventSource gives up on a non-200 answer (429: this caller has too many streams
        // open, SKILLYARD_MAX_STREAMS_PER_CALLER); try again later from the last event seen
        if (s.readyState === EventSource.CLOSED && !ended && !aborter.signal.aborted) {
          setConnection('reconnecting');
          retry = setTimeout(() => subscribe(seen), 5000);
        } else setConnection(s.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
      };
    };

    loadStored(runId, aborter.signal)
      .then(async (stored) => {
        if (aborter.signal.aborted) return;
        if (!stored) return subscribe(0);
        if (stored.events.length) {
          await applyInSlices(builder, stored.events, aborter.signal);
          if (aborter.signal.aborted) return;
          const snapshot = builder.snapshot();
          // a transition: React renders the long trace in slices that yield to the browser, not in one long task
          startTransition(() => setTrace(snapshot));
        }
        // the stored trace is complete: nothing more will come
        if (stored.events.at(-1)?.type === 'run-end') setConnection('closed');
        else subscribe(stored.lastSeq);
      })
      .catch(() => {
        if (!aborter.signal.aborted) subscribe(0);
      });
    return () => {
      aborter.abort();
      source?.close();
      if (retry) clearTimeout(retry);
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, [runId, initialStatus]);

  return { trace, connection };
}
