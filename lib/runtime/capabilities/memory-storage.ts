// In-memory StorageProvider for the CLI and tests: one map, keys scoped by caller, skill and namespace.

import type { CapabilityScope, StorageProvider } from './types';

export function createMemoryStorage(): StorageProvider & { size(): number } {
  const data = new Map<string, string>();
  const prefixOf = (scope: CapabilityScope, ns: string) => JSON.stringify([scope.callerId, scope.skill, ns]) + '\u0000';
  return {
    async get(scope, ns, key) {
      const raw = data.get(prefixOf(scope, ns) + key);
      return raw === undefined ? null : JSON.parse(raw);
    },
    async put(scope, ns, key, value) {
      // Stored as JSON so callers never share object identity with the store.
      data.set(prefixOf(scope, ns) + key, JSON.stringify(value ?? null));
    },
    async delete(scope, ns, key) {
      return data.delete(prefixOf(scope, ns) + key);
    },
    async list(scope, ns, prefix) {
      const p = prefixOf(scope, ns);
      return [...data.keys()]
        .filter((k) => k.startsWith(p) && k.slice(p.length).startsWith(prefix))
        .map((k) => k.slice(p.length))
        .sort();
    },
    size: () => data.size,
  };
}
