// The web server's sandbox pool (worker processes), sized by the server config.
import { createSandboxPool, type SandboxPool } from '../sandbox';
import type { ServerConfig } from './server-config';

export function createServerSandbox(config: Pick<ServerConfig, 'sandboxWorkers'>): SandboxPool {
  return createSandboxPool({ workers: config.sandboxWorkers });
}
