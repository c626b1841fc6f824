// Messages between the pool (parent) and a sandbox worker process. Payloads that came
// from or go to a guest stay JSON text end to end, so each value is parsed once.
import type { RawResult } from './engine';
import type { SandboxJob } from './types';

export type ToWorker =
  | { t: 'job'; j: number; job: Omit<SandboxJob, 'signal'> }
  | { t: 'cancel'; j: number }
  /** answer to host call `c`: `v` is the result JSON (ok) or `{message, code}` JSON */
  | { t: 'hr'; c: number; ok: boolean; v?: string };

export type FromWorker =
  | { t: 'ready'; pid: number }
  | { t: 'hc'; j: number; c: number; m: string; a: string }
  | { t: 'res'; j: number; r: RawResult }
  /** a catastrophic V8 error in the isolate of job `j` (if known); the worker dies next */
  | { t: 'fatal'; message: string; j?: number };
