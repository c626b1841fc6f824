// The run event stream under the route (route.int.test.ts beside the events route tests
// it over HTTP): no heartbeat timer or bus subscription outlives a stream that fails to
// start, and live events arrive in order with heartbeats between them, read back with
// eventsource-parser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { runEventBus } from './run-event-bus';
import { openRunEventLog } from './run-event-log';
import { openRunStreams, streamRunEvents } from './stream-run-events';
import { readSse } from './testing/read-sse';
import { newRunId } from './run-id';

beforeAll(async () => {
  await runEventBus().connect(testDatabaseUrl());
});
afterAll(async () => {
  await runEventBus().close();
});

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** A finished public run with `n` stored events, the last one run-end. */
async function finishedRun(n: number) {
  const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'succeeded', visibility: 'unlisted', principal: 'anon:stream' } });
  await testDb().runEvent.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      runId: run.id,
      seq: i + 1,
      type: i === n - 1 ? 'run-end' : 'message',
      data: i === n - 1 ? { status: 'succeeded' } : { text: `line ${i + 1}\nsecond line` },
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    })),
  });
  return run.id;
}

describe('streamRunEvents', () => {
  it('a stream that fails to start (storage throws) errors, and releases its timer and subscription', async () => {
    const id = await finishedRun(2);
    const before = timers();
    // a seq past Postgres' integer range is what used to reach the database
    const stream = streamRunEvents(testDb(), id, 2 ** 31, new AbortController().signal);
    await expect(readSse(stream)).rejects.toThrow(/afterSeq/);
    const broken = new Proxy(testDb(), {
      get(target, prop) {
        if (prop === 'runEvent') {
          const refuse = () => Promise.reject(new Error('relation does not exist'));
          return { findMany: refuse, aggregate: refuse };
        }
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    await expect(readSse(streamRunEvents(broken, id, 0, new AbortController().signal))).rejects.toThrow('relation does not exist');
    expect(openRunStreams()).toBe(0);
    expect(runEventBus().subscriberCount(id)).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('live events arrive in order with heartbeats between them, and the stream ends at run-end', async () => {
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running', principal: 'anon:stream' } });
    const stream = streamRunEvents(testDb(), run.id, 0, new AbortController().signal, { heartbeatMs: 20 });
    const reading = readSse(stream);
    const log = await openRunEventLog(testDb(), run.id);
    log.append('message', { text: 'first' });
    await new Promise((r) => setTimeout(r, 100)); // a few heartbeats go by
    log.append('message', { text: 'multi\nline\r\ntext' });
    log.append('run-end', { status: 'succeeded' });
    await log.flush();
    const got = await reading;
    expect(got.events.map((e) => [e.id, e.data.type])).toEqual([
      [1, 'message'],
      [2, 'message'],
      [3, 'run-end'],
    ]);
    expect(got.events[1].data.text).toBe('multi\nline\r\ntext');
    expect(got.comments.length).toBeGreaterThan(0);
    expect(new Set(got.comments)).toEqual(new Set(['keep-alive']));
    expect(got.raw).toMatch(/^(: keep-alive\n\n)*id: 1\ndata: .*\n\n(: keep-alive\n\n)+id: 2\n/);
    expect(got.ended).toBe(true);
    expect(openRunStreams()).toBe(0);
  });
});
