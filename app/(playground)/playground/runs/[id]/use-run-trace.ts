'use client';
// Subscribes to a run's Server-Sent Events (EventSource resumes after Last-Event-ID on
// its own) and folds them into the trace once per animation frame.
import { useEffect, useState } from 'react';
import { TraceBuilder, type RunEvent, type RunStatus, type TraceState } from '@/lib/trace/trace-model';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'closed';

export function useRunTrace(runId: string, initialStatus: RunStatus) {
  const [trace, setTrace] = useState<TraceState>(() => new TraceBuilder(initialStatus).snapshot());
  const [connection, setConnection] = useState<Connection>('connecting');

  useEffect(() => {
    const builder = new TraceBuilder(initialStatus);
    const queue: RunEvent[] = [];
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
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
    const source = new EventSource(`/api/v1/runs/${runId}/events`);
    source.onopen = () => setConnection('live');
    source.onmessage = (m) => {
      try {
        const event = JSON.parse(m.data) as RunEvent;
        // the SSE id is the run's sequence number (what a reconnect resumes after)
        const id = Number(m.lastEventId);
        queue.push(Number.isInteger(id) && id > 0 ? { ...event, seq: id } : event);
        schedule();
      } catch {
        // a malformed frame is skipped; the seq check will show the gap
      }
    };
    source.addEventListener('end', () => {
      source.close();
      flush();
      setConnection('closed');
    });
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    return () => {
      source.close();
      cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, [runId, initialStatus]);

  return { trace, connection };
}
