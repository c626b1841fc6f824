// Issue 31 "runs you can reproduce": a run records the versions it used and executes
// them; a fork with the same pins reproduces a scripted run's calls and results after a
// newer version is published; "latest" and "move one skill" run the versions asked for.
// Real worker, sandbox and Postgres (an isolated database of this file's own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from './create-run';
import { forkRun } from './fork-run';
import { getRun } from './get-run';
import { listRunEvents } from './list-run-events';
import { schemaDigest } from './run-pins';
import { startIsolatedRunWorker, type IsolatedRunWorker } from './testing/isolated-run-worker';
import { publishTestSkill, testUser } from './testing/publish-test-skill';
import { yankVersion } from '../registry/yank-version';
import { startRunWorker } from './run-worker';

let w: IsolatedRunWorker;
let owner = '';
let forker = '';

const script = [
  `memory.a = await ctx.invoke('echo-a', { text: 'hi' }); memory.b = await ctx.invoke('echo-b', { text: 'yo' }); return memory.a;`,
  { text: 'done', code: 'ctx.finish({ a: memory.a, b: memory.b })' },
];

/** the tool calls of a run with their arguments and results, without times */
async function calls(id: string) {
  const events = await listRunEvents(w.db, id, 0);
  return events
    .filter((e) => e.type === 'tool-call' || e.type === 'tool-result' || e.type === 'tool-error')
    .map((e) => ({ type: e.type, tool: e.data.tool, args: e.data.args, result: e.data.result, error: e.data.error, via: e.data.via }));
}

