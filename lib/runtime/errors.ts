// The kernel's errors: the runtime's and the sandbox's codes of the one table in
// lib/errors.ts (status and meaning live there), thrown as RuntimeError.
// Codes are `<area>/<what>`; messages are for people, codes are for programs.
import { AppError, ERROR_CODES, type ErrorCode } from '../errors';

const RUNTIME_AREAS = ['ref', 'tool', 'token', 'params', 'returns', 'schema', 'capability', 'net', 'storage', 'runtime', 'sandbox'] as const;

type RuntimeArea = (typeof RUNTIME_AREAS)[number];
export type RuntimeErrorCode = Extract<ErrorCode, `${RuntimeArea}/${string}`> | 'internal';

const isRuntimeCode = (code: string) => code === 'internal' || RUNTIME_AREAS.some((a) => code.startsWith(`${a}/`));

/** The runtime's codes with their HTTP statuses (a view of lib/errors.ts's table). */
export const RUNTIME_ERROR_CODES = Object.fromEntries(
  Object.entries(ERROR_CODES)
    .filter(([code]) => isRuntimeCode(code))
    .map(([code, e]) => [code, e.status]),
) as Record<RuntimeErrorCode, number>;

export class RuntimeError extends AppError<RuntimeErrorCode> {
  constructor(code: RuntimeErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details ? { details } : {});
    this.name = 'RuntimeError';
  }
}

export function isRuntimeErrorCode(code: unknown): code is RuntimeErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(RUNTIME_ERROR_CODES, code);
}

/** HTTP status for a runtime error code (500 for codes this table does not know). */
export function httpStatusFor(code: string): number {
  return isRuntimeErrorCode(code) ? RUNTIME_ERROR_CODES[code] : 500;
}

/** Any thrown value as a RuntimeError, keeping a known code when the value carries one. */
export function toRuntimeError(err: unknown, fallback: RuntimeErrorCode = 'internal'): RuntimeError {
  if (err instanceof RuntimeError) return err;
  if (err && typeof err === 'object') {
    const { code, message } = err as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(err);
    if (isRuntimeErrorCode(code)) return new RuntimeError(code, text);
    return new RuntimeError(fallback, text);
  }
  return new RuntimeError(fallback, String(err));
}
