// Appends a run's events in order. Each event gets the next seq at once and goes live to
// this process's subscribers at once; storage follows in batches (one insert for all
// events waiting), and other app instances are told only after their batch is stored,
// so what they read from the database never has a gap.
//
// Nothing is dropped silently and `seq` never has a gap: an event whose data cannot be
// stored (too deep, a cycle; NULs and lone surrogates are escaped, not refused) is
// replaced at its seq by a `log-error` event, and the log reports a failure that the
// run must end with (`onFailure`, `failure()`). When the database refuses a batch, its
// events are stored one by one with the same stand-in for any it refuses; when it
// refuses even that, or another worker has written this run's events (it took the run
// over), the log stops storing anything further. `run-end` is always the last event:
// anything appended after it (a tool call still settling after a cancel) is dropped.
//
// A run's stored trace has a budget (SKILLYARD_RUN_TRACE_MAX_BYTES, 8 MiB): once its
// events' JSON passes it, every later event is still stored at its seq, but each field
// larger than TRUNCATED_FIELD_BYTES is stored as "[truncated: N bytes]" (N: its JSON
// size). Without it one anonymous run of 190 parallel 250 KB results stored a 47 MB trace.
import 'server-only';
import type { Db } from '../db';
import { runEventBus, type StoredRunEvent } from './run-event-bus';
import { RunError, isUniqueViolation } from './run-errors';
import { storableString, toStorableJson } from './storable-json';
import { runLimits } from './run-limits';
import { errorContext, runsLog } from './runs-log';

export type RunFailure = { code: string; message: string };

export type RunEventLog = {
  append(type: string, data: Record<string, unknown>): void;
  /** resolves when everything appended so far is stored (or the log stopped) */
  flush(): Promise<void>;
  /** the first reason the run must fail because of its log, if any */
  failure(): RunFailure | null;
  /** true once the log stopped storing (database down, or the run taken over) */
  stopped(): boolean;
};

// Trace events may carry large tool results; the stored copy is capped.
export const MAX_EVENT_BYTES = 256 * 1024;

/** Past the trace budget, a field of an event whose JSON is longer than this is replaced by a marker. */
export const TRUNCATED_FIELD_BYTES = 256;

/**
 * The stored form of an event's data: JSON-safe, depth-checked per field, with the run's
 * secrets redacted (`scrub`, before the cap: a cut preview must not keep half a token), capped.
 */
export function storableEventData(type: string, data: Record<string, unknown>, scrub?: <T>(value: T) => T): Record<string, unknown> {
  return sizedEventData(type, data, scrub).data;
}

function sizedEventData(type: string, data: Record<string, unknown>, scrub?: <T>(value: T) => T): { data: Record<string, unknown>; bytes: number } {
  let out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const copy = toStorableJson(value, `the "${key}" of a ${type} event`);
    if (copy !== undefined) out[storableString(key)] = copy;
  }
  if (scrub) out = scrub(out);
  const json = JSON.stringify(out);
  if (json.length <= MAX_EVENT_BYTES) return { data: out, bytes: json.length };
  const capped = { truncated: true, bytes: json.length, preview: storableString(json.slice(0, 2000)) };
  return { data: capped, bytes: JSON.stringify(capped).length };
}

/** The event with each field over TRUNCATED_FIELD_BYTES replaced by "[truncated: N bytes]" (the trace is over its budget). */
function truncatedFields(data: Record<string, unknown>): { data: Record<string, unknown>; bytes: number } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const size = JSON.stringify(value)?.length ?? 0;
    out[key] = size > TRUNCATED_FIELD_BYTES ? `[truncated: ${size} bytes]` : value;
  }
  return { data: out, bytes: JSON.stringify(out).length };
}

function standIn(type: string, error: RunFailure): Record<string, unknown> {
  return { originalType: storableString(type).slice(0, 100), error, timestamp: Date.now() };
}