beforeAll(async () => {
  w = await startIsolatedRunWorker();
  owner = await testUser(w.db, 'pinowner');
  forker = await testUser(w.db, 'pinforker');
  await publishTestSkill(w.db, 'pinowner', 'echo-a', '1.0.0', `return { v: 1, text: args.text };`, owner);
  await publishTestSkill(w.db, 'pinowner', 'echo-b', '1.0.0', `return { v: 1, text: args.text };`, owner);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

describe('run pins', () => {
  let original = '';

  it('records each skill version, its digests and tool schema digests, and runs those versions', async () => {
    const { id } = await createRun(w.db, {
      config: { skills: ['@pinowner/echo-a', '@pinowner/echo-b'], provider: 'scripted', script, task: 'echo twice', visibility: 'unlisted' },
      userId: owner,
    });
    original = id;
    const run = await w.waitForEnd(id);
    expect(run.status).toBe('succeeded');
    expect(run.result).toEqual({ a: { v: 1, text: 'hi' }, b: { v: 1, text: 'yo' } });
    const view = await getRun(w.db, id, { userId: null });
    const versionRow = await w.db.skillVersion.findFirstOrThrow({ where: { version: '1.0.0', skill: { scopeName: 'pinowner', name: 'echo-a' } }, include: { tools: true } });
    expect(view.pins?.skills[0]).toMatchObject({
      ref: '@pinowner/echo-a',
      version: '1.0.0',
      versionId: versionRow.id,
      contentHash: versionRow.contentHash,
      integrity: versionRow.integrity,
      tools: [{ name: versionRow.tools[0].name, schemaDigest: schemaDigest(versionRow.tools[0].manifest) }],
    });
    expect(view.pins).toMatchObject({ provider: 'scripted', model: null, allowedTools: null, limits: { maxTurns: 30, maxSteps: 30 }, turns: script });
    expect(await w.db.runSkill.count({ where: { runId: id } })).toBe(2);
  });

  it('a run queued before a newer version is published still runs the version it was pinned to', async () => {
    await publishTestSkill(w.db, 'pinowner', 'echo-a', '1.5.0', `return { v: 15, text: args.text };`, owner);
    // no worker while the run waits in the queue and 1.6.0 is published
    await w.worker.stop();
    const { id } = await createRun(w.db, {
      config: { skills: ['@pinowner/echo-a', '@pinowner/echo-b'], provider: 'scripted', script, task: 'echo', visibility: 'unlisted' },
      userId: owner,
    });
    const pinned = (await getRun(w.db, id, { userId: owner })).pins;
    expect(pinned?.skills[0].version).toBe('1.5.0');
    await publishTestSkill(w.db, 'pinowner', 'echo-a', '1.6.0', `return { v: 16, text: args.text };`, owner);
    w.worker = startRunWorker(w.server, { concurrency: 1 });
    const run = await w.waitForEnd(id);
    expect(run.result).toMatchObject({ a: { v: 15 } });
  });

  it('a fork with the same pins reproduces the calls and results after a newer version is published', async () => {
    await publishTestSkill(w.db, 'pinowner', 'echo-a', '2.0.0', `return { v: 2, text: args.text };`, owner);
    await publishTestSkill(w.db, 'pinowner', 'echo-b', '2.0.0', `return { v: 2, text: args.text };`, owner);
    // the share link still shows the pinned versions
    expect((await getRun(w.db, original, { userId: null })).pins?.skills.map((s) => s.version)).toEqual(['1.0.0', '1.0.0']);
    const fork = await forkRun(w.db, original, { userId: forker });
    const run = await w.waitForEnd(fork.id);
    expect(run.status).toBe('succeeded');
    expect(run.result).toEqual({ a: { v: 1, text: 'hi' }, b: { v: 1, text: 'yo' } });
    expect(await calls(fork.id)).toEqual(await calls(original));
    expect((await getRun(w.db, fork.id, { userId: forker })).pins?.skills.map((s) => s.version)).toEqual(['1.0.0', '1.0.0']);
  });

  it('a fork of "latest" runs the latest version of every skill', async () => {
    const fork = await forkRun(w.db, original, { userId: forker }, { versions: { mode: 'latest' } });
    const run = await w.waitForEnd(fork.id);
    expect(run.result).toEqual({ a: { v: 2, text: 'hi' }, b: { v: 2, text: 'yo' } });
    expect((await getRun(w.db, fork.id, { userId: forker })).pins?.skills.map((s) => s.version)).toEqual(['2.0.0', '2.0.0']);
  });

  it('a fork that moves one skill runs that version and keeps the others pinned', async () => {
    const fork = await forkRun(w.db, original, { userId: forker }, { versions: { mode: 'move', skill: '@pinowner/echo-b', version: '2.0.0' } });
    const run = await w.waitForEnd(fork.id);
    expect(run.result).toEqual({ a: { v: 1, text: 'hi' }, b: { v: 2, text: 'yo' } });
    const view = await getRun(w.db, fork.id, { userId: forker });
    expect(view.pins?.skills.map((s) => `${s.ref}@${s.version}`)).toEqual(['@pinowner/echo-a@1.0.0', '@pinowner/echo-b@2.0.0']);
    expect(view.config.skills).toEqual(['@pinowner/echo-a', '@pinowner/echo-b@2.0.0']);
  });

  it('refuses to move a skill the run does not use, or to a version that does not exist, and creates nothing', async () => {
    const before = await w.db.run.count();
    await expect(forkRun(w.db, original, { userId: forker }, { versions: { mode: 'move', skill: '@pinowner/other', version: '1.0.0' } })).rejects.toMatchObject({
      code: 'run/fork-version',
    });
    await expect(forkRun(w.db, original, { userId: forker }, { versions: { mode: 'move', skill: '@pinowner/echo-a', version: '9.9.9' } })).rejects.toMatchObject({
      code: 'run/fork-version',
    });
    expect(await w.db.run.count()).toBe(before);
  });

  it('a same-pins fork of a version yanked since still runs it', async () => {
    await yankVersion(w.db, { scope: 'pinowner', name: 'echo-a', version: '1.0.0', userId: owner });
    const fork = await forkRun(w.db, original, { userId: forker });
    const run = await w.waitForEnd(fork.id);
    expect(run.result).toMatchObject({ a: { v: 1 } });
  });
});
