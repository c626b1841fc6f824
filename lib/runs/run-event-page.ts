// A page of a run's stored events as JSON (GET /api/v1/runs/:id/events?format=json):
// the run page loads a finished run (or the backlog of a live one) in one request
// instead of one SSE message per event, then streams only what comes after `lastSeq`.
// Each event has the shape of an SSE frame's data (the run's seq, type and createdAt win).
import 'server-only';
import type { Db } from '../db/client';
import { listRunEvents } from './list-run-events';

/** events per JSON page: a 5,000-event run in one request, a bigger one in a few */
export const EVENT_PAGE_SIZE = 10_000;

export type RunEventPage = {
  events: Array<Record<string, unknown> & { seq: number; type: string; createdAt: string }>;
  /** the seq of the last event in the page (or `after` when it is empty): where to resume */
  lastSeq: number;
  /** more stored events past this page */
  more: boolean;
};

export async function runEventPage(db: Db, runId: string, after: number, size = EVENT_PAGE_SIZE): Promise<RunEventPage> {
  const rows = await listRunEvents(db, runId, after, size + 1);
  const more = rows.length > size;
  const page = more ? rows.slice(0, size) : rows;
  return {
    events: page.map((e) => ({ ...e.data, seq: e.seq, type: e.type, createdAt: e.createdAt })),
    lastSeq: page.length ? page[page.length - 1].seq : after,
    more,
  };
}
