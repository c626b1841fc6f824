// Issue 27, durable control: cancels and manual turns are stored, so they reach the run
// whichever instance took them and whether or not a NOTIFY got through; a run whose
// worker died is retried when none of its tool calls began, failed with the reason
// otherwise; a draining worker finishes or hands back its runs; a stream catches up from
// storage on its own timer. Real worker, real Postgres, a database of its own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { createServerContext, type ServerContext } from '../server';
import { cancelRun, submitManualTurn } from './control-run';
import { createRun } from './create-run';
import { listRunEvents } from './list-run-events';
import { runEventBus } from './run-event-bus';
import { failStaleRuns } from './run-queue';
import { storeRunTurn } from './run-turns';
import { startRunWorker, type RunWorker } from './run-worker';
import { streamRunEvents } from './stream-run-events';
import { isolatedRunDb } from './testing/isolated-db';
import { readSse } from './testing/read-sse';
import { newRunId } from './run-id';

let db: Db;
let url: string;
let server: ServerContext;
let drop: () => Promise<void>;
let worker: RunWorker | null = null;

beforeAll(async () => {
  ({ db, url, drop } = await isolatedRunDb());
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
const awaitingInput = (id: string, n = 1) => waitFor('input to be asked', async () => (await listRunEvents(db, id, 0)).filter((e) => e.type === 'awaiting-input').length >= n);

const manual = (principal: string) => createRun(db, { config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait' }, userId: null, principal });

describe('durable run control', () => {
  it('a 30 KB manual turn is stored and reaches the run (pg_notify would refuse it)', async () => {
    worker = startRunWorker(server, { concurrency: 1 });
    const { id, controlToken } = await manual('anon:big-turn');
    await awaitingInput(id);
    const text = 'x'.repeat(15_000);
    await submitManualTurn(db, id, { userId: null, controlToken }, { text, code: `ctx.finish(${JSON.stringify('y'.repeat(15_000))}.length)` });
    const run = await ended(id);
    expect(run).toMatchObject({ status: 'succeeded', result: 15_000 });
    expect(await db.runTurn.count({ where: { runId: id } })).toBe(0);
  });

  it('a turn stored without any notice (another instance, NOTIFY lost) is found by the waiting run', async () => {
    worker = startRunWorker(server, { concurrency: 1 });
    const { id } = await manual('anon:silent-turn');
    await awaitingInput(id);
    await storeRunTurn(db, id, 'ctx.finish("heard")');
    expect(await ended(id)).toMatchObject({ status: 'succeeded', result: 'heard' });
  });

  it('a cancel stored without any notice stops the run at the next heartbeat', async () => {
    worker = startRunWorker(server, { concurrency: 1, heartbeatMs: 600_000 });
    const { id } = await manual('anon:silent-cancel');
    await awaitingInput(id);
    await db.run.update({ where: { id }, data: { cancelRequested: true } });
    await worker.heartbeat();
    expect(await ended(id)).toMatchObject({ status: 'cancelled' });
  });

  it('a cancel through the API reaches the run (stored, then announced)', async () => {
    worker = startRunWorker(server, { concurrency: 1, heartbeatMs: 600_000 });
    const { id, controlToken } = await manual('anon:cancel');
    await awaitingInput(id);
    await cancelRun(db, id, { userId: null, controlToken });
    expect(await ended(id)).toMatchObject({ status: 'cancelled' });
  });

  it('the pending turns of a run are capped', async () => {
    const { id } = await manual('anon:turn-cap');
    for (let i = 0; i < 10; i++) await storeRunTurn(db, id, `ctx.log(${i})`);
    await expect(storeRunTurn(db, id, 'ctx.log(10)')).rejects.toMatchObject({ code: 'run/turns-pending' });
    await db.run.update({ where: { id }, data: { status: 'cancelled' } });
  });
});

describe('a run whose worker died', () => {
  async function orphan(principal: string, events: Array<{ type: string; data: object }>) {
    const { id } = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: ['ctx.finish("again")'], task: 'x' },
      userId: null,
      principal,
    });
    await db.run.update({ where: { id }, data: { status: 'running', lockedBy: 'dead-worker', lockedAt: new Date(Date.now() - 3600_000), attempts: 1 } });
    if (events.length) await db.runEvent.createMany({ data: events.map((e, i) => ({ runId: id, seq: i + 1, type: e.type, data: e.data })) });
    return id;
  }

  it('is queued again and runs to its end when none of its tool calls began', async () => {
    const id = await orphan('anon:orphan-clean', [{ type: 'agent-start', data: {} }]);
    const retried: string[] = [];
    expect(await failStaleRuns(db, 60, { retried: (r) => retried.push(r) })).toEqual([]);
    expect(retried).toEqual([id]);
    expect(await db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'queued', lockedBy: null });
    worker = startRunWorker(server, { concurrency: 1 });
    expect(await ended(id)).toMatchObject({ status: 'succeeded', result: 'again', attempts: 2 });
    const events = await listRunEvents(db, id, 0);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[1]).toMatchObject({ type: 'run-retry', data: { reason: 'worker-lost' } });
  });

  it('is failed with the reason when a tool call had begun', async () => {
    const id = await orphan('anon:orphan-acted', [{ type: 'tool-call', data: { tool: 'x' } }]);
    expect(await failStaleRuns(db, 60)).toEqual([id]);
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'run/worker-lost' } });
    expect((run.error as { message: string }).message).toContain('tools had acted');
    expect((await listRunEvents(db, id, 0)).at(-1)).toMatchObject({ type: 'run-end', data: { status: 'failed' } });
  });

  it('is failed once it used up its attempts', async () => {
    const id = await orphan('anon:orphan-tired', []);
    expect(await failStaleRuns(db, 60, { maxAttempts: 1 })).toEqual([id]);
    expect((await db.run.findUniqueOrThrow({ where: { id } })).error).toMatchObject({ message: expect.stringContaining('1 times') });
  });
});

