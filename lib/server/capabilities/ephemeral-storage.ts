// Storage for a caller with no stable identity (an anonymous call or run without a visitor
// cookie): kept in memory for the life of one call or run and then dropped, so nothing
// accumulates in the database under identities nobody can use again. Bounded by a quota.
import 'server-only';
import { createMemoryStorage, type StorageProvider } from '../../runtime';
import type { StorageQuota } from '../server-config';
import { checkStorageQuota } from './storage-quota';

export function createEphemeralStorage(quota: StorageQuota): StorageProvider {
  const inner = createMemoryStorage();
  const sizes = new Map<string, number>();
  const at = (skill: string, ns: string, key: string) => JSON.stringify([skill, ns, key]);
  const usage = (skill: string) => {
    let rows = 0,
      bytes = 0,
      skillRows = 0,
      skillBytes = 0;
    for (const [k, size] of sizes) {
      rows++;
      bytes += size;
      if (JSON.parse(k)[0] === skill) {
        skillRows++;
        skillBytes += size;
      }
    }
    return { rows, bytes, skillRows, skillBytes };
  };
  return {
    get: (scope, ns, key) => inner.get(scope, ns, key),
    list: (scope, ns, prefix) => inner.list(scope, ns, prefix),
    async put(scope, ns, key, value) {
      const bytes = Buffer.byteLength(JSON.stringify(value ?? null));
      const id = at(scope.skill, ns, key);
      checkStorageQuota(quota, usage(scope.skill), sizes.get(id) ?? null, bytes);
      await inner.put(scope, ns, key, value);
      sizes.set(id, bytes);
    },
    async delete(scope, ns, key) {
      sizes.delete(at(scope.skill, ns, key));
      return inner.delete(scope, ns, key);
    },
  };
}
