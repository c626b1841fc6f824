// The in-memory runtime the CLI runs skills on (`run`, `agent`, `mcp --skill`): a sandbox
// pool and a tool manager whose capabilities (storage, vault, environment, events) live in
// this process and end with it. Only loaded once isolated-vm loads, since it imports it.
import {
  allowRangesFromEnv,
  createHmacTokenSigner,
  createMemoryEnvironment,
  createMemoryEventBus,
  createMemoryStorage,
  createMemoryVault,
  createToolManager,
  type Caller,
  type LoadedSkill,
  type ObjectComponent,
  type ToolManager,
} from '../lib/runtime';
import { createSandboxPool, type SandboxPool } from '../lib/sandbox/pool';

export type LocalRuntimeOptions = {
  skills: LoadedSkill[];
  caller: Caller;
  /** run isolates in this process (it must have been started with --no-node-snapshot); else in worker processes */
  inProcess: boolean;
  /** sandbox worker processes (or, in process, slots / 4); the pool's default when unset */
  workers?: number;
  allowSubprocess?: boolean;
  allowedTools?: string | null;
  /** values the `environment` capability serves (`--env`) */
  env?: Record<string, string>;
  /** the `__workDir` handlers see */
  workDir?: string;
  onObject?: (object: ObjectComponent) => void;
};

/** Whether isolates may run in this process: started with --no-node-snapshot (flag or NODE_OPTIONS). */
export function isolatesInProcess(): boolean {
  return process.execArgv.includes('--no-node-snapshot') || (process.env.NODE_OPTIONS ?? '').includes('--no-node-snapshot');
}

export function createLocalRuntime(opts: LocalRuntimeOptions): { manager: ToolManager; sandbox: SandboxPool } {
  const sandbox = createSandboxPool({ inProcess: opts.inProcess, workers: opts.workers });
  const manager = createToolManager({
    skills: opts.skills,
    caller: opts.caller,
    sandbox,
    allowSubprocess: opts.allowSubprocess,
    allowedTools: opts.allowedTools,
    workDir: opts.workDir,
    providers: {
      storage: createMemoryStorage(),
      signer: createHmacTokenSigner(),
      // private and loopback addresses only where SKILLYARD_NET_ALLOW allows them, as on the server
      net: { allowRanges: allowRangesFromEnv() },
      vault: createMemoryVault(),
      environment: createMemoryEnvironment(opts.env ? { [opts.caller.id]: opts.env } : undefined),
      events: createMemoryEventBus(),
      onObject: opts.onObject,
    },
  });
  return { manager, sandbox };
}
