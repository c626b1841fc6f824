// The one place where the server is wired: the database, the settings, the sandbox pool,
// the Postgres capability providers and the shared caches, built once per process and
// passed down to the invoke route, the run worker and the health check. Nothing below
// reaches for a global: whoever needs the server receives this object.
import 'server-only';
import { type Db, db as sharedDb } from '../db';
import { deriveKey } from '../auth';
import { createHmacTokenSigner, type CapabilityProviders, type ModuleCache, type StorageProvider } from '../runtime';
import type { SandboxPool } from '../sandbox';
import { createPgEnvironment } from './capabilities/pg-environment';
import { createPgStorage } from './capabilities/pg-storage';
import { createPgTokenVault } from './capabilities/pg-token-vault';
import { createModuleCache } from './module-cache';
import { runtimeForCaller, type CallerIdentity, type CallerRuntime } from './runtime-for-caller';
import { readServerConfig, type ServerConfig } from './server-config';
import { createServerSandbox } from './server-sandbox';

export type ServerProviders = Required<Pick<CapabilityProviders, 'storage' | 'vault' | 'environment' | 'signer' | 'net'>> & {
  /** storage for anonymous visitors with a stable cookie identity (smaller quota) */
  visitorStorage: StorageProvider;
};

export type ServerContext = {
  db: Db;
  config: ServerConfig;
  sandbox: SandboxPool;
  providers: ServerProviders;
  /** compiled handler modules shared across requests */
  modules: ModuleCache;
  /** the pool's figures, or null while no tool has run (asking does not start it) */
  sandboxStats(): ReturnType<SandboxPool['stats']> | null;
  /** what createToolManager needs for this caller (runtime-for-caller.ts) */
  runtimeFor(who: CallerIdentity, extra?: Partial<CapabilityProviders>): Promise<CallerRuntime>;
  close(): Promise<void>;
};

export function createServerContext(opts: { db: Db; config?: ServerConfig; sandbox?: SandboxPool; signingKey?: Buffer }): ServerContext {
  const config = opts.config ?? readServerConfig();
  // the pool starts worker processes: only when something runs a tool, not for a page that reads the database
  let sandbox = opts.sandbox ?? null;
  const server: ServerContext = {
    db: opts.db,
    config,
    get sandbox() {
      sandbox ??= createServerSandbox(config);
      return sandbox;
    },
    providers: {
      storage: createPgStorage(opts.db, config.storageQuota),
      visitorStorage: createPgStorage(opts.db, config.anonymousStorageQuota, { callerPrefix: 'visitor:', ...config.anonymousStoragePool }),
      vault: createPgTokenVault(opts.db),
      environment: createPgEnvironment(opts.db),
      signer: createHmacTokenSigner(opts.signingKey ?? deriveKey('tool-token-signer')),
      net: { allowRanges: config.netAllow },
    },
    modules: createModuleCache(),
    sandboxStats: () => sandbox?.stats() ?? null,
    runtimeFor: (who, extra) => runtimeForCaller(server, who, extra),
    close: async () => {
      await sandbox?.close();
      sandbox = null;
    },
  };
  return server;
}

// One per process, shared by Next.js route bundles, instrumentation and hot reloads.
const holder = globalThis as unknown as { skillyardServer?: ServerContext };

/** The process's server context, for DATABASE_URL and the environment's settings. */
export function serverContext(): ServerContext {
  holder.skillyardServer ??= createServerContext({ db: sharedDb() });
  return holder.skillyardServer;
}
