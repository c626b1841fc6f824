// The contract between the sandbox (isolated-vm worker pool) and its callers
// (lib/runtime for tool handlers, lib/agent for the model's `invoke` code).
// Only JSON values cross this boundary, in both directions.

export type SandboxLimits = {
  /** isolate heap limit (soft in isolated-vm; the worker also watches heap stats) */
  memoryMb?: number;
  /** CPU time the guest may use in one job */
  cpuMs?: number;
  /** wall-clock deadline for the whole job, including awaited host calls */
  wallMs?: number;
  /** largest JSON result (bytes) accepted back from the guest */
  maxResultBytes?: number;
  /** most host calls one job may make */
  maxHostCalls?: number;
  /** largest JSON arguments (bytes) of one host call; a larger call is refused to the guest */
  maxHostCallBytes?: number;
};

export type SandboxJob = {
  /**
   * Warm-isolate cache key. Jobs with the same key may reuse one isolate and context
   * (so keys must include the caller's identity: state must never leak across callers).
   */
  key: string;
  /**
   * Who the job runs for, for fair queueing between callers (additive, optional): by
   * default the key up to its first `|` (the runtime's keys start with `kind:id|`).
   */
  principal?: string;
  /**
   * Code from a caller the server does not know (an anonymous run's agent code): it runs only
   * on the workers where confined callers' jobs run (confinement.ts), never on the last free
   * ones, even before its caller has been marked.
   */
  confined?: boolean;
  /** JavaScript ES module source (TypeScript must be transpiled first). */
  source: string;
  /** the export to call: 'default', 'execute', 'main', ... */
  entry: string;
  /** JSON arguments passed to the entry function */
  args: unknown[];
  /** names of host methods; the guest sees `host.<name>(...args): Promise<unknown>` */
  hostMethods: string[];
  /** JavaScript run (as a script) in the context before the module: builds guest-side objects such as `ctx` from `host` */
  prelude?: string;
  /** JSON values installed as globals before the call (for example the agent's `memory`) */
  globals?: Record<string, unknown>;
  /** globals to copy back out after the call (JSON) */
  returnGlobals?: string[];
  limits?: SandboxLimits;
  /**
   * Optional cancellation (additive): aborting stops the job, disposes its isolate and
   * answers `sandbox/timeout` with a "cancelled" message. Never sent to worker processes.
   */
  signal?: AbortSignal;
};

export type SandboxErrorCode =
  | 'sandbox/timeout'
  | 'sandbox/cpu-limit'
  | 'sandbox/memory-limit'
  | 'sandbox/result-too-large'
  | 'sandbox/too-many-host-calls'
  | 'sandbox/compile-error'
  | 'sandbox/no-entry'
  | 'sandbox/guest-error'
  | 'sandbox/host-error'
  | 'sandbox/queue-full'
  | 'sandbox/worker-crashed'
  | 'sandbox/closed';

export type SandboxResult =
  { ok: true; value: unknown; globals?: Record<string, unknown>; stats: { wallMs: number; cold: boolean } } | { ok: false; error: SandboxError; globals?: Record<string, unknown> };

/**
 * `retryAfterMs` is set on `sandbox/queue-full` (back-pressure): the HTTP layer answers
 * 503 with `Retry-After: ceil(retryAfterMs / 1000)`.
 */
export type SandboxError = { code: SandboxErrorCode; message: string; retryAfterMs?: number };

/** Answers a guest's `host.<method>(...args)`; a throw becomes a rejected promise in the guest. */
export type HostCallHandler = (method: string, args: unknown[]) => Promise<unknown>;

export interface Sandbox {
  run(job: SandboxJob, onHostCall: HostCallHandler): Promise<SandboxResult>;
  close(): Promise<void>;
}
