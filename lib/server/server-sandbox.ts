// The web server's sandbox pool (worker processes); sized from the machine unless the config says.
import 'server-only';
import { createSandboxPool, type SandboxPool } from '../sandbox';
import type { ServerConfig } from './server-config';

export function createServerSandbox(config: Pick<ServerConfig, 'sandboxWorkers'>): SandboxPool {
  return createSandboxPool(config.sandboxWorkers ? { workers: config.sandboxWorkers } : {});
}
