// The run queue's log: lib/log's structured logger with `component: runs`, and error
// context (name, code, message; never configs, results or keys). Background failures
// that /api/health must show go through worker-health.ts (lib/log's failure registry).
import 'server-only';
import { log, serializeError, type LogFields } from '../log';

export const runsLog = log.child({ component: 'runs' });

export function errorContext(err: unknown): LogFields {
  return { err: serializeError(err) };
}
