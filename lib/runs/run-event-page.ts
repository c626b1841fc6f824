// A page of a run's stored events as JSON (GET /api/v1/runs/:id/events?format=json):
// the run page loads a finished run (or the backlog of a live one) in a few requests
// instead of one SSE message per event, then streams only what comes after `lastSeq`.
// Each event has the shape of an SSE frame's data (the run's seq, type and createdAt win).
// A page holds at most `size` events and about `maxBytes` of event JSON (measured in
// Postgres before any row is read): a 47 MB trace in one response let one client with 16
// parallel requests grow the web process past a gigabyte and stall everybody else.
import 'server-only';
import type { Db } from '../db';
import { listRunEvents } from './list-run-events';
import { runLimits } from './run-limits';

/** events per JSON page: a 5,000-event run in one request, a bigger one in a few */
export const EVENT_PAGE_SIZE = 10_000;

export type RunEventPage = {
  events: Array<Record<string, unknown> & { seq: number; type: string; createdAt: string }>;
  /** the seq of the last event in the page (or `after` when it is empty): where to resume */
  lastSeq: number;
  /** more stored events past this page */
  more: boolean;
};

export async function runEventPage(db: Db, runId: string, after: number, size = EVENT_PAGE_SIZE, maxBytes = runLimits().eventPageMaxBytes): Promise<RunEventPage> {
  const sizes = await db.$queryRaw<Array<{ seq: number; bytes: number }>>`
    SELECT "seq", octet_length("data"::text)::int AS "bytes" FROM "RunEvent"
    WHERE "runId" = ${runId} AND "seq" > ${after} ORDER BY "seq" LIMIT ${size + 1}`;
  let take = 0;
  let bytes = 0;
  while (take < Math.min(size, sizes.length)) {
    bytes += sizes[take].bytes;
    if (take > 0 && bytes > maxBytes) break; // the first event always goes, however large
    take++;
  }
  const page = take ? await listRunEvents(db, runId, after, take) : [];
  return {
    events: page.map((e) => ({ ...e.data, seq: e.seq, type: e.type, createdAt: e.createdAt })),
    lastSeq: page.length ? page[page.length - 1].seq : after,
    more: sizes.length > take,
  };
}
