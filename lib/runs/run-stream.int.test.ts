// The run event stream over HTTP (the route handler with a real Request) and underneath:
// Last-Event-ID and ?after= are validated (issue 8 item 6), no heartbeat timer or bus
// subscription outlives a stream however it ends, and the bytes on the wire are the SSE
// framing eventsource-parser reads back: ids, the end event, heartbeats, resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { GET as eventsRoute } from '../../app/api/v1/runs/[id]/events/route';
import { runEventBus } from './run-event-bus';
import { openRunEventLog } from './run-event-log';
import { openRunStreams, streamRunEvents } from './stream-run-events';
import { readSse } from './testing/read-sse';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl(); // the route handler's db()
  await runEventBus().connect(testDatabaseUrl());
});
afterAll(async () => {
  await runEventBus().close();
});

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** A finished public run with `n` stored events, the last one run-end. */
async function finishedRun(n: number) {
  const run = await testDb().run.create({ data: { config: {}, status: 'succeeded', visibility: 'unlisted', principal: 'anon:stream' } });
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

const get = (id: string, init: { lastEventId?: string; after?: string; signal?: AbortSignal } = {}) =>
  eventsRoute(
    new Request(`http://127.0.0.1/api/v1/runs/${id}/events${init.after !== undefined ? `?after=${encodeURIComponent(init.after)}` : ''}`, {
      headers: init.lastEventId !== undefined ? { 'Last-Event-ID': init.lastEventId } : {},
      signal: init.signal,
    }),
    { params: Promise.resolve({ id }) },
  );

describe('GET /api/v1/runs/:id/events', () => {
  it.each([
    ['Last-Event-ID', '2147483648'],
    ['Last-Event-ID', '-1'],
    ['Last-Event-ID', 'abc'],
    ['after', '99999999999'],
    ['after', '1e9'],
  ])('refuses %s %j with a 400 and leaves no timer or subscription behind', async (where, value) => {
    const id = await finishedRun(3);
    const before = timers();
    const res = await get(id, where === 'after' ? { after: value } : { lastEventId: value });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'input/invalid-event-id', message: expect.stringContaining('2147483647') } });
    expect(openRunStreams()).toBe(0);
    expect(timers()).toBe(before);
  });

  it('streams the exact SSE bytes: id, one data line per event, the end event; and resumes after Last-Event-ID', async () => {
    const id = await finishedRun(3);
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const all = await readSse(res.body!);
    const lines = all.raw.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'id: 1',
      `data: {"text":"line 1\\nsecond line","seq":1,"type":"message","createdAt":"2026-01-01T00:00:00.000Z"}`,
      '',
    ]);
    expect(all.raw.endsWith('id: 3\ndata: {"status":"succeeded","seq":3,"type":"run-end","createdAt":"2026-01-01T00:00:02.000Z"}\n\nevent: end\ndata: {}\n\n')).toBe(true);
    expect(all.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(all.events[0].data.text).toBe('line 1\nsecond line');
    expect(all.ended).toBe(true);

    const resumed = await readSse((await get(id, { lastEventId: '1' })).body!);
    expect(resumed.events.map((e) => e.id)).toEqual([2, 3]);
    expect(resumed.raw.startsWith('id: 2\n')).toBe(true);
    const viaQuery = await readSse((await get(id, { after: '2' })).body!);
    expect(viaQuery.events.map((e) => e.id)).toEqual([3]);
    expect(openRunStreams()).toBe(0);
  });

  it('a stream whose client goes away releases its timer and subscription', async () => {
    const run = await testDb().run.create({ data: { config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:stream' } });
    const before = timers();
    const client = new AbortController();
    const res = await get(run.id, { signal: client.signal });
    const reader = res.body!.getReader();
    await waitUntil(() => openRunStreams() === 1);
    expect(timers()).toBe(before + 1);
    client.abort();
    await reader.cancel();
    expect(openRunStreams()).toBe(0);
    expect(timers()).toBe(before);
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
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
        if (prop === 'runEvent') return { findMany: () => Promise.reject(new Error('relation does not exist')) };
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    await expect(readSse(streamRunEvents(broken, id, 0, new AbortController().signal))).rejects.toThrow('relation does not exist');
    expect(openRunStreams()).toBe(0);
    expect(timers()).toBe(before);
  });

  it('live events arrive in order with heartbeats between them, and the stream ends at run-end', async () => {
    const run = await testDb().run.create({ data: { config: {}, status: 'running', principal: 'anon:stream' } });
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
