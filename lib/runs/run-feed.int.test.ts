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

  it('events heard together reach each viewer as one write, the frames joined in order', async () => {
    const run = await testDb().run.create({
      data: { id: crypto.randomBytes(16).toString('hex'), config: {}, status: 'running', visibility: 'unlisted', principal: 'anon:fanout' },
    });
    const viewers = [0, 1].map(() => streamRunEvents(testDb(), run.id, 0, new AbortController().signal, { catchUpMs: 60_000 }).getReader());
    while (openRunStreams() < 2) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 200)); // the backfills are read
    // five events stored at once and announced by one notice: the feed reads them in one go
    await testDb().runEvent.createMany({ data: Array.from({ length: 5 }, (_, i) => ({ runId: run.id, seq: i + 1, type: 'message', data: { i } })) });
    runEventBus().announceStored(run.id, 5);
    await store(run.id, 6, 'run-end');
    for (const reader of viewers) {
      const chunks: string[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value));
      const first = chunks.findIndex((c) => c.includes('id: 1\n'));
      // live or still reading its backfill, a viewer writes the five at once (run-end may join them)
      expect(chunks[first].match(/^id: \d+$/gm)?.slice(0, 5)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4', 'id: 5']);
      expect(chunks.join('')).toMatch(/id: 6\n[^]*event: end\n/);
    }
    expect(openRunStreams()).toBe(0);
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
    const { MAX_QUEUED_BYTES } = await import('./stream-run-events');
    // 2 KiB events, so the stalled viewer's queue passes its bound
    const filler = 'x'.repeat(2048);
    const total = Math.ceil(MAX_QUEUED_BYTES / filler.length) + 50;
    await testDb().runEvent.createMany({ data: Array.from({ length: total }, (_, i) => ({ runId: run.id, seq: i + 1, type: 'message', data: { i, filler } })) });
    runEventBus().announceStored(run.id, total);
    await testDb().runEvent.create({ data: { runId: run.id, seq: total + 1, type: 'run-end', data: { status: 'succeeded' } } });
    runEventBus().announceStored(run.id, total + 1);
    const got = await follower;
    expect(got.events.length).toBe(total + 1);
    expect(openRunStreams()).toBe(0); // the stalled one was dropped too
    await expect(reader.read()).rejects.toThrow(/too far behind/); // its queue is gone
  });
});
