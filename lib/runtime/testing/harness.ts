// Shared setup for runtime tests: one in-process sandbox pool per test file and a manager factory.

import { createSandboxPool } from '../../sandbox/pool';
import type { Sandbox } from '../../sandbox/types';
import { createManager } from './manager-factory';

export { createManager };

let shared: (Sandbox & { close(): Promise<void> }) | null = null;

/** One real isolated-vm pool in this process, shared by a test file (tests pass --no-node-snapshot); close it in afterAll. */
export function sharedInProcessSandbox(): Sandbox {
  shared ??= createSandboxPool({ inProcess: true, workers: 1 });
  return shared;
}

export async function closeSharedSandbox(): Promise<void> {
  await shared?.close();
  shared = null;
}
