// What a run takes from the server (lib/server's ServerContext is one): passed in by
// whoever starts the worker, so lib/runs stays below the floor that wires the server.
import 'server-only';
import type { Db } from '../db';
import type { CapabilityProviders, ToolManagerOptions } from '../runtime';
import type { SandboxPool } from '../sandbox';

/** What createToolManager needs from the server for one caller (lib/server's CallerRuntime). */
export type RunRuntime = Pick<ToolManagerOptions, 'caller' | 'sandbox' | 'providers' | 'allowSubprocess' | 'moduleCache' | 'refreshHeld'>;

export type RunServer = {
  db: Db;
  sandbox: SandboxPool;
  /** the kernel for the run's owner (lib/server/runtime-for-caller.ts) */
  runtimeFor(who: { userId: string | null; queueKey?: string }, extra?: Partial<CapabilityProviders>): Promise<RunRuntime>;
};
