// Issue 9 "nothing fails silently" for the run worker, on the real worker and Postgres in
// a database of its own (the stale check here fails other files' runs otherwise): a run
// taken over after a missed heartbeat keeps the status the other instance gave it, the
// old holder stops, a run whose executor died or whose final update was refused never
// stays `running`, and the failures are logged and shown to /api/health.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { clearFailures, recentFailures } from '../log';
import { createServerContext, type ServerContext } from '../server';
import { createRun } from './create-run';
import { listRunEvents } from './list-run-events';
import { runEventBus } from './run-event-bus';
import { failStaleRuns, finishClaimedRun } from './run-queue';
import { startRunWorker, type RunWorker } from './run-worker';
import { storeRunTurn } from './run-turns';
import { isolatedRunDb } from './testing/isolated-db';
import { runWorkerHealth } from './worker-health';
import { newRunId } from './run-id';

let db: Db;
let url: string;
let server: ServerContext;
let drop: () => Promise<void>;
let worker: RunWorker | null = null;

beforeAll(async () => {
  const isolated = await isolatedRunDb();
  ({ db, url, drop } = isolated);
  await runEventBus().connect(url);
  server = createServerContext({ db });
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
});
afterAll(async () => {
  await runEventBus().close();
  await server.close();
  await drop();
});

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ended = (id: string) =>
  waitFor(`run ${id} to end`, async () => {
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    return ['succeeded', 'failed', 'cancelled'].includes(run.status) && run;
  });

async function gapFree(id: string) {
  const events = await listRunEvents(db, id, 0);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  return events;
}

/** A Db whose `run.updateMany` fails while `refuse` says so (a database refusing the final update). */
function refusingFinalUpdates(refuse: (data: { status?: string }) => boolean): Db {
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== 'run') return typeof value === 'function' ? value.bind(target) : value;
      return new Proxy(value, {
        get(runs, key) {
          const fn = Reflect.get(runs, key);
          if (key !== 'updateMany') return typeof fn === 'function' ? fn.bind(runs) : fn;
          return async (args: { data: { status?: string } }) => {
            if (refuse(args.data)) throw new Error('the database refused the update');
            return fn.call(runs, args);
          };
        },
      });
    },
  }) as Db;
}

