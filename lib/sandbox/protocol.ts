// Messages between the pool (parent) and a sandbox worker process, sent as frames
// (frame.ts) on the worker's fd 3. Payloads that came from or go to a guest stay JSON text
// end to end, so each value is parsed once. Sources and preludes travel once per worker:
// the pool numbers them (`c`, `pi`), sends the text with the first job that needs it, and
// later jobs name the number only. `x` clears the worker's table first (the pool's table
// is bounded and starts over when full).
import type { RawResult } from './engine';
import type { SandboxLimits } from './types';

export type JobFrame = {
  t: 'job';
  j: number;
  /** warm-isolate key, and the job's principal when it has one (fair eviction of idle isolates) */
  k: string;
  q?: string;
  /** source id, and its text when the worker has not seen it */
  c: number;
  s?: string;
  /** prelude id (0 = none), and its text when new */
  pi: number;
  p?: string;
  /** entry, args JSON, host methods, globals JSON, returnGlobals JSON, limits */
  e: string;
  a: string;
  m: string[];
  g?: string;
  r?: string;
  l?: SandboxLimits;
  x?: 1;
};

export type ToWorker =
  | JobFrame
  | { t: 'cancel'; j: number }
  /** answer to host call `c`: `v` is the result JSON (ok) or `{message, code}` JSON */
  | { t: 'hr'; c: number; ok: boolean; v?: string };

export type FromWorker =
  | { t: 'ready'; pid: number }
  | { t: 'hc'; j: number; c: number; m: string; a: string }
  | { t: 'res'; j: number; r: RawResult }
  /** a catastrophic V8 error or a missed deadline in job `j` (if known); the worker dies next */
  | { t: 'fatal'; message: string; j?: number };

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const optString = (v: unknown) => v === undefined || typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isRawResult(v: unknown): v is RawResult {
  if (!isObject(v) || !optString(v.globalsJson)) return false;
  if (v.ok === true) return optString(v.valueJson) && isObject(v.stats) && typeof v.stats.wallMs === 'number' && typeof v.stats.cold === 'boolean';
  return v.ok === false && isObject(v.error) && typeof v.error.code === 'string' && typeof v.error.message === 'string';
}

/**
 * A frame from a worker has one of the shapes above: the pool checks before it acts, since
 * a worker whose guest escaped can send anything (the pool then kills it).
 */
export function isFromWorker(m: unknown): m is FromWorker {
  if (!isObject(m)) return false;
  switch (m.t) {
    case 'ready':
      return isInt(m.pid);
    case 'hc':
      return isInt(m.j) && isInt(m.c) && typeof m.m === 'string' && typeof m.a === 'string';
    case 'res':
      return isInt(m.j) && isRawResult(m.r);
    case 'fatal':
      return typeof m.message === 'string' && (m.j === undefined || isInt(m.j));
    default:
      return false;
  }
}
