// The skill page's usage: runs in the last 30 days (RunSkill) and the share of calls that
// failed, from real runs and MCP calls, averaged over unique callers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from '../runs/create-run';
import { startIsolatedRunWorker, type IsolatedRunWorker } from '../runs/testing/isolated-run-worker';
import { publishTestSkill, testUser } from '../runs/testing/publish-test-skill';
import { openRegistryMcpHost } from '../server/registry-mcp-host';
import { flushSkillCalls, skillUsageOf } from './skill-usage';

let w: IsolatedRunWorker;
let owner = '';

beforeAll(async () => {
  w = await startIsolatedRunWorker();
  owner = await testUser(w.db, 'usageowner');
  await publishTestSkill(w.db, 'usageowner', 'picky', '1.0.0', `if (args.text === 'bad') throw new Error('no'); return { ok: args.text };`, owner);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

describe('skill usage', () => {
  it('counts runs, and the failure share per unique caller from runs and MCP calls', async () => {
    expect(await skillUsageOf(w.db, { scope: 'usageowner', name: 'picky' })).toMatchObject({ runs: 0, callers: 0, failureShare: null });
    // a run (caller: the owner's principal) with 1 failed call of 4
    const { id } = await createRun(w.db, {
      config: {
        skills: ['@usageowner/picky'],
        provider: 'scripted',
        script: [`for (const t of ['a', 'b', 'bad', 'c']) { try { await ctx.invoke('picky', { text: t }); } catch {} } ctx.finish(true);`],
        task: 'call it four times',
      },
      userId: owner,
    });
    await w.waitForEnd(id);
    // an anonymous MCP caller: 10 calls, none failing (one caller, not ten)
    const host = await openRegistryMcpHost(w.server, [{ scope: 'usageowner', name: 'picky' }], null, '203.0.113.9');
    for (let i = 0; i < 10; i++) await host.invoke('picky', { text: `x${i}` });
    await flushSkillCalls();
    const usage = await skillUsageOf(w.db, { scope: 'usageowner', name: 'picky' });
    // two callers: 1/4 failed and 0/10 failed, averaged per caller
    expect(usage).toMatchObject({ runs: 1, callers: 2, calls: 14, failureShare: 0.125 });
  });
});
