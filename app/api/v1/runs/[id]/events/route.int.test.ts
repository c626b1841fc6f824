// GET /api/v1/runs/:id/events over HTTP (the route handler with a real Request, on the
// real Postgres): Last-Event-ID and ?after= are validated (issue 8 item 6) with no timer
// or subscription left behind, the bytes on the wire are the SSE framing that
// eventsource-parser reads back (ids, multi-line data, the end event), a resume starts
// after the given id, and a client that goes away releases everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '@/test/db';
import { runEventBus } from '@/lib/runs/run-event-bus';
import { openRunStreams } from '@/lib/runs/stream-run-events';
import { readSse } from '@/lib/runs/testing/read-sse';
import { GET as eventsRoute } from './route';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl(); // the route handler's db()
  await runEventBus().connect(testDatabaseUrl());
  // one request first, so what the server sets up once (pools, rate limits) is not counted
  await (await get(await finishedRun(1))).text();
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
    expect(runEventBus().subscriberCount(id)).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
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
    expect(runEventBus().subscriberCount(run.id)).toBe(1);
    client.abort();
    await reader.cancel();
    expect(openRunStreams()).toBe(0);
    expect(runEventBus().subscriberCount(run.id)).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
