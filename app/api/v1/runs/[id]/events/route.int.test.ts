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
import { runEventPage } from '@/lib/runs/run-event-page';
import { GET as eventsRoute } from './route';
import { newRunId } from '../../../../../../lib/runs/run-id';

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

const get = (id: string, init: { lastEventId?: string; after?: string; format?: string; signal?: AbortSignal } = {}) =>
  eventsRoute(
    new Request(
      `http://127.0.0.1/api/v1/runs/${id}/events?${new URLSearchParams({ ...(init.after !== undefined && { after: init.after }), ...(init.format !== undefined && { format: init.format }) })}`,
      {
        headers: init.lastEventId !== undefined ? { 'Last-Event-ID': init.lastEventId } : {},
        signal: init.signal,
      },
    ),
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
    expect(lines.slice(0, 3)).toEqual(['id: 1', `data: {"text":"line 1\\nsecond line","seq":1,"type":"message","createdAt":"2026-01-01T00:00:00.000Z"}`, '']);
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
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:stream' } });
    const before = timers();
    const client = new AbortController();
    const res = await get(run.id, { signal: client.signal });
    const reader = res.body!.getReader();
    // the stream joins the run's shared feed (one bus subscription) once it has looked the run up
    await waitUntil(() => openRunStreams() === 1 && runEventBus().subscriberCount(run.id) === 1);
    client.abort();
    await reader.cancel();
    expect(openRunStreams()).toBe(0);
    expect(runEventBus().subscriberCount(run.id)).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('GET /api/v1/runs/:id/events?format=json', () => {
  it('returns the stored events after `after` as one JSON page, shaped like the SSE data, with no stream left open', async () => {
    const id = await finishedRun(5);
    const res = await get(id, { format: 'json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const page = (await res.json()) as { events: Array<{ seq: number; type: string; text?: string; createdAt: string }>; lastSeq: number; more: boolean };
    expect(page.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(page.events[0]).toMatchObject({ type: 'message', text: 'line 1\nsecond line', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(page.events[4].type).toBe('run-end');
    expect(page).toMatchObject({ lastSeq: 5, more: false });
    const rest = (await (await get(id, { format: 'json', after: '3' })).json()) as typeof page;
    expect(rest.events.map((e) => e.seq)).toEqual([4, 5]);
    const none = (await (await get(id, { format: 'json', after: '5' })).json()) as typeof page;
    expect(none).toEqual({ events: [], lastSeq: 5, more: false });
    expect(openRunStreams()).toBe(0);
  });

  it('pages a long run: `more` until the last page', async () => {
    const id = await finishedRun(7);
    const first = await runEventPage(testDb(), id, 0, 3);
    expect(first.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(first).toMatchObject({ lastSeq: 3, more: true });
    const last = await runEventPage(testDb(), id, 6, 3);
    expect(last).toMatchObject({ lastSeq: 7, more: false });
  });

  it('pages by bytes too (SKILLYARD_RUN_EVENT_PAGE_BYTES): a client following lastSeq gets every event once, an event larger than a page alone', async () => {
    const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'succeeded', visibility: 'unlisted', principal: 'anon:stream' } });
    const big = (n: number) => ({ result: 'a '.repeat(n) });
    const data = [big(50_000), big(50_000), big(50_000), big(400_000), big(10), { status: 'succeeded' }];
    await testDb().runEvent.createMany({ data: data.map((d, i) => ({ runId: run.id, seq: i + 1, type: i === data.length - 1 ? 'run-end' : 'tool-result', data: d })) });
    process.env.SKILLYARD_RUN_EVENT_PAGE_BYTES = '250000';
    try {
      const pages: number[][] = [];
      let after = 0;
      for (let more = true; more;) {
        const page = (await (await get(run.id, { format: 'json', after: String(after) })).json()) as { events: Array<{ seq: number }>; lastSeq: number; more: boolean };
        pages.push(page.events.map((e) => e.seq));
        after = page.lastSeq;
        more = page.more;
      }
      expect(pages).toEqual([[1, 2], [3], [4], [5, 6]]);
    } finally {
      delete process.env.SKILLYARD_RUN_EVENT_PAGE_BYTES;
    }
  });

  it('refuses an unknown format and a bad `after` with a 400, and a missing run with a 404', async () => {
    const id = await finishedRun(2);
    const bad = await get(id, { format: 'xml' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('input/invalid');
    expect((await get(id, { format: 'json', after: '-1' })).status).toBe(400);
    expect((await get('run_doesnotexist', { format: 'json' })).status).toBe(404);
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
