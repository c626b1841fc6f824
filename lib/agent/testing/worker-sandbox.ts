// A new sandbox pool of its own for agent tests: worker processes by default (like the
// server), or in-process isolates. Close it when done. (Runtime tests share one in-process
// pool instead: lib/runtime/testing/harness.ts.)

import { createSandboxPool, type SandboxPool } from '../../sandbox/pool';

export function createWorkerSandbox(opts: { inProcess?: boolean } = {}): SandboxPool {
  return createSandboxPool({ workers: 1, inProcess: opts.inProcess ?? false });
}