export async function openRunEventLog(
  db: Db,
  runId: string,
  opts: {
    onFailure?: (failure: RunFailure) => void;
    /** redacts the run's secrets from every event before it is stored or sent (lib/log/secret-scrubber.ts) */
    scrub?: <T>(value: T) => T;
    /** stored event JSON of the run past which large fields are truncated (default SKILLYARD_RUN_TRACE_MAX_BYTES) */
    traceMaxBytes?: number;
  } = {},
): Promise<RunEventLog> {
  const last = await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: 'desc' }, select: { seq: true } });
  let seq = last?.seq ?? 0;
  const traceMaxBytes = opts.traceMaxBytes ?? runLimits().traceMaxBytes;
  // what the run stored before this log opened (an earlier turn, another worker) counts too
  let traceBytes = 0;
  if (seq > 0) {
    const [row] = await db.$queryRaw<Array<{ bytes: bigint | number | null }>>`
      SELECT COALESCE(SUM(octet_length("data"::text)), 0)::bigint AS "bytes" FROM "RunEvent" WHERE "runId" = ${runId}`;
    traceBytes = Number(row?.bytes ?? 0);
  }
  let overBudget = false;
  let waiting: StoredRunEvent[] = [];
  let writing: Promise<void> | null = null;
  let failure: RunFailure | null = null;
  let stopped = false;
  let ended = false;

  const fail = (f: RunFailure) => {
    if (failure) return;
    failure = f;
    runsLog.error('run event log failure', { runId, code: f.code, message: f.message.slice(0, 300) });
    try {
      opts.onFailure?.(f);
    } catch (err) {
      runsLog.error('run event log failure handler threw', { runId, ...errorContext(err) });
    }
  };
  const stop = (f: RunFailure) => {
    stopped = true;
    waiting = [];
    fail(f);
  };
  const takenOver = (): RunFailure => ({
    code: 'run/lock-lost',
    message: 'Another worker took this run over (its heartbeat was missed); this worker stopped writing to it.',
  });

  const toRow = (e: StoredRunEvent) => ({ runId, seq: e.seq, type: e.type, data: e.data as object, createdAt: new Date(e.createdAt) });

  /** Stores a refused batch one event at a time; false when the log had to stop. */
  async function storeOneByOne(batch: StoredRunEvent[]): Promise<boolean> {
    for (const event of batch) {
      try {
        await db.runEvent.create({ data: toRow(event) });
        continue;
      } catch (err) {
        if (isUniqueViolation(err)) return (stop(takenOver()), false);
        const f = { code: 'run/event-log-failed', message: `The ${event.type} event (#${event.seq}) could not be stored.` };
        runsLog.error('event refused by the database', { runId, seq: event.seq, type: event.type, ...errorContext(err) });
        try {
          await db.runEvent.create({ data: toRow({ ...event, type: 'log-error', data: standIn(event.type, f) }) });
          fail(f);
        } catch (err2) {
          runsLog.error('run event log stopped', { runId, seq: event.seq, ...errorContext(err2) });
          return (stop({ code: 'run/event-log-failed', message: 'The run could not store its events (database error).' }), false);
        }
      }
    }
    return true;
  }

  async function writeLoop() {
    while (waiting.length > 0 && !stopped) {
      const batch = waiting;
      waiting = [];
      let stored = true;
      try {
        await db.runEvent.createMany({ data: batch.map(toRow) });
      } catch (err) {
        if (isUniqueViolation(err)) {
          stop(takenOver());
          stored = false;
        } else {
          runsLog.warn('event batch refused; storing one by one', { runId, from: batch[0].seq, to: batch.at(-1)!.seq, ...errorContext(err) });
          stored = await storeOneByOne(batch);
        }
      }
      if (stored) runEventBus().announceStored(runId, batch[batch.length - 1].seq);
    }
    writing = null;
  }

  return {
    append(type, data) {
      if (stopped) return;
      if (ended) {
        // a late event (a tool call still settling after the run stopped): run-end stays last
        runsLog.warn('event after run-end dropped', { runId, type });
        return;
      }
      if (type === 'run-end') ended = true;
      let event: StoredRunEvent;
      try {
        let sized = sizedEventData(type, data, opts.scrub);
        // run-end and agent-error carry the outcome (small: a status and a coded error)
        if (traceBytes + sized.bytes > traceMaxBytes && type !== 'run-end' && type !== 'agent-error') {
          if (!overBudget) {
            overBudget = true;
            runsLog.warn('run trace over its byte budget; large event fields are truncated from here on', { runId, seq: seq + 1, traceBytes, traceMaxBytes });
          }
          sized = truncatedFields(sized.data);
        }
        traceBytes += sized.bytes;
        event = { seq: seq + 1, type, data: sized.data, createdAt: new Date().toISOString() };
      } catch (err) {
        const f =
          err instanceof RunError
            ? { code: err.code, message: err.message }
            : { code: 'run/unstorable', message: `A ${type} event could not be stored: ${(err as Error).message}` };
        event = { seq: seq + 1, type: 'log-error', data: standIn(type, f), createdAt: new Date().toISOString() };
        fail(f);
      }
      seq = event.seq;
      runEventBus().publishLocal(runId, event);
      waiting.push(event);
      writing ??= writeLoop();
    },
    async flush() {
      while (writing) await writing;
    },
    failure: () => failure,
    stopped: () => stopped,
  };
}

/**
 * Appends events to a run whose log is not open here (a run failed by another worker's
 * stale check, or after its executor died): reads the last seq and inserts after it,
 * again if a late write of the old holder took that seq.
 */
export async function appendEventsOnce(db: Db, runId: string, events: Array<{ type: string; data: Record<string, unknown> }>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const last = await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: 'desc' }, select: { seq: true } });
    const from = (last?.seq ?? 0) + 1;
    const rows = events.map((e, i) => ({ runId, seq: from + i, type: e.type, data: storableEventData(e.type, e.data) as object }));
    try {
      await db.runEvent.createMany({ data: rows });
      runEventBus().announceStored(runId, from + rows.length - 1);
      return;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new RunError('run/event-log-failed', `Could not append the closing events of run ${runId}.`);
}
