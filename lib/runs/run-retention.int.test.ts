// Run retention (issue 28): what it removes, what it keeps, and what a removed run's link says.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { applyRunRetention } from './apply-run-retention';
import { getRun } from './get-run';

const DAY = 24 * 60 * 60 * 1000;
// the real clock: other test files share this database, and their runs finished just now are
// inside every cutoff here, so applying retention never touches them
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);
const id = () => crypto.randomBytes(16).toString('hex');

type Seed = { status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'; finishedDaysAgo: number | null };

async function seed(s: Seed): Promise<string> {
  const runId = id();
  await testDb().run.create({
    data: {
      id: runId,
      config: { skills: [], provider: 'scripted', task: 'retention' },
      status: s.status,
      visibility: 'unlisted',
      principal: 'anon:retention',
      createdAt: ago((s.finishedDaysAgo ?? 0) + 1),
      finishedAt: s.finishedDaysAgo === null ? null : ago(s.finishedDaysAgo),
    },
  });
  await testDb().runEvent.createMany({ data: [1, 2, 3].map((seq) => ({ runId, seq, type: 'message', data: { seq } })) });
  return runId;
}

const events = (runId: string) => testDb().runEvent.count({ where: { runId } });

beforeAll(() => {
  process.env.DATABASE_URL = testDatabaseUrl();
});

describe('applyRunRetention', () => {
  it('removes old traces and older runs, and nothing else', async () => {
    const recent = await seed({ status: 'succeeded', finishedDaysAgo: 5 });
    const oldTrace = await seed({ status: 'failed', finishedDaysAgo: 40 });
    const oldRun = await seed({ status: 'succeeded', finishedDaysAgo: 400 });
    const stillRunning = await seed({ status: 'running', finishedDaysAgo: null });
    const oldButQueued = await seed({ status: 'queued', finishedDaysAgo: null });
    await testDb().run.update({ where: { id: stillRunning }, data: { createdAt: ago(500) } });

    const dry = await applyRunRetention(testDb(), { traceDays: 30, runDays: 365 }, { now, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.runsRemoved).toBeGreaterThanOrEqual(1);
    expect(await events(oldTrace)).toBe(3); // a dry run removes nothing
    expect(await testDb().run.count({ where: { id: oldRun } })).toBe(1);

    const result = await applyRunRetention(testDb(), { traceDays: 30, runDays: 365 }, { now });
    expect(result.runsRemoved).toBeGreaterThanOrEqual(1);
    expect(result.tracesRemoved).toBeGreaterThanOrEqual(1);

    // the recent run and the unfinished ones are untouched
    for (const kept of [recent, stillRunning, oldButQueued]) {
      expect(await events(kept)).toBe(3);
      expect((await testDb().run.findUnique({ where: { id: kept } }))?.traceRemovedAt).toBeNull();
    }
    // the old trace is gone, its summary stays and says when
    const trimmed = await testDb().run.findUnique({ where: { id: oldTrace } });
    expect(trimmed?.status).toBe('failed');
    expect(trimmed?.traceRemovedAt?.toISOString()).toBe(now.toISOString());
    expect(await events(oldTrace)).toBe(0);
    const view = await getRun(testDb(), oldTrace, { userId: null });
    expect(view.traceRemovedAt?.toISOString()).toBe(now.toISOString());
    // the old run is gone with its events, and its link says it was removed
    expect(await testDb().run.count({ where: { id: oldRun } })).toBe(0);
    expect(await events(oldRun)).toBe(0);
    await expect(getRun(testDb(), oldRun, { userId: null })).rejects.toMatchObject({ code: 'run/removed', status: 410 });
    // a run that never existed is still simply not found
    await expect(getRun(testDb(), id(), { userId: null })).rejects.toMatchObject({ code: 'run/not-found' });

    // applying again removes nothing more
    const again = await applyRunRetention(testDb(), { traceDays: 30, runDays: 365 }, { now });
    expect(again.eventsRemoved).toBe(0);
  });

  it('0 days turns a rule off', async () => {
    const old = await seed({ status: 'cancelled', finishedDaysAgo: 4000 });
    await applyRunRetention(testDb(), { traceDays: 0, runDays: 0 }, { now });
    expect(await events(old)).toBe(3);
  });
});
