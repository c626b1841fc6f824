// The `storage` capability on Postgres: rows keyed by (skill, caller, namespace, key),
// where `skill` is the full `@scope/name`, so a skill never sees another skill's data
// (nor another scope's skill of the same name), nor one caller another's. Writes are
// checked against the caller's quotas under a per-caller lock.
import 'server-only';
import type { Db } from '../../db';
import { RuntimeError, type CapabilityScope, type StorageProvider } from '../../runtime';
import type { StorageQuota } from '../server-config';
import { checkStorageQuota } from './storage-quota';

const MAX_VALUE_BYTES = 256 * 1024;
const MAX_LIST = 1000;

/**
 * A pool several callers share on top of their own quotas: all anonymous visitors together
 * (`callerPrefix` 'visitor:'), since a visitor cookie costs one request to mint.
 */
export type StoragePool = { callerPrefix: string; maxRows: number; maxBytes: number };

export function createPgStorage(db: Db, quota: StorageQuota, pool?: StoragePool): StorageProvider {
  const id = (scope: CapabilityScope, namespace: string, key: string) => ({
    skill: scope.skill,
    callerId: scope.callerId,
    namespace,
    key,
  });
  return {
    async get(scope, namespace, key) {
      const row = await db.kvEntry.findUnique({ where: { skill_callerId_namespace_key: id(scope, namespace, key) }, select: { value: true } });
      return row ? row.value : null;
    },
    async put(scope, namespace, key, value) {
      const json = JSON.stringify(value ?? null);
      const bytes = Buffer.byteLength(json);
      if (bytes > MAX_VALUE_BYTES) throw new RuntimeError('storage/too-large', `storage values are limited to ${MAX_VALUE_BYTES} bytes on this server (got ${bytes})`);
      const parsed = JSON.parse(json);
      const where = { skill_callerId_namespace_key: id(scope, namespace, key) };
      await db.$transaction(async (tx) => {
        // one writer per caller at a time, so two parallel puts cannot both pass the quota
        await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`kv:${scope.callerId}`}, 0))`;
        const [usage] = await tx.$queryRaw<Array<{ rows: number; bytes: bigint; skillRows: number; skillBytes: bigint }>>`
          SELECT count(*)::int AS rows, COALESCE(sum(bytes), 0)::bigint AS bytes,
                 (count(*) FILTER (WHERE skill = ${scope.skill}))::int AS "skillRows",
                 COALESCE(sum(bytes) FILTER (WHERE skill = ${scope.skill}), 0)::bigint AS "skillBytes"
          FROM "KvEntry" WHERE "callerId" = ${scope.callerId}`;
        const existing = await tx.kvEntry.findUnique({ where, select: { bytes: true } });
        checkStorageQuota(
          quota,
          { rows: usage.rows, bytes: Number(usage.bytes), skillRows: usage.skillRows, skillBytes: Number(usage.skillBytes) },
          existing ? existing.bytes : null,
          bytes,
        );
        if (pool && scope.callerId.startsWith(pool.callerPrefix)) await checkPool(tx, pool, existing ? existing.bytes : null, bytes);
        await tx.kvEntry.upsert({ where, create: { ...id(scope, namespace, key), value: parsed, bytes }, update: { value: parsed, bytes } });
      });
    },
    async delete(scope, namespace, key) {
      const { count } = await db.kvEntry.deleteMany({ where: id(scope, namespace, key) });
      return count > 0;
    },
    async list(scope, namespace, prefix) {
      const rows = await db.kvEntry.findMany({
        where: { skill: scope.skill, callerId: scope.callerId, namespace, key: { startsWith: prefix } },
        select: { key: true },
        orderBy: { key: 'asc' },
        take: MAX_LIST,
      });
      return rows.map((r) => r.key);
    },
  };
}

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Throws `storage/quota-exceeded` when the pool's callers together would pass its limits. */
async function checkPool(tx: Tx, pool: StoragePool, replacedBytes: number | null, newBytes: number): Promise<void> {
  const addRows = replacedBytes === null ? 1 : 0;
  const addBytes = newBytes - (replacedBytes ?? 0);
  if (addRows <= 0 && addBytes <= 0) return;
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`kv-pool:${pool.callerPrefix}`}, 0))`;
  // LIKE on the escaped prefix: right under any collation (a range on the index is not)
  const like = `${pool.callerPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [used] = await tx.$queryRaw<Array<{ rows: number; bytes: bigint }>>`
    SELECT count(*)::int AS rows, COALESCE(sum(bytes), 0)::bigint AS bytes FROM "KvEntry" WHERE "callerId" LIKE ${like}`;
  if (used.rows + addRows > pool.maxRows || Number(used.bytes) + addBytes > pool.maxBytes) {
    throw new RuntimeError(
      'storage/quota-exceeded',
      `storage for visitors who are not signed in is full on this server (${used.rows} entries, ${Number(used.bytes)} bytes together); sign in to keep data`,
    );
  }
}