describe('a draining worker', () => {
  it('hands a waiting run back at once, and the next worker finishes it', async () => {
    worker = startRunWorker(server, { concurrency: 1 });
    const { id } = await manual('anon:drain');
    await awaitingInput(id);
    await worker.drain(10_000);
    expect(worker.active()).toBe(0);
    const run = await db.run.findUniqueOrThrow({ where: { id } });
    expect(run).toMatchObject({ status: 'queued', lockedBy: null });
    worker = startRunWorker(server, { concurrency: 1 });
    await awaitingInput(id, 2);
    await storeRunTurn(db, id, 'ctx.finish("after drain")');
    expect(await ended(id)).toMatchObject({ status: 'succeeded', result: 'after drain' });
    const types = (await listRunEvents(db, id, 0)).map((e) => e.type);
    expect(types.filter((t) => t === 'run-end')).toHaveLength(1);
    expect(types).toContain('run-retry');
  });

  it('lets a running run finish before it stops, and claims nothing more', async () => {
    worker = startRunWorker(server, { concurrency: 1 });
    const { id, controlToken } = await manual('anon:drain-finish');
    await awaitingInput(id);
    // a tool call began: it cannot be handed back, so the drain waits for it
    await db.runEvent.create({ data: { runId: id, seq: 1000, type: 'tool-call', data: {} } }).catch(() => {});
    const draining = worker.drain(20_000);
    const queuedMeanwhile = await manual('anon:drain-later');
    await submitManualTurn(db, id, { userId: null, controlToken }, 'ctx.finish("finished")');
    await draining;
    expect(await db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'succeeded', result: 'finished' });
    expect(await db.run.findUniqueOrThrow({ where: { id: queuedMeanwhile.id } })).toMatchObject({ status: 'queued' });
    await db.run.update({ where: { id: queuedMeanwhile.id }, data: { status: 'cancelled' } });
  });
});

describe('a stream whose notices never come', () => {
  it('catches up from storage on its timer and ends', async () => {
    const run = await db.run.create({ data: { id: newRunId(), config: {}, status: 'running', principal: 'anon:deaf' } });
    const reading = readSse(streamRunEvents(db, run.id, 0, new AbortController().signal, { catchUpMs: 50 }));
    // written straight to storage: no bus, no NOTIFY
    await new Promise((r) => setTimeout(r, 100));
    await db.runEvent.createMany({
      data: [
        { runId: run.id, seq: 1, type: 'message', data: { text: 'a' } },
        { runId: run.id, seq: 2, type: 'run-end', data: { status: 'succeeded' } },
      ],
    });
    const { events, ended: streamEnded } = await reading;
    expect(events.map((e) => e.id)).toEqual([1, 2]);
    expect(streamEnded).toBe(true);
  });
});
