// Readiness (issue 28's health part of issue 27): ready with the database and a LISTEN
// connection that hears; not ready once LISTEN is gone, nor while the process drains.
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { runEventBus } from '../runs/run-event-bus';
import { markProcessDraining } from '../runs/worker-health';
import { checkReadiness } from './check-readiness';

afterAll(async () => {
  await runEventBus().close();
});

async function until(check: () => Promise<boolean>) {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('checkReadiness', () => {
  it('is ready with LISTEN heard, not without it, and not while draining', async () => {
    const server = { db: testDb() };
    expect(await checkReadiness(server)).toMatchObject({ ready: false, listen: false, database: true });
    await runEventBus().connect(testDatabaseUrl());
    await until(async () => (await checkReadiness(server)).ready);
    expect(await checkReadiness(server)).toEqual({ ready: true, database: true, listen: true, draining: false });
    // LISTEN connection terminated by the database: not ready until it is back
    await testDb().$queryRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, `skillyard-listen-${process.pid}`);
    await until(async () => !(await checkReadiness(server)).listen);
    await until(async () => (await checkReadiness(server)).ready);
    markProcessDraining();
    expect(await checkReadiness(server)).toMatchObject({ ready: false, draining: true, listen: true });
  });
});
