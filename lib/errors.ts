// The one application error: a stable `code` that the HTTP layer maps to a status and
// a `{error: {code, message}}` body, and a message a person can act on.

const STATUS_BY_PREFIX: Array<[RegExp, number]> = [
  [/\/not-found$/, 404],
  [/^auth\/unauthenticated$/, 401],
  [/^auth\/forbidden$|\/forbidden$/, 403],
  [/\/exists$|\/conflict$|version-exists$/, 409],
  [/\/too-large$/, 413],
  [/\/rate-limited$/, 429],
  [/^(input|publish|skill|params|tool)\//, 400],
];

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status ?? statusForCode(code);
  }
}

export function statusForCode(code: string): number {
  for (const [pattern, status] of STATUS_BY_PREFIX) if (pattern.test(code)) return status;
  return 500;
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
