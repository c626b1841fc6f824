import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { createServerContext, type ServerContext } from '../server';
import { createRun } from './create-run';
import { cancelRun, submitManualTurn } from './control-run';
import { getRun } from './get-run';
import { listRunEvents } from './list-run-events';
import { runEventBus } from './run-event-bus';
import { startRunWorker, type RunWorker } from './run-worker';
import { streamRunEvents } from './stream-run-events';
import { readSse } from './testing/read-sse';

// this file's runs are all anonymous and share the test database with other files
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

const countScript = [
  'memory.words = (await ctx.invoke("count-words", { text: "one two three" })).words; return memory.words;',
  { text: 'Counted; finishing.', code: 'ctx.finish({ words: memory.words })' },
];

async function waitForEnd(id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await testDb().run.findUniqueOrThrow({ where: { id } });
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readStream(id: string, after: number): Promise<Array<{ id: number; data: Record<string, unknown> }>> {
  return (await readSse(streamRunEvents(testDb(), id, after, new AbortController().signal))).events;
}

describe('playground runs', () => {
  it('a scripted run executes on the worker and stores a gap-free trace', async () => {
    const { id } = await createRun(testDb(), {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'count the words' },
      userId: null,
    });
    const run = await waitForEnd(id);
    expect(run.status).toBe('succeeded');
    expect(run.result).toEqual({ words: 3 });
    const events = await listRunEvents(testDb(), id, 0);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('agent-start');
    expect(types).toContain('tool-result');
    expect(types.at(-2)).toBe('agent-complete');
    expect(types.at(-1)).toBe('run-end');
  });

  it('streams every event once with its id, and resumes after Last-Event-ID', async () => {
    const { id } = await createRun(testDb(), {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'count' },
      userId: null,
    });
    // subscribe while the run is still queued or running: live events follow backfill
    const live = await readStream(id, 0);
    expect(live.map((e) => e.id)).toEqual(live.map((_, i) => i + 1));
    expect(live.at(-1)?.data.type).toBe('run-end');
    const resumed = await readStream(id, 3);
    expect(resumed.map((e) => e.id)).toEqual(live.slice(3).map((e) => e.id));
  });

  it('a tool mints a token of its own scope that unlocks the next tools (notebook)', async () => {
    const { id } = await createRun(testDb(), {
      config: {
        skills: ['@skillyard/notebook'],
        provider: 'scripted',
        script: [
          `await ctx.invoke('open-notebook', { name: 'trip' });
           await ctx.invoke('add-note', { note: { title: 'Pack', body: 'passport', tags: ['todo'] } });
           const { notes } = await ctx.invoke('list-notes', { tag: 'todo' });
           ctx.finish(notes.map((n) => n.title));`,
        ],
        task: 'take a note',
      },
      userId: null,
    });
    const run = await waitForEnd(id);
    const trace = JSON.stringify(await listRunEvents(testDb(), id, 0));
    expect(run.error, trace.slice(0, 3000)).toBeNull();
    expect(run.result).toEqual(['Pack']);
  });

  it('a maxSteps breach ends the run with an error event', async () => {
    const { id } = await createRun(testDb(), {
      config: {
        skills: ['@skillyard/text-stats'],
        provider: 'scripted',
        maxSteps: 2,
        // a step is one `invoke` call of the model (one turn's code)
        script: [1, 2, 3].map((i) => `return (await ctx.invoke("count-words", { text: "${'x '.repeat(3)}" })).words + ${i};`),
        task: 'loop',
      },
      userId: null,
    });
    const run = await waitForEnd(id);
    const events = await listRunEvents(testDb(), id, 0);
    const failure = events.find((e) => e.type === 'agent-error');
    expect(failure?.data.error).toMatchObject({ code: 'agent/max-steps' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'agent/max-steps' });
  });

  it('manual runs wait for a person; only the creator can write turns or cancel', async () => {
    const { id, controlToken } = await createRun(testDb(), {
      config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'you drive' },
      userId: null,
    });
    const deadline = Date.now() + 10_000;
    while (!(await listRunEvents(testDb(), id, 0)).some((e) => e.type === 'awaiting-input')) {
      if (Date.now() > deadline) throw new Error('never asked for input');
      await new Promise((r) => setTimeout(r, 50));
    }
    await expect(submitManualTurn(testDb(), id, { userId: null, controlToken: 'syr_wrong' }, 'ctx.finish(1)')).rejects.toMatchObject({
      code: 'auth/forbidden',
    });
    await submitManualTurn(testDb(), id, { userId: null, controlToken }, 'ctx.finish({ manual: true })');
    const run = await waitForEnd(id);
    expect(run.status).toBe('succeeded');
    expect(run.result).toEqual({ manual: true });
  });

  it('cancel stops a waiting run', async () => {
    const { id, controlToken } = await createRun(testDb(), {
      config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'wait forever' },
      userId: null,
    });
    await expect(cancelRun(testDb(), id, { userId: null })).rejects.toMatchObject({ code: 'auth/forbidden' });
    await cancelRun(testDb(), id, { userId: null, controlToken });
    const run = await waitForEnd(id);
    expect(run.status).toBe('cancelled');
  });

  it('several workers share the queue and run each run exactly once', async () => {
    const second = startRunWorker(server, { concurrency: 4 });
    try {
      const ids = await Promise.all(
        Array.from({ length: 12 }, () =>
          createRun(testDb(), {
            config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'share' },
            userId: null,
          }).then((r) => r.id),
        ),
      );
      const runs = await Promise.all(ids.map((id) => waitForEnd(id)));
      expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'succeeded'));
      expect(runs.map((r) => r.attempts)).toEqual(ids.map(() => 1));
      for (const id of ids) {
        const starts = (await listRunEvents(testDb(), id, 0)).filter((e) => e.type === 'agent-start');
        expect(starts.length).toBe(1);
      }
    } finally {
      await second.stop();
    }
  });

  it('a private run is invisible to others; bad configs are refused before anything is stored', async () => {
    const owner = await testDb().user.create({ data: { name: 'owner' } });
    const other = await testDb().user.create({ data: { name: 'other' } });
    const { id } = await createRun(testDb(), {
      config: { skills: ['@skillyard/text-stats'], provider: 'scripted', script: countScript, task: 'x', visibility: 'private' },
      userId: owner.id,
    });
    await expect(getRun(testDb(), id, { userId: other.id })).rejects.toMatchObject({ code: 'run/not-found' });
    await expect(getRun(testDb(), id, { userId: null })).rejects.toMatchObject({ status: 404 });
    expect((await getRun(testDb(), id, { userId: owner.id })).canControl).toBe(true);
    const before = await testDb().run.count();
    await expect(createRun(testDb(), { config: { skills: [], provider: 'scripted', task: 'x' }, userId: null })).rejects.toThrow('pick at least one skill');
    await expect(createRun(testDb(), { config: { skills: ['not a ref'], provider: 'scripted', script: ['1'], task: 'x' }, userId: null })).rejects.toMatchObject({
      code: 'input/invalid-skill-ref',
    });
    await expect(createRun(testDb(), { config: { skills: ['@skillyard/text-stats'], provider: 'openai', task: 'x' }, userId: null })).rejects.toMatchObject({
      code: 'input/provider-unavailable',
    });
    expect(await testDb().run.count()).toBe(before);
  });
});
