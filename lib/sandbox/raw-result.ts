// What crosses the worker boundary: a job's result with its value and globals still as
// JSON text, host calls on raw JSON, and the failures both sides build.
import { parseUntrustedJson } from './json';
import type { HostCallHandler, SandboxErrorCode, SandboxResult } from './types';

export const CANCELLED = 'the job was cancelled by its caller';

/** Host call on raw JSON: resolves with the result's JSON (undefined for `undefined`). */
export type RawHostCall = (method: string, argsJson: string) => Promise<string | undefined>;

/** SandboxResult with the value and globals still as JSON text (what crosses process IPC). */
export type RawResult = (
  | { ok: true; valueJson?: string; globalsJson?: string; stats: { wallMs: number; cold: boolean } }
  | { ok: false; error: { code: SandboxErrorCode; message: string }; globalsJson?: string }
) & {
  /** the guest's CPU time in the job, as its worker measured it (the pool's confinement.ts reads it) */
  cpuMs?: number;
};

/** Calls a HostCallHandler with parsed args; a throw becomes `{message, code}`. */
export async function callHandlerRaw(handler: HostCallHandler, method: string, argsJson: string): Promise<string | undefined> {
  const parsed = parseUntrustedJson(argsJson);
  const value = await handler(method, Array.isArray(parsed) ? parsed : []);
  return JSON.stringify(value);
}

export function decodeRawResult(raw: RawResult): SandboxResult {
  const globals = raw.globalsJson === undefined ? undefined : (parseUntrustedJson(raw.globalsJson) as Record<string, unknown>);
  if (!raw.ok) return globals === undefined ? { ok: false, error: raw.error } : { ok: false, error: raw.error, globals };
  const value = parseUntrustedJson(raw.valueJson);
  return globals === undefined ? { ok: true, value, stats: raw.stats } : { ok: true, value, globals, stats: raw.stats };
}

export function rawFailure(code: SandboxErrorCode, message: string, globalsJson?: string): RawResult {
  return globalsJson === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message }, globalsJson };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Host-call rejections become `{message, code}` JSON for the guest; never a stack. */
export function hostErrorJson(error: unknown): string {
  const message =
    error instanceof Error ? error.message : typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error);
  const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
  return JSON.stringify({ message, code });
}
