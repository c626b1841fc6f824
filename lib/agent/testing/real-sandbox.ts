// The real isolated-vm sandbox for agent tests (in-process engine).

import { SandboxEngine } from '../../sandbox/engine';
import type { Sandbox } from '../../sandbox/types';

export function realSandbox(): Sandbox {
  const engine = new SandboxEngine({ maxIdleIsolates: 4 });
  return { run: (job, onHostCall) => engine.run(job, onHostCall), close: async () => engine.close() };
}
