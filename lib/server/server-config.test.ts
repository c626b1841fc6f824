import { describe, expect, it } from 'vitest';
import { checkStorageQuota } from './capabilities/storage-quota';
import { readServerConfig } from './server-config';

describe('readServerConfig', () => {
  it('has documented defaults', () => {
    const c = readServerConfig({});
    expect(c).toMatchObject({ allowSubprocess: false, netAllow: [] });
    expect(c.storageQuota).toEqual({ maxRows: 10_000, maxBytes: 64 * 1024 * 1024, maxRowsPerSkill: 2_000, maxBytesPerSkill: 16 * 1024 * 1024 });
    expect(c.anonymousStorageQuota).toEqual({ maxRows: 200, maxBytes: 1024 * 1024, maxRowsPerSkill: 200, maxBytesPerSkill: 1024 * 1024 });
  });
  it('reads the settings, and refuses a malformed number naming the variable', () => {
    const c = readServerConfig({ SKILLYARD_NET_ALLOW: '10.0.0.0/8, fd00::/8', SKILLYARD_ALLOW_SUBPROCESS: '1', SKILLYARD_STORAGE_MAX_ROWS: '5' });
    expect(c).toMatchObject({ netAllow: ['10.0.0.0/8', 'fd00::/8'], allowSubprocess: true, storageQuota: { maxRows: 5 } });
    expect(() => readServerConfig({ SKILLYARD_STORAGE_MAX_BYTES: '1e3x' })).toThrow(/SKILLYARD_STORAGE_MAX_BYTES/);
    expect(() => readServerConfig({ SKILLYARD_STORAGE_MAX_ROWS: '-1' })).toThrow(/SKILLYARD_STORAGE_MAX_ROWS/);
  });
});

describe('checkStorageQuota', () => {
  const quota = { maxRows: 4, maxBytes: 100, maxRowsPerSkill: 2, maxBytesPerSkill: 50 };
  const usage = { rows: 2, bytes: 40, skillRows: 2, skillBytes: 40 };
  it('refuses a new row past the per-skill row limit, but lets a replacement of the same size through', () => {
    expect(() => checkStorageQuota(quota, usage, null, 1)).toThrow(expect.objectContaining({ code: 'storage/quota-exceeded' }));
    expect(() => checkStorageQuota(quota, usage, 5, 5)).not.toThrow();
  });
  it('counts the bytes a replacement adds, and lets a shrinking write through even over the limit', () => {
    expect(() => checkStorageQuota(quota, usage, 5, 16)).toThrow(/bytes in this skill/);
    expect(() => checkStorageQuota(quota, { ...usage, skillBytes: 60, bytes: 60 }, 30, 10)).not.toThrow();
  });
  it('checks the totals across skills', () => {
    expect(() => checkStorageQuota(quota, { rows: 4, bytes: 40, skillRows: 0, skillBytes: 0 }, null, 1)).toThrow(/rows across all skills/);
    expect(() => checkStorageQuota(quota, { rows: 1, bytes: 95, skillRows: 0, skillBytes: 0 }, null, 10)).toThrow(/bytes across all skills/);
  });
});

describe('readServerConfig: metrics token', () => {
  it('is off without SKILLYARD_METRICS_TOKEN and refuses a short token', () => {
    expect(readServerConfig({}).metricsToken).toBeNull();
    expect(readServerConfig({ SKILLYARD_METRICS_TOKEN: 'a'.repeat(32) }).metricsToken).toBe('a'.repeat(32));
    expect(() => readServerConfig({ SKILLYARD_METRICS_TOKEN: 'short' })).toThrow(/SKILLYARD_METRICS_TOKEN/);
  });
});
