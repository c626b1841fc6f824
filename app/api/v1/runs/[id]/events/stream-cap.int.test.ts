// Red-team finding: event streams were exempt from the per-caller cap, and 40 open at once
// from one client made /api/health unreachable for 35 s. A caller now holds at most
// SKILLYARD_MAX_STREAMS_PER_CALLER streams (and JSON pages) at once per instance; past it
// withApi and the front door answer 429 with Retry-After, and everybody else (health, other
// callers) is still served. A stream that ends or is cancelled frees its place.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '@/test/db';
import { frontDoorState, frontDoorVerdict } from '@/lib/api/front-door';
import { httpLimits } from '@/lib/limits';
import { runEventBus } from '@/lib/runs/run-event-bus';
import { GET as healthRoute } from '../../../../health/route';
import { GET as eventsRoute } from './route';
import { newRunId } from '../../../../../../lib/runs/run-id';
import { anonymousKey } from '@/lib/principal';

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  await runEventBus().connect(testDatabaseUrl());
});
afterAll(async () => {
  await runEventBus().close();
});

const IP = '198.51.100.23';

/** A live (running) public run: its stream stays open until the client goes away. */
async function liveRun() {
  const run = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:cap' } });
  await testDb().runEvent.create({ data: { runId: run.id, seq: 1, type: 'message', data: { text: 'hi' } } });
  return run.id;
}

const open = (id: string, signal: AbortSignal, ip = IP, format?: string) =>
  eventsRoute(new Request(`http://127.0.0.1/api/v1/runs/${id}/events${format ? `?format=${format}` : ''}`, { headers: { 'x-forwarded-for': ip }, signal }), {
    params: Promise.resolve({ id }),
  });

const door = (id: string, ip = IP) =>
  frontDoorVerdict({
    url: `/api/v1/runs/${id}/events`,
    method: 'GET',
    headers: { 'x-forwarded-for': ip },
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as http.IncomingMessage);

describe('open event streams per caller', () => {
  it('past the cap a stream gets 429 with Retry-After (withApi and the front door), health and other callers still answer, and a closed stream frees its place', async () => {
    const cap = httpLimits().maxStreamsPerCaller;
    expect(cap).toBe(8);
    const id = await liveRun();
    const aborts = Array.from({ length: cap }, () => new AbortController());
    const held = await Promise.all(aborts.map((a) => open(id, a.signal)));
    try {
      expect(held.map((r) => r.status)).toEqual(Array(cap).fill(200));
      expect(frontDoorState().streams.get(anonymousKey(IP))).toBe(cap);

      const refused = await open(id, new AbortController().signal);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect((await refused.json()).error).toMatchObject({ code: 'rate/limited', message: expect.stringContaining(`at most ${cap}`) });
      // a JSON page is a stream too: one client cannot hold 16 multi-megabyte pages at once
      expect((await open(id, new AbortController().signal, IP, 'json')).status).toBe(429);
      expect(door(id)).toMatchObject({ retryAfterS: 5 });

      const health = await healthRoute(new Request('http://127.0.0.1/api/health', { headers: { 'x-forwarded-for': IP } }), { params: Promise.resolve({}) });
      expect(health.status).not.toBe(429);
      expect(await health.json()).toHaveProperty('runs');
      expect(door(id, '198.51.100.24')).toBeNull();
      const other = new AbortController();
      const otherRes = await open(id, other.signal, '198.51.100.24');
      expect(otherRes.status).toBe(200);
      await otherRes.body?.cancel();

      // one stream goes away: its place is free again
      await held[0].body!.cancel();
      expect(frontDoorState().streams.get(anonymousKey(IP))).toBe(cap - 1);
      expect(door(id)).toBeNull();
      const again = await open(id, new AbortController().signal);
      expect(again.status).toBe(200);
      await again.body?.cancel();
    } finally {
      for (const res of held.slice(1)) await res.body?.cancel().catch(() => {});
    }
    expect(frontDoorState().streams.get(anonymousKey(IP))).toBeUndefined();
  });

  it('the stream frees its place itself (no wrapper): when the run ends, when the client goes away, and when it fails to start', async () => {
    const ip = '198.51.100.25';
    const key = anonymousKey(ip);
    // a finished run: the stream replays and ends, and its place is free once it ended
    const done = await testDb().run.create({ data: { id: newRunId(), config: {}, status: 'succeeded', visibility: 'unlisted', principal: 'anon:cap' } });
    await testDb().runEvent.create({ data: { runId: done.id, seq: 1, type: 'run-end', data: { status: 'succeeded' } } });
    const ended = await open(done.id, new AbortController().signal, ip);
    expect(frontDoorState().streams.get(key)).toBe(1);
    expect(await ended.text()).toContain('event: end');
    expect(frontDoorState().streams.get(key)).toBeUndefined();

    // a live one whose client goes away (the request's signal aborts)
    const leaving = new AbortController();
    const live = await open(await liveRun(), leaving.signal, ip);
    expect(live.status).toBe(200);
    expect(frontDoorState().streams.get(key)).toBe(1);
    leaving.abort();
    expect(frontDoorState().streams.get(key)).toBeUndefined();

    // an after-seq past the range: the stream errors at once and holds nothing
    const bad = await eventsRoute(new Request(`http://127.0.0.1/api/v1/runs/${done.id}/events`, { headers: { 'x-forwarded-for': ip, 'last-event-id': '1.5' } }), {
      params: Promise.resolve({ id: done.id }),
    });
    expect(bad.status).toBe(400);
    expect(frontDoorState().streams.get(key)).toBeUndefined();
  });
});
