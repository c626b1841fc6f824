// Shared setup for runtime tests: one in-process sandbox pool per test file and a manager factory.

import { createSandboxPool } from '../../sandbox/pool';
import type { Sandbox } from '../../sandbox/types';
import { createManager } from './manager-factory';

export { createManager };

let shared: (Sandbox & { close(): Promise<void> }) | null = null;

/** A real isolated-vm sandbox running in this process (tests pass --no-node-snapshot). */
export function realSandbox(): Sandbox {
  shared ??= createSandboxPool({ inProcess: true, workers: 1 });
  return shared;
}

export async function closeRealSandbox(): Promise<void> {
  await shared?.close();
  shared = null;
}
