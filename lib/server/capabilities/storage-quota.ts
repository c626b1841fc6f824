// Storage quotas: rows and bytes per principal, in total and per skill. Pure, so the
// arithmetic is tested on its own; pg-storage.ts reads the usage under a lock and asks.
import 'server-only';

import { RuntimeError } from '../../runtime';
import type { StorageQuota } from '../server-config';

export type StorageUsage = { rows: number; bytes: number; skillRows: number; skillBytes: number };

/** Throws `storage/quota-exceeded` unless writing `newBytes` (replacing `replacedBytes`, null for a new key) fits. */
export function checkStorageQuota(quota: StorageQuota, usage: StorageUsage, replacedBytes: number | null, newBytes: number): void {
  const addRows = replacedBytes === null ? 1 : 0;
  const addBytes = newBytes - (replacedBytes ?? 0);
  const over = (what: string, used: number, add: number, max: number) => {
    if (add > 0 && used + add > max) {
      throw new RuntimeError('storage/quota-exceeded', `storage quota reached: ${what} (${used} used, limit ${max}); delete entries to make room`);
    }
  };
  over('rows in this skill', usage.skillRows, addRows, quota.maxRowsPerSkill);
  over('bytes in this skill', usage.skillBytes, addBytes, quota.maxBytesPerSkill);
  over('rows across all skills', usage.rows, addRows, quota.maxRows);
  over('bytes across all skills', usage.bytes, addBytes, quota.maxBytes);
}
