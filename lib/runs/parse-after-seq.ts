// Where a client resumes a run's event stream: the `Last-Event-ID` header (EventSource
// sends it on reconnect) or `?after=`. A seq is a Postgres integer, so only 0..2^31-1
// in plain decimal digits is accepted; anything else is a 400, never a database error.
import 'server-only';
import { AppError } from '../errors';

export const MAX_SEQ = 2 ** 31 - 1;

export function parseAfterSeq(lastEventId: string | null, afterParam: string | null): number {
  const raw = lastEventId ?? afterParam;
  if (raw === null || raw.trim() === '') return 0;
  const value = raw.trim();
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_SEQ) {
    throw new AppError('input/invalid-event-id', `${lastEventId !== null ? 'Last-Event-ID' : 'after'} must be an event id (a whole number from 0 to ${MAX_SEQ}).`);
  }
  return Number(value);
}
