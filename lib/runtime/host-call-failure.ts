// What a guest learns when its host call fails. A coded error (a capability refusing, a
// quota, a tool's own error) reaches the guest as it is: it is about the guest's request.
// Anything else is a fault on the server's side (a database error, a bug): its text may
// hold internals (SQL, paths), so the guest, and through it a trace, gets an error id and
// the log gets the details.
import { randomBytes } from 'node:crypto';
import { isErrorCode } from '../errors';
import { log, serializeError } from '../log';

export function hostCallFailure(err: unknown, context: { method: string; skill: string; tool: string }): { code: string; message: string } {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e === 'object' && isErrorCode(e.code) && e.code !== 'internal') {
    return { code: e.code, message: typeof e.message === 'string' ? e.message : String(err) };
  }
  const errorId = randomBytes(6).toString('hex');
  log.error('host call failed', { component: 'runtime', ...context, errorId, err: serializeError(err) });
  return { code: 'internal', message: `the server failed while answering ${context.method} (error id ${errorId}; the server's log has the details)` };
}
