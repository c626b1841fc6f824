// The run queue's limits, from the environment (read at each use, so a test or an
// operator's restart picks up new values). Defaults and meaning: docs/security.md "Runs".
import 'server-only';

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

export type RunLimits = {
  /** runs one worker executes at once; a run waiting for a person's turn holds none */
  concurrency: number;
  /** queued + running runs of one signed-in user, or of one anonymous client */
  maxActivePerPrincipal: number;
  /** queued + running runs of all anonymous clients together */
  maxActiveAnonymous: number;
  /** how long a manual run waits for its next turn before it fails */
  inputTimeoutMs: number;
  /** stored event JSON of one run past which large event fields are stored as a truncation marker */
  traceMaxBytes: number;
  /** how often a worker renews its claims and reads cancels */
  heartbeatSeconds: number;
  /** a claim not renewed for this long: its worker is taken for dead (retry or fail) */
  staleAfterSeconds: number;
  /** claims of one run at most: a run whose worker died before any tool call is retried until then */
  maxAttempts: number;
  /** event JSON in one `?format=json` page (at least one event per page, whatever its size) */
  eventPageMaxBytes: number;
};

export function runLimits(): RunLimits {
  return {
    concurrency: intFromEnv('SKILLYARD_RUN_CONCURRENCY', 16, 1),
    maxActivePerPrincipal: intFromEnv('SKILLYARD_RUN_MAX_ACTIVE', 8, 1),
    maxActiveAnonymous: intFromEnv('SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS', 32, 0),
    inputTimeoutMs: intFromEnv('SKILLYARD_RUN_INPUT_TIMEOUT_SECONDS', 600, 1) * 1000,
    traceMaxBytes: intFromEnv('SKILLYARD_RUN_TRACE_MAX_BYTES', 8 * 1024 * 1024, 0),
    heartbeatSeconds: intFromEnv('SKILLYARD_RUN_HEARTBEAT_SECONDS', 10, 1),
    staleAfterSeconds: intFromEnv('SKILLYARD_RUN_STALE_SECONDS', 45, 2),
    maxAttempts: intFromEnv('SKILLYARD_RUN_MAX_ATTEMPTS', 3, 1),
    eventPageMaxBytes: intFromEnv('SKILLYARD_RUN_EVENT_PAGE_BYTES', 2 * 1024 * 1024, 1),
  };
}
