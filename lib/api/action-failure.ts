// The server actions' side of the one error mapping: what a form shows for any thrown
// value. Unexpected errors are logged with the request id (from proxy.ts) and the form
// shows that id instead of internals.
import 'server-only';
import { headers } from 'next/headers';
import { errorBody, mapError } from '../errors';
import { log, serializeError } from '../log';
import { requestIdFrom } from './with-api';

export type ActionFailure = { code: string; message: string; requestId?: string };

export async function actionFailure(err: unknown, where: string): Promise<ActionFailure> {
  const mapped = mapError(err);
  if (mapped.expected) return { code: mapped.code, message: mapped.message };
  const requestId = requestIdFrom((await headers()).get('x-request-id'));
  log.error('unexpected error', { requestId, where, err: serializeError(err) });
  return errorBody(mapped, requestId).error;
}
