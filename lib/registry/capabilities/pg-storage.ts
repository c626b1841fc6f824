// The `storage` capability on Postgres: rows keyed by (skill, caller, namespace, key),
// so a skill never sees another skill's data nor one caller another's.
import type { Db } from '../../db/client';
import type { CapabilityScope, StorageProvider } from '../../runtime/capabilities/types';

const MAX_VALUE_BYTES = 256 * 1024;
const MAX_LIST = 1000;

export function createPgStorage(db: Db): StorageProvider {
  const id = (scope: CapabilityScope, namespace: string, key: string) => ({
    skill: scope.skill,
    callerId: scope.callerId,
    namespace,
    key,
  });
  return {
    async get(scope, namespace, key) {
      const row = await db.kvEntry.findUnique({ where: { skill_callerId_namespace_key: id(scope, namespace, key) } });
      return row ? row.value : null;
    },
    async put(scope, namespace, key, value) {
      const json = JSON.stringify(value ?? null);
      if (Buffer.byteLength(json) > MAX_VALUE_BYTES) throw new Error(`storage values are limited to ${MAX_VALUE_BYTES} bytes`);
      const parsed = JSON.parse(json);
      await db.kvEntry.upsert({
        where: { skill_callerId_namespace_key: id(scope, namespace, key) },
        create: { ...id(scope, namespace, key), value: parsed },
        update: { value: parsed },
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
