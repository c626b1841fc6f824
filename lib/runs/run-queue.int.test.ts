// Issue 8 item 3 on the real worker and Postgres, in a database of its own (no other
// file's worker may claim these runs): waiting runs hold no execution slot, they wait
// only until their deadline, a principal may hold only so many active runs, and the
// queue takes turns between principals.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { createServerContext, type ServerContext } from '../server';
import { cancelRun, submitManualTurn } from './control-run';
import { createRun } from './create-run';
import { listRunEvents } from './list-run-events';
import { runEventBus } from './run-event-bus';
import { startRunWorker, type RunWorker } from './run-worker';
import { isolatedRunDb } from './testing/isolated-db';

let db: Db;
let server: ServerContext;
let drop: () => Promise<void>;
let worker: RunWorker | null = null;

beforeAll(async () => {
  const isolated = await isolatedRunDb();
  db = isolated.db;
  drop = isolated.drop;
  await runEventBus().connect(isolated.url);
  server = createServerContext({ db });
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
  delete process.env.SKILLYARD_RUN_MAX_ACTIVE;
  delete process.env.SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS;
});
afterAll(async () => {
  await runEventBus().close();
  await server.close();
  await drop();
});

const countScript = ['ctx.finish((await ctx.invoke("count-words", { text: "one two three" })).words)'];

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

const awaitingInput = (id: string) => waitFor(`run ${id} to ask for input`, async () => (await listRunEvents(db, id, 0)).some((e) => e.type === 'awaiting-input'));

async function manualRun(principal: string) {
  return createRun(db, { config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'you drive' }, userId: null, principal });
}

describe('the run queue', () => {
  it('runs waiting for a person hold no execution slot: four wait on a two-slot worker and another run still executes', async () => {
    process.env.SKILLYARD_RUN_MAX_ACTIVE = '10';
    worker = startRunWorker(server, { concurrency: 2 });
    const manual = await Promise.all([1, 2, 3, 4].map(() => manualRun('anon:waiting')));
    for (const { id } of manual) await awaitingInput(id);
    expect(worker.waitingForInput()).toBe(4);
    expect(worker.executing()).toBe(0);

    const other = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'count' },
      userId: null,
      principal: 'anon:innocent',
    });
    expect(await ended(other.id)).toMatchObject({ status: 'succeeded', result: 3 });

    // each waiting run takes a slot back for its turn and finishes
    for (const { id, controlToken } of manual) await submitManualTurn(db, id, { userId: null, controlToken }, `ctx.finish("${id}")`);
    for (const { id } of manual) expect(await ended(id)).toMatchObject({ status: 'succeeded', result: id });
    expect(worker.active()).toBe(0);
  });

  it('a run waiting past its input deadline fails with run/input-timeout and a closed trace', async () => {
    worker = startRunWorker(server, { concurrency: 2, inputTimeoutMs: 300 });
    const { id } = await manualRun('anon:slow-typist');
    const run = await ended(id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'run/input-timeout' });
    const events = await listRunEvents(db, id, 0);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.find((e) => e.type === 'awaiting-input')?.data.deadline).toEqual(expect.any(String));
    expect(events.at(-1)).toMatchObject({ type: 'run-end', data: { status: 'failed' } });
  });

  it('one principal may hold SKILLYARD_RUN_MAX_ACTIVE queued or running runs; others are not affected', async () => {
    process.env.SKILLYARD_RUN_MAX_ACTIVE = '3';
    // no worker: the runs stay queued, which counts as active
    const created = await Promise.allSettled(Array.from({ length: 8 }, () => manualRun('anon:greedy')));
    const refused = created.filter((r) => r.status === 'rejected');
    expect(created.filter((r) => r.status === 'fulfilled').length).toBe(3);
    expect(refused.length).toBe(5);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'run/too-many-active', status: 429 });

    await expect(manualRun('anon:someone-else')).resolves.toMatchObject({ id: expect.any(String) });
    // ending one frees a place
    const first = (created[0].status === 'fulfilled' ? created[0] : created.find((r) => r.status === 'fulfilled')) as PromiseFulfilledResult<Awaited<ReturnType<typeof manualRun>>>;
    await cancelRun(db, first.value.id, { userId: null, controlToken: first.value.controlToken });
    await expect(manualRun('anon:greedy')).resolves.toMatchObject({ id: expect.any(String) });
    await db.run.updateMany({ where: { status: 'queued' }, data: { status: 'cancelled' } });
  });

  it('all anonymous principals together hold at most SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS; a signed-in user still gets in', async () => {
    process.env.SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS = '4';
    for (let i = 0; i < 4; i++) await manualRun(`anon:forged-${i}`);
    await expect(manualRun('anon:forged-next')).rejects.toMatchObject({ code: 'run/too-many-active', status: 429 });
    const user = await db.user.create({ data: { name: 'queue-user' } });
    await expect(createRun(db, { config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'x' }, userId: user.id })).resolves.toMatchObject({
      id: expect.any(String),
    });
    await db.run.updateMany({ where: { status: 'queued' }, data: { status: 'cancelled' } });
  });

  it("is fair between principals: one principal's 30 queued runs do not go before another's first", async () => {
    process.env.SKILLYARD_RUN_MAX_ACTIVE = '100';
    const flood: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { id } = await createRun(db, {
        config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: `flood ${i}` },
        userId: null,
        principal: 'anon:flood',
      });
      flood.push(id);
    }
    const late = await createRun(db, {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'mine' },
      userId: null,
      principal: 'anon:late',
    });
    worker = startRunWorker(server, { concurrency: 1 });
    const mine = await ended(late.id);
    expect(mine.status).toBe('succeeded');
    const floodStartedBefore = await db.run.count({ where: { id: { in: flood }, startedAt: { lt: mine.startedAt! } } });
    // strict FIFO would start all 30 first; taking turns starts at most one
    expect(floodStartedBefore).toBeLessThanOrEqual(1);
    for (const id of flood) await ended(id);
  });
});
