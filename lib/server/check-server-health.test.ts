import { afterEach, describe, expect, it } from 'vitest';
import { clearFailures, reportFailure, reportRecovery } from '../log';
import type { Db } from '../db/client';
import { checkServerHealth, healthStatusCode } from './check-server-health';

const reachable = { $queryRaw: async () => [{ count: 3n }] } as unknown as Db;
const unreachable = {
  $queryRaw: async () => {
    throw Object.assign(new Error('connect ECONNREFUSED postgresql://skillyard:s3cret@127.0.0.1:5432/x'), { code: 'ECONNREFUSED' });
  },
} as unknown as Db;
const server = (db: Db) => ({ db, sandboxStats: () => null });

afterEach(clearFailures);

describe('checkServerHealth', () => {
  it('is ok with a reachable database and no background failures', async () => {
    const health = await checkServerHealth(server(reachable));
    expect(health).toMatchObject({ status: 'ok', database: { ok: true, migrations: 3 }, failures: [], sandbox: null });
    expect(healthStatusCode(health)).toBe(200);
  });

  it('is degraded (still 200) while a background part fails, and ok again once it recovers', async () => {
    reportFailure('runs.heartbeat', new Error('connection terminated'));
    const health = await checkServerHealth(server(reachable));
    expect(health.status).toBe('degraded');
    expect(health.failures).toEqual([expect.objectContaining({ component: 'runs.heartbeat', count: 1, lastMessage: 'connection terminated' })]);
    expect(healthStatusCode(health)).toBe(200);
    reportRecovery('runs.heartbeat');
    expect((await checkServerHealth(server(reachable))).status).toBe('ok');
  });

  it('is down (503) without the database, and says so without the connection string', async () => {
    const health = await checkServerHealth(server(unreachable));
    expect(health.status).toBe('down');
    expect(healthStatusCode(health)).toBe(503);
    expect(JSON.stringify(health)).not.toContain('s3cret');
  });
});
