// The server's settings, read once from the environment into one typed object, so every
// limit has one name, one default and one place (docs/security.md lists them).
import 'server-only';
import { allowRangesFromEnv } from '../runtime';

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

const MiB = 1024 * 1024;

type Env = Record<string, string | undefined>;

function intFrom(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min} (got "${raw}")`);
  return n;
}

export function readServerConfig(env: Env = process.env): ServerConfig {
  const storageQuota: StorageQuota = {
    maxRows: intFrom(env, 'SKILLYARD_STORAGE_MAX_ROWS', 10_000),
    maxBytes: intFrom(env, 'SKILLYARD_STORAGE_MAX_BYTES', 64 * MiB),
    maxRowsPerSkill: intFrom(env, 'SKILLYARD_STORAGE_MAX_ROWS_PER_SKILL', 2_000),
    maxBytesPerSkill: intFrom(env, 'SKILLYARD_STORAGE_MAX_BYTES_PER_SKILL', 16 * MiB),
  };
  const anonRows = intFrom(env, 'SKILLYARD_STORAGE_ANON_MAX_ROWS', 200);
  const anonBytes = intFrom(env, 'SKILLYARD_STORAGE_ANON_MAX_BYTES', 1 * MiB);
  const metricsToken = env.SKILLYARD_METRICS_TOKEN?.trim() || null;
  if (metricsToken !== null && metricsToken.length < 16) throw new Error('SKILLYARD_METRICS_TOKEN must be at least 16 characters (a guessable token would expose the metrics)');
  return {
    metricsToken,
    runRetention: {
      traceDays: intFrom(env, 'SKILLYARD_RUN_TRACE_RETENTION_DAYS', 90),
      runDays: intFrom(env, 'SKILLYARD_RUN_RETENTION_DAYS', 365),
    },
    allowSubprocess: env.SKILLYARD_ALLOW_SUBPROCESS === '1',
    netAllow: allowRangesFromEnv(env),
    storageQuota,
    anonymousStorageQuota: {
      maxRows: anonRows,
      maxBytes: anonBytes,
      maxRowsPerSkill: Math.min(anonRows, storageQuota.maxRowsPerSkill),
      maxBytesPerSkill: Math.min(anonBytes, storageQuota.maxBytesPerSkill),
    },
    anonymousStoragePool: {
      maxRows: intFrom(env, 'SKILLYARD_STORAGE_ANON_TOTAL_MAX_ROWS', 20_000),
      maxBytes: intFrom(env, 'SKILLYARD_STORAGE_ANON_TOTAL_MAX_BYTES', 64 * MiB),
    },
  };
}
