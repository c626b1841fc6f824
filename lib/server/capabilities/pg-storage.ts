// The `storage` capability on Postgres: rows keyed by (skill, caller, namespace, key),
// where `skill` is the full `@scope/name`, so a skill never sees another skill's data
// (nor another scope's skill of the same name), nor one caller another's. Writes are
// checked against the caller's quotas under a per-caller lock.
import 'server-only';
import type { Db } from '../../db/client';
import { RuntimeError, type CapabilityScope, type StorageProvider } from '../../runtime';
import type { StorageQuota } from '../server-config';
import { checkStorageQuota } from './storage-quota';

const MAX_VALUE_BYTES = 256 * 1024;
const MAX_LIST = 1000;

export function createPgStorage(db: Db, quota: StorageQuota): StorageProvider {
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
