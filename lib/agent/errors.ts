// One error type for the agent with stable codes (CONVENTIONS: error classes with a code);
// the codes, HTTP statuses and meanings are rows of the one table in lib/errors.ts.
import { AppError } from '../errors';

export type AgentErrorCode =
  | 'agent/config'
  | 'agent/cancelled'
  | 'agent/max-turns'
  | 'agent/max-steps'
  | 'agent/ref-refused'
  | 'agent/tool-unavailable'
  | 'token/missing'
  | 'agent/returns-invalid'
  | 'agent/no-middleware'
  | 'agent/hook-failed'
  | 'provider/http'
  | 'provider/rate-limited'
  | 'provider/network'
  | 'provider/stream-interrupted'
  | 'provider/bad-response'
  | 'provider/script-exhausted'
  | 'provider/aborted';

export class AgentError extends AppError<AgentErrorCode> {
  /** true when repeating the same request may succeed (429, 5xx, dropped connections) */
  readonly retryable: boolean;
  /** the model provider's HTTP status, when it answered (`status` is this server's, from the table) */
  readonly providerStatus: number | null;

  constructor(code: AgentErrorCode, message: string, opts: { retryable?: boolean; providerStatus?: number | null; cause?: unknown } = {}) {
    super(code, message, opts.cause === undefined ? {} : { cause: opts.cause });
    this.name = 'AgentError';
    this.retryable = opts.retryable ?? false;
    this.providerStatus = opts.providerStatus ?? null;
  }
}

/** A plain, serialisable view of any thrown value (for events and tool results). */
export function describeError(err: unknown): { code: string; message: string } {
  if (err instanceof AgentError) return { code: err.code, message: err.message };
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; name?: unknown };
    const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error';
    return { code, message: typeof e.message === 'string' ? e.message : String(err) };
  }
  return { code: 'error', message: String(err) };
}

export function isAbortError(err: unknown): boolean {
  return (
    (err instanceof AgentError && (err.code === 'provider/aborted' || err.code === 'agent/cancelled')) ||
    (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'))
  );
}
