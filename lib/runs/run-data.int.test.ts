// Issue 8 items 9 and 10 on the real worker and Postgres: data a run produces that
// jsonb cannot hold as it is (NUL characters, lone surrogates) is escaped and the run
// goes on; data that cannot be stored safely (nested deeper than 64) fails the run with
// a clear error. Either way the trace has no gap in `seq`, ends with run-end, replays to
// its end, and no run stays `running`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { createServerContext, type ServerContext } from '../server';
import { createRun } from './create-run';
import { listRunEvents } from './list-run-events';
import { runEventBus } from './run-event-bus';
import { openRunEventLog } from './run-event-log';
import { startRunWorker, type RunWorker } from './run-worker';
import { streamRunEvents } from './stream-run-events';
import { readSse } from './testing/read-sse';
import { newRunId } from './run-id';

process.env.SKILLYARD_RUN_MAX_ACTIVE = '1000';
process.env.SKILLYARD_RUN_MAX_ACTIVE_ANONYMOUS = '1000';

let worker: RunWorker;
let server: ServerContext;

beforeAll(async () => {
  await seedBundledSkills(testDb());
  await runEventBus().connect(testDatabaseUrl());
  server = createServerContext({ db: testDb() });
  worker = startRunWorker(server, { concurrency: 4 });
});
afterAll(async () => {
  await worker.stop();
  await runEventBus().close();
  await server.close();
});

async function waitForEnd(id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await testDb().run.findUniqueOrThrow({ where: { id } });
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function scripted(script: string[]) {
  const { id } = await createRun(testDb(), {
    config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script, task: 'data' },
    userId: null,
  });
  const run = await waitForEnd(id);
  const events = await listRunEvents(testDb(), id, 0);
  // no gap, one end, and a replay reaches it
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.type).toBe('run-end');
  expect(events.at(-1)?.data.status).toBe(run.status);
  const replay = await readSse(streamRunEvents(testDb(), id, 0, new AbortController().signal));
  expect(replay.events.map((e) => e.id)).toEqual(events.map((e) => e.seq));
  expect(replay.ended).toBe(true);
  return { run, events };
}

// past the limit of 64, well within what the sandbox's own serialisation carries: it
// reaches the host, which must refuse to store it
const DEEP = 'let deep = {}; for (let i = 0; i < 100; i++) deep = { deep };';
// so deep that the sandbox's serialisation refuses it first
const DEEPER = 'let deep = {}; for (let i = 0; i < 5000; i++) deep = { deep };';

