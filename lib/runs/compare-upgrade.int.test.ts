// Issue 31: comparing two runs that differ in one call marks exactly that call; the
// upgrade check re-runs the owner's runs that used an earlier version and finds exactly
// those whose results change with the new one. Real worker, sandbox and Postgres.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './create-run';
import { compareRuns } from './compare-runs';
import { forkRun } from './fork-run';
import { isSubstantive } from '../trace';
import { readUpgradeCheck, startUpgradeCheck, type UpgradeResult } from './upgrade-check';
import { startIsolatedRunWorker, type IsolatedRunWorker } from './testing/isolated-run-worker';
import { publishTestSkill, testUser } from './testing/publish-test-skill';

let w: IsolatedRunWorker;
let owner = '';
let stranger = '';

// 1.1.0 changes the answer for "c" only
const V1 = `return { upper: String(args.text).toUpperCase() };`;
const V2 = `return { upper: args.text === 'c' ? 'C!' : String(args.text).toUpperCase() };`;

const scriptFor = (words: string[]) => [
  `memory.out = []; for (const w of ${JSON.stringify(words)}) memory.out.push((await ctx.invoke('shout', { text: w })).upper); return memory.out.length;`,
  { text: 'done', code: 'ctx.finish(memory.out)' },
];

async function run(words: string[], userId: string, visibility: 'private' | 'unlisted' = 'private') {
  const { id } = await createRun(w.db, {
    config: { skills: ['@cmpowner/shout'], provider: 'scripted', script: scriptFor(words), task: `shout ${words.join(' ')}`, visibility },
    userId,
  });
  const ended = await w.waitForEnd(id);
  expect(ended.status).toBe('succeeded');
  return id;
}

async function settle(pairs: Parameters<typeof readUpgradeCheck>[1]): Promise<UpgradeResult[]> {
  for (;;) {
    const results = await readUpgradeCheck(w.db, pairs, owner);
    if (results.every((r) => r.status !== 'running')) return results;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  w = await startIsolatedRunWorker();
  owner = await testUser(w.db, 'cmpowner');
  stranger = await testUser(w.db, 'cmpstranger');
  await publishTestSkill(w.db, 'cmpowner', 'shout', '1.0.0', V1, owner);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

describe('compare and upgrade check', () => {
  let withC = '';
  let withoutC = '';
  let sameFork = '';

  it('marks exactly the one call whose result differs between a run and its fork on a new version', async () => {
    withC = await run(['a', 'b', 'c', 'd'], owner);
    withoutC = await run(['a', 'b', 'd'], owner);
    await publishTestSkill(w.db, 'cmpowner', 'shout', '1.1.0', V2, owner);
    const fork = await forkRun(w.db, withC, { userId: owner }, { versions: { mode: 'latest' } });
    await w.waitForEnd(fork.id);
    const c = await compareRuns(w.db, withC, fork.id, () => ({ userId: owner }));
    const marked = c.trace.rows.filter(isSubstantive);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ kind: 'call', marks: ['result'], a: { tool: 'shout', args: { text: 'c' }, result: { upper: 'C' } }, b: { result: { upper: 'C!' } } });
    expect(c.versions).toEqual([{ ref: '@cmpowner/shout', a: '1.0.0', b: '1.1.0', tools: [] }]);
    expect(c.outcome).toEqual({ status: false, result: true, error: false });
    expect(c.differs).toBe(true);
    // a same-pins fork of the same run differs in nothing
    const same = await forkRun(w.db, withC, { userId: owner });
    sameFork = same.id;
    await w.waitForEnd(same.id);
    const s = await compareRuns(w.db, withC, same.id, () => ({ userId: owner }));
    expect(s.differs).toBe(false);
    expect(s.trace.rows.filter(isSubstantive)).toEqual([]);
  });

  it('compares only runs the viewer may see', async () => {
    const visible = await run(['x'], stranger, 'unlisted');
    await expect(compareRuns(w.db, withC, visible, () => ({ userId: stranger }))).rejects.toMatchObject({ code: 'run/not-found' });
    await expect(compareRuns(w.db, visible, visible, () => ({ userId: stranger }))).rejects.toMatchObject({ code: 'run/compare-same' });
  });

  it('the upgrade check re-runs the runs that used an earlier version and finds exactly those whose results change', async () => {
    const check = await startUpgradeCheck(w.db, { scope: 'cmpowner', name: 'shout', version: '1.1.0', userId: owner });
    // the owner's runs on 1.0.0 (the same-pins fork too); not the fork on 1.1.0, not the stranger's run
    expect(check.pairs.map((p) => p.original).sort()).toEqual([withC, withoutC, sameFork].sort());
    expect(check.pairs.every((p) => p.from === '1.0.0')).toBe(true);
    const results = await settle(check.pairs);
    const byOriginal = Object.fromEntries(results.map((r) => [r.original, r]));
    expect(byOriginal[withC]).toMatchObject({ status: 'differs', differing: 1 });
    expect(byOriginal[sameFork]).toMatchObject({ status: 'differs', differing: 1 });
    expect(byOriginal[withoutC]).toMatchObject({ status: 'same', differing: 0 });
  });

  it('is refused to anyone who may not publish the skill, and forks nothing', async () => {
    const before = await w.db.run.count();
    await expect(startUpgradeCheck(w.db, { scope: 'cmpowner', name: 'shout', version: '1.1.0', userId: stranger })).rejects.toMatchObject({ code: 'auth/forbidden' });
    await expect(startUpgradeCheck(w.db, { scope: 'cmpowner', name: 'shout', version: '7.0.0', userId: owner })).rejects.toMatchObject({ code: 'skill/version-not-found' });
    expect(await w.db.run.count()).toBe(before);
  });
});