describe('an idle run worker', () => {
  // Found by bench/http: a claim that found nothing gave its slot back through the
  // "slot free" callback, which claimed again at once, so an empty queue was asked
  // ~1,700 times a second, forever, by every server (health p50 5 ms instead of 2.6).
  it('asks an empty queue once per poll, not in a loop', async () => {
    const name = new URL(url).pathname.slice(1);
    const transactions = async () =>
      Number((await db.$queryRawUnsafe<{ n: bigint }[]>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1', name))[0].n);
    worker = startRunWorker(server, { concurrency: 4, pollMs: 200, heartbeatMs: 600_000, staleAfterSeconds: 3600 });
    await new Promise((r) => setTimeout(r, 300));
    const before = await transactions();
    await new Promise((r) => setTimeout(r, 1_000));
    const during = (await transactions()) - before;
    // five polls of one claim each, plus these two reads; the loop made thousands
    expect(during).toBeLessThan(40);
  });
});

describe('the run worker', () => {
  it('a run taken over after a heartbeat outage keeps the status the other instance gave it', async () => {
    // this worker's heartbeat does not come round again during the test: an outage
    worker = startRunWorker(server, { concurrency: 2, heartbeatMs: 600_000, staleAfterSeconds: 3600 });
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait' },
      userId: null,
      principal: 'anon:takeover',
    });
    await waitFor('input to be asked', async () => (await listRunEvents(db, id, 0)).some((e) => e.type === 'awaiting-input'));
    // the claim is an hour old: another instance's stale check fails the run
    await db.run.update({ where: { id }, data: { lockedAt: new Date(Date.now() - 3600_000) } });
    // its one attempt used, it is failed (a retry is durable-control.int.test.ts's case)
    expect(await failStaleRuns(db, 60, { maxAttempts: 1 })).toEqual([id]);
    expect(await db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', error: { code: 'run/worker-lost' } });

    // the old holder goes on (its turn arrives) and would finish `succeeded`
    await storeRunTurn(db, id, 'ctx.finish("late")');
    runEventBus().sendControl(id, { kind: 'turn' });
    await waitFor('the old holder to let go', async () => worker!.active() === 0);
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'run/worker-lost' }, result: null });
    const events = await gapFree(id);
    expect(events.filter((e) => e.type === 'run-end')[0].data.status).toBe('failed');
  });

  it('the final update is conditional on the lock holder', async () => {
    const run = await db.run.create({ data: { id: newRunId(), config: {}, status: 'running', lockedBy: 'worker-b', principal: 'anon:x' } });
    const outcome = { status: 'succeeded' as const, result: { late: true }, error: null };
    expect(await finishClaimedRun(db, run.id, 'worker-a', outcome)).toBe(false);
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: 'running', lockedBy: 'worker-b', result: null });
    expect(await finishClaimedRun(db, run.id, 'worker-b', outcome)).toBe(true);
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: 'succeeded', lockedBy: null, result: { late: true } });
  });

  it('the heartbeat notices a lost claim and stops the run there', async () => {
    worker = startRunWorker(server, { concurrency: 2, heartbeatMs: 600_000, staleAfterSeconds: 3600 });
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait' },
      userId: null,
      principal: 'anon:lost',
    });
    await waitFor('input to be asked', async () => (await listRunEvents(db, id, 0)).some((e) => e.type === 'awaiting-input'));
    await db.run.update({ where: { id }, data: { lockedBy: 'another-instance' } });
    await worker.heartbeat();
    await waitFor('the run to be let go', async () => worker!.active() === 0);
    expect(await db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'running', lockedBy: 'another-instance' });
  });

  it('a refused final update still ends the run failed, never running', async () => {
    const refusing = createServerContext({ db: refusingFinalUpdates((data) => data.status === 'succeeded'), sandbox: server.sandbox });
    worker = startRunWorker(refusing, { concurrency: 1 });
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: ['ctx.finish(1)'], task: 'x' },
      userId: null,
      principal: 'anon:refused',
    });
    const run = await ended(id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'run/unstorable' } });
  });

  it('an executor that dies leaves the run failed with run/crashed, and a closed trace', async () => {
    let refusals = 0;
    // every final update fails: the executor throws, and the worker records the crash
    const refusing = createServerContext({
      db: refusingFinalUpdates((data) => data.status !== undefined && data.status !== 'running' && ++refusals <= 2),
      sandbox: server.sandbox,
    });
    worker = startRunWorker(refusing, { concurrency: 1 });
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: ['ctx.finish(1)'], task: 'x' },
      userId: null,
      principal: 'anon:crash',
    });
    const run = await ended(id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'run/crashed' } });
    // the status is written before the trace is closed: wait for the closing events
    await waitFor('the trace to close', async () => (await listRunEvents(db, id, 0)).at(-1)?.data.status === 'failed');
    const events = await gapFree(id);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', data: { status: 'failed' } });
    expect(events.at(-2)).toMatchObject({ type: 'agent-error', data: { error: { code: 'run/crashed' } } });
  });

  it('a heartbeat that cannot reach the database is logged and shown to health; the next success clears it', async () => {
    clearFailures();
    let down = false;
    const flaky = new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (down && (prop === '$queryRaw' || prop === '$executeRaw')) return async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Db;
    worker = startRunWorker(createServerContext({ db: flaky, sandbox: server.sandbox }), { concurrency: 1, heartbeatMs: 600_000 });
    // the worker holds a run (waiting for input) whose claim the heartbeat renews
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait' },
      userId: null,
      principal: 'anon:heartbeat',
    });
    await waitFor('input to be asked', async () => (await listRunEvents(db, id, 0)).some((e) => e.type === 'awaiting-input'));
    down = true;
    await worker.heartbeat();
    const components = recentFailures().map((f) => f.component);
    expect(components).toEqual(expect.arrayContaining(['runs.heartbeat', 'runs.stale-check']));
    expect(recentFailures().find((f) => f.component === 'runs.heartbeat')?.lastMessage).toContain('ECONNREFUSED');
    expect(runWorkerHealth()).toMatchObject({ id: worker.id, concurrency: 1, waitingForInput: 1, executing: 0 });
    down = false;
    await worker.heartbeat();
    expect(recentFailures().map((f) => f.component)).not.toContain('runs.heartbeat');
    expect(recentFailures().map((f) => f.component)).not.toContain('runs.stale-check');
  });
});