describe('what a run stores', () => {
  it('a result holding NUL characters is stored with the NULs escaped, and the run succeeds', async () => {
    const { run, events } = await scripted(['ctx.finish({ text: "a\\u0000b", ["k\\u0000"]: 1 })']);
    expect(run.status).toBe('succeeded');
    expect(run.result).toEqual({ text: 'a\\u0000b', 'k\\u0000': 1 });
    const complete = events.find((e) => e.type === 'agent-complete');
    expect(complete?.data.result).toEqual({ text: 'a\\u0000b', 'k\\u0000': 1 });
  });

  it('a tool result with NULs and a lone surrogate is stored readable, and the trace goes on', async () => {
    const { run, events } = await scripted(['return "x\\u0000y\\ud800z";', 'ctx.finish("done")']);
    expect(run.status).toBe('succeeded');
    const result = events.find((e) => e.type === 'tool-result');
    expect(result?.data.result).toBe('x\\u0000y\uFFFDz');
    expect(events.filter((e) => e.type === 'turn-start').length).toBe(2);
  });

  it('agent code returning JSON nested 100 deep fails the run with run/too-deep', async () => {
    const { run, events } = await scripted([`${DEEP} return deep;`, 'ctx.finish("never")']);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'run/too-deep' });
    expect(String((run.error as { message: string }).message)).toMatch(/nested more than 64 levels/);
    const stand = events.find((e) => e.type === 'log-error');
    expect(stand?.data).toMatchObject({ originalType: 'tool-result', error: { code: 'run/too-deep' } });
    expect(events.find((e) => e.type === 'agent-error')?.data.error).toMatchObject({ code: 'run/too-deep' });
  });

  it('a result nested 100 deep fails the run instead of reporting success', async () => {
    const { run } = await scripted([`${DEEP} ctx.finish(deep);`]);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'run/too-deep' });
    expect(run.result).toBeNull();
  });

  it('tool arguments nested 100 deep fail the run, not the worker', async () => {
    const { run } = await scripted([`${DEEP} return await ctx.invoke("count-words", { text: "a b", deep });`, 'ctx.finish(1)']);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'run/too-deep' });
    // the worker still runs the next run
    const next = await scripted(['ctx.finish("still serving")']);
    expect(next.run.status).toBe('succeeded');
  });

  it.each([
    ['returned', `${DEEPER} return deep;`],
    ['finished with', `${DEEPER} ctx.finish(deep);`],
    ['passed to a tool', `${DEEPER} return await ctx.invoke("count-words", { text: "a b", deep });`],
  ])('JSON nested 5,000 deep %s by agent code is an error the trace shows, and the run ends', async (_how, code) => {
    const { run, events } = await scripted([code, 'ctx.finish("after")']);
    // the sandbox refuses the value at its boundary: the step fails, the model goes on
    const refused = events.find((e) => e.type === 'tool-error');
    expect(JSON.stringify(refused?.data.error)).toMatch(/JSON|deep|stack/i);
    expect(run).toMatchObject({ status: 'succeeded', result: 'after' });
  });

  it('a configuration nested 5,000 deep is refused before anything is stored', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) deep = { deep };
    const before = await testDb().run.count();
    await expect(createRun(testDb(), { config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'x', deep }, userId: null })).rejects.toMatchObject({
      code: 'input/too-deep',
      status: 400,
    });
    expect(await testDb().run.count()).toBe(before);
  });

  it('an event the database refuses is replaced at its seq by a log-error, and the log reports the failure', async () => {
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running' } });
    const db = testDb();
    // a database that refuses any event of type "refused" (as it would an unforeseen value)
    const refusing = new Proxy(db, {
      get(target, prop) {
        if (prop !== 'runEvent') return Reflect.get(target, prop);
        const events = target.runEvent;
        return {
          findFirst: events.findFirst.bind(events),
          createMany: async (args: { data: Array<{ type: string }> }) => {
            if (args.data.some((e) => e.type === 'refused')) throw new Error('22P05 refused');
            return events.createMany(args as never);
          },
          create: async (args: { data: { type: string } }) => {
            if (args.data.type === 'refused') throw new Error('22P05 refused');
            return events.create(args as never);
          },
        };
      },
    });
    const failures: string[] = [];
    const log = await openRunEventLog(refusing, run.id, { onFailure: (f) => failures.push(f.code) });
    log.append('first', { n: 1 });
    log.append('refused', { n: 2 });
    log.append('third', { n: 3 });
    await log.flush();
    const events = await listRunEvents(db, run.id, 0);
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'first'],
      [2, 'log-error'],
      [3, 'third'],
    ]);
    expect(events[1].data).toMatchObject({ originalType: 'refused', error: { code: 'run/event-log-failed' } });
    expect(failures).toEqual(['run/event-log-failed']);
    expect(log.failure()).toMatchObject({ code: 'run/event-log-failed' });
  });

  it('run-end stays the last event: what arrives after it (a tool call settling after a stop) is dropped', async () => {
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running' } });
    const log = await openRunEventLog(testDb(), run.id);
    log.append('agent-error', { error: { code: 'run/too-deep', message: 'x' } });
    log.append('run-end', { status: 'failed' });
    log.append('tool-result', { result: 'late' });
    await log.flush();
    expect((await listRunEvents(testDb(), run.id, 0)).map((e) => [e.seq, e.type])).toEqual([
      [1, 'agent-error'],
      [2, 'run-end'],
    ]);
  });
});
