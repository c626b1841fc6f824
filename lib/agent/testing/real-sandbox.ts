// The real sandbox for agent tests: the project's pool (worker processes by default,
// or in-process isolates).

import { createSandboxPool, type SandboxPool } from '../../sandbox/pool';

export function realSandbox(opts: { inProcess?: boolean } = {}): SandboxPool {
  return createSandboxPool({ workers: 1, inProcess: opts.inProcess ?? false });
}
