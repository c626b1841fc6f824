// The server's settings, read once from the environment into one typed object, so every
// limit has one name, one default and one place (docs/security.md lists them).
import 'server-only';
import { allowRangesFromEnv } from '../runtime';
import { setting, type Env } from '../config';

export type StorageQuota = {
  /** rows one principal may keep across all skills */
  maxRows: number;
  /** bytes (stored JSON) one principal may keep across all skills */
  maxBytes: number;
  /** rows one principal may keep in one skill */
  maxRowsPerSkill: number;
  /** bytes one principal may keep in one skill */
  maxBytesPerSkill: number;
};

export type ServerConfig = {
  /** sandbox worker processes; undefined lets the sandbox size itself from the machine (lib/sandbox/sizing.ts, SKILLYARD_SANDBOX_WORKERS) */
  sandboxWorkers?: number;
  /** python/bash handlers in subprocesses (SKILLYARD_ALLOW_SUBPROCESS=1; off by default) */
  allowSubprocess: boolean;
  /** address ranges (CIDR) the `net` capability may reach although they are private (SKILLYARD_NET_ALLOW) */
  netAllow: string[];
  /** storage quotas of signed-in principals */
  storageQuota: StorageQuota;
  /** storage quotas of anonymous visitors with a stable (cookie) identity */
  anonymousStorageQuota: StorageQuota;
  /** all anonymous visitors together: a cookie is free to mint, so each one's quota alone bounds nothing */
  anonymousStoragePool: { maxRows: number; maxBytes: number };
  /** retention of the run log (days after a run finished; 0 keeps forever): its events, then the run itself */
  runRetention: { traceDays: number; runDays: number };
  /** bearer token that /metrics requires (SKILLYARD_METRICS_TOKEN); null: /metrics is off */
  metricsToken: string | null;
};

/** The server's settings from `env` (a test's), else from this process's environment. */
export function readServerConfig(env?: Env): ServerConfig {
  const storageQuota: StorageQuota = {
    maxRows: setting('SKILLYARD_STORAGE_MAX_ROWS', env),
    maxBytes: setting('SKILLYARD_STORAGE_MAX_BYTES', env),
    maxRowsPerSkill: setting('SKILLYARD_STORAGE_MAX_ROWS_PER_SKILL', env),
    maxBytesPerSkill: setting('SKILLYARD_STORAGE_MAX_BYTES_PER_SKILL', env),
  };
  const anonRows = setting('SKILLYARD_STORAGE_ANON_MAX_ROWS', env);
  const anonBytes = setting('SKILLYARD_STORAGE_ANON_MAX_BYTES', env);
  const metricsToken = setting('SKILLYARD_METRICS_TOKEN', env);
  return {
    metricsToken,
    runRetention: {
      traceDays: setting('SKILLYARD_RUN_TRACE_RETENTION_DAYS', env),
      runDays: setting('SKILLYARD_RUN_RETENTION_DAYS', env),
    },
    allowSubprocess: setting('SKILLYARD_ALLOW_SUBPROCESS', env),
    netAllow: allowRangesFromEnv(env),
    storageQuota,
    anonymousStorageQuota: {
      maxRows: anonRows,
      maxBytes: anonBytes,
      maxRowsPerSkill: Math.min(anonRows, storageQuota.maxRowsPerSkill),
      maxBytesPerSkill: Math.min(anonBytes, storageQuota.maxBytesPerSkill),
    },
    anonymousStoragePool: {
      maxRows: setting('SKILLYARD_STORAGE_ANON_TOTAL_MAX_ROWS', env),
      maxBytes: setting('SKILLYARD_STORAGE_ANON_TOTAL_MAX_BYTES', env),
    },
  };
}
