// Sandbox failures travel as values ({ ok: false, error }) across the contract; inside the
// implementation they are thrown as SandboxFailure so every path keeps its stable code.
// The codes, statuses and meanings are rows of the one table in lib/errors.ts.
import { AppError } from '../errors';
import type { SandboxErrorCode, SandboxResult } from './types';

export class SandboxFailure extends AppError<SandboxErrorCode> {
  constructor(code: SandboxErrorCode, message: string) {
    super(code, message);
    this.name = 'SandboxFailure';
  }
}

export function failed(code: SandboxErrorCode, message: string, globals?: Record<string, unknown>): SandboxResult {
  return globals === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message }, globals };
}

/** Errors that mean the isolate may be in an unknown state and must not be reused. */
export const FATAL_CODES: ReadonlySet<SandboxErrorCode> = new Set<SandboxErrorCode>([
  'sandbox/timeout',
  'sandbox/cpu-limit',
  'sandbox/memory-limit',
  'sandbox/too-many-host-calls',
  'sandbox/worker-crashed',
]);
