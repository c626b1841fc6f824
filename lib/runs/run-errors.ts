// Errors of the run queue and its event log, with stable codes that end up in a failed
// run's `error` and its `agent-error` event; statuses and meanings are rows of lib/errors.ts.
import 'server-only';
import { AppError } from '../errors';

export type RunErrorCode =
  'run/too-deep' | 'run/unstorable' | 'run/event-log-failed' | 'run/input-timeout' | 'run/lock-lost' | 'run/worker-lost' | 'run/worker-stopped' | 'run/crashed' | 'run/failed';

export class RunError extends AppError<RunErrorCode> {
  constructor(code: RunErrorCode, message: string) {
    super(code, message);
    this.name = 'RunError';
  }
}

export const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === 'P2002';
