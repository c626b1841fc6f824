// One error type for the kernel, with stable codes the API layer maps to HTTP statuses.
// Codes are `<area>/<what>`; messages are for people, codes are for programs.

export const RUNTIME_ERROR_CODES = {
  'ref/invalid': 400,
  'tool/not-found': 404,
  'tool/ambiguous': 409,
  'tool/hidden': 404,
  'tool/not-allowed': 403,
  'tool/failed': 422,
  'tool/no-handler': 501,
  'token/missing': 403,
  'token/expired': 403,
  'token/not-declared': 403,
  'token/foreign-issuer': 403,
  'token/reserved-issuer': 403,
  'token/invalid': 400,
  'params/invalid': 400,
  'returns/invalid': 502,
  'schema/invalid': 500,
  'capability/not-declared': 403,
  'capability/denied': 403,
  'capability/unavailable': 501,
  'capability/invalid-args': 400,
  'net/host-not-allowed': 403,
  'net/too-large': 502,
  'net/timeout': 504,
  'net/failed': 502,
  'storage/too-large': 413,
  'storage/quota-exceeded': 507,
  'runtime/subprocess-disabled': 501,
  'runtime/subprocess-failed': 502,
  'runtime/timeout': 504,
  'runtime/output-too-large': 502,
  'runtime/depth-exceeded': 508,
  'runtime/too-many-calls': 429,
  'runtime/unsupported-handler': 501,
  'runtime/file-not-found': 500,
  'runtime/compile-error': 422,
  'runtime/internal': 500,
  'sandbox/timeout': 504,
  'sandbox/cpu-limit': 504,
  'sandbox/memory-limit': 507,
  'sandbox/result-too-large': 502,
  'sandbox/too-many-host-calls': 429,
  'sandbox/compile-error': 422,
  'sandbox/no-entry': 422,
  'sandbox/guest-error': 422,
  'sandbox/host-error': 500,
  'sandbox/queue-full': 503,
  'sandbox/worker-crashed': 500,
  'sandbox/closed': 503,
} as const;

export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_CODES;

export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: RuntimeErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'RuntimeError';
    this.code = code;
    if (details) this.details = details;
  }

  toJSON(): { code: RuntimeErrorCode; message: string } {
    return { code: this.code, message: this.message };
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
export function toRuntimeError(err: unknown, fallback: RuntimeErrorCode = 'runtime/internal'): RuntimeError {
  if (err instanceof RuntimeError) return err;
  if (err && typeof err === 'object') {
    const { code, message } = err as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(err);
    if (isRuntimeErrorCode(code)) return new RuntimeError(code, text);
    return new RuntimeError(fallback, text);
  }
  return new RuntimeError(fallback, String(err));
}
