// Compiled handler modules shared by every request of a server (keys carry the skill's
// stored version id, so an entry never goes stale), bounded: least recently used goes.
import 'server-only';
import type { ModuleCache } from '../runtime';

export function createModuleCache(max = 500): ModuleCache & { size(): number } {
  const entries = new Map<string, Promise<string>>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    delete: (key) => entries.delete(key),
    size: () => entries.size,
  };
}
