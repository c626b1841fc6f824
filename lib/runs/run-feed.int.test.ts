// Many viewers of one live run (a shared link going around, issue 28): every viewer gets
// every event once and in order, and the database is read per event, not per viewer.
// Events are stored the way another instance's worker stores them: written to the table,
// then announced by id only.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { testDatabaseUrl, testDb } from '../../test/db';
import { runEventBus } from './run-event-bus';
import { runFeedCount } from './run-feed';
import { openRunStreams, streamRunEvents } from './stream-run-events';
import { readSse } from './testing/read-sse';

beforeAll(async () => {
  await runEventBus().connect(testDatabaseUrl());
});
afterAll(async () => {
  await runEventBus().close();
});

/** The test database, counting reads of the event table. */
function countingDb(): { db: Db; reads: () => number } {
  let reads = 0;
  const base = testDb();
  const runEvent = new Proxy(base.runEvent, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (prop === 'findMany' || prop === 'aggregate') reads++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const db = new Proxy(base, {
    get(target, prop) {
      if (prop === 'runEvent') return runEvent;
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db, reads: () => reads };
}

async function store(runId: string, seq: number, type = 'message') {
  await testDb().runEvent.create({ data: { runId, seq, type, data: type === 'run-end' ? { status: 'succeeded' } : { text: `event ${seq}` } } });
  runEventBus().announceStored(runId, seq);
}

describe('one live run watched by many', () => {
  it('every viewer gets every event once, in order, and storage is read per event, not per viewer', async () => {
    const VIEWERS = 200;
    const EVENTS = 20;
    const run = await testDb().run.create({
      data: { id: crypto.randomBytes(16).toString('hex'), config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:fanout' },
    });
    await store(run.id, 1);
    await store(run.id, 2);
    const { db, reads } = countingDb();
    // a long catch-up interval: only notices move the viewers here
    const streams = Array.from({ length: VIEWERS }, (_, i) => readSse(streamRunEvents(db, run.id, i % 2, new AbortController().signal, { catchUpMs: 60_000 })));
    while (openRunStreams() < VIEWERS) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300)); // the backfills are read
    const readsBeforeLive = reads();
    expect(runFeedCount(db)).toBe(1);
    for (let seq = 3; seq < EVENTS; seq++) await store(run.id, seq);
    await store(run.id, EVENTS, 'run-end');
    const results = await Promise.all(streams);
    for (const [i, got] of results.entries()) {
      const from = (i % 2) + 1;
      expect(got.events.map((e) => e.id)).toEqual(Array.from({ length: EVENTS - from + 1 }, (_, k) => from + k));
      expect(got.ended).toBe(true);
    }
    // at most a couple of reads per announced event for all 200 viewers together
    expect(reads() - readsBeforeLive).toBeLessThanOrEqual(2 * (EVENTS - 2) + 2);
    expect(openRunStreams()).toBe(0);
    expect(runFeedCount(db)).toBe(0);
    expect(runEventBus().subscriberCount(run.id)).toBe(0);
  });

  it('a viewer that stops reading is closed at its bound instead of holding memory, and the others go on', async () => {
    const run = await testDb().run.create({
      data: { id: crypto.randomBytes(16).toString('hex'), config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:fanout' },
    });
    const stalled = streamRunEvents(testDb(), run.id, 0, new AbortController().signal, { catchUpMs: 60_000 });
    const reader = stalled.getReader(); // never reads
    const follower = readSse(streamRunEvents(testDb(), run.id, 0, new AbortController().signal, { catchUpMs: 60_000 }));
    while (openRunStreams() < 2) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 200));
    const { MAX_QUEUED_FRAMES } = await import('./stream-run-events');
    const total = MAX_QUEUED_FRAMES + 50;
    await testDb().runEvent.createMany({ data: Array.from({ length: total }, (_, i) => ({ runId: run.id, seq: i + 1, type: 'message', data: { i } })) });
    runEventBus().announceStored(run.id, total);
    await testDb().runEvent.create({ data: { runId: run.id, seq: total + 1, type: 'run-end', data: { status: 'succeeded' } } });
    runEventBus().announceStored(run.id, total + 1);
    const got = await follower;
    expect(got.events.length).toBe(total + 1);
    expect(openRunStreams()).toBe(0); // the stalled one was dropped too
    await expect(reader.read()).rejects.toThrow(/too far behind/); // its queue is gone
  });
});
