// The run queue's limits, from the environment (read at each use, so a test or an
// operator's restart picks up new values). Defaults and meaning: docs/security.md "Runs".
import 'server-only';

import { setting } from '../config';

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
    concurrency: setting('SKILLYARD_RUN_CONCURRENCY'),
    maxActivePerPrincipal: setting('SKILLYARD_RUN_MAX_ACTIVE'),
    maxActiveAnonymous: setting('SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS'),
    inputTimeoutMs: setting('SKILLYARD_RUN_INPUT_TIMEOUT_SECONDS') * 1000,
    traceMaxBytes: setting('SKILLYARD_RUN_TRACE_MAX_BYTES'),
    heartbeatSeconds: setting('SKILLYARD_RUN_HEARTBEAT_SECONDS'),
    staleAfterSeconds: setting('SKILLYARD_RUN_STALE_SECONDS'),
    maxAttempts: setting('SKILLYARD_RUN_MAX_ATTEMPTS'),
    eventPageMaxBytes: setting('SKILLYARD_RUN_EVENT_PAGE_BYTES'),
  };
}
