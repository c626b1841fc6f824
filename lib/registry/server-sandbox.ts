// The web server's one sandbox pool (worker processes), created on first use and shared
// across requests and Next.js hot reloads.
import { createSandboxPool, type SandboxPool } from '../sandbox/pool';

const globalForSandbox = globalThis as unknown as { skillyardSandbox?: SandboxPool };

export function serverSandbox(): SandboxPool {
  globalForSandbox.skillyardSandbox ??= createSandboxPool({
    workers: Number(process.env.SKILLYARD_SANDBOX_WORKERS ?? 2),
  });
  return globalForSandbox.skillyardSandbox;
}
