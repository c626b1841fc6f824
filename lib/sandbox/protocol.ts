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
  /** warm-isolate key */
  k: string;
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
