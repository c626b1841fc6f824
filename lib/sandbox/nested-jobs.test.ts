import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from './pool';
import type { Sandbox, SandboxJob } from './types';

// Agent code runs in the sandbox and invokes tools that run in the sandbox too: a job
// waiting on its host must not hold the slot its own nested job needs.
const outer = (key: string): SandboxJob => ({
  key,
  source: 'export default async function () { return (await host.inner()) + 1; }',
  entry: 'default',
  args: [],
  hostMethods: ['inner'],
});
const inner = (key: string): SandboxJob => ({ key, source: 'export default () => 41', entry: 'default', args: [], hostMethods: [] });

const pools: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe.each([
  ['worker processes', false],
  ['in-process', true],
])('nested jobs (%s) with one slot', (_label, inProcess) => {
  it('do not deadlock', async () => {
    const pool = createSandboxPool({ workers: 1, concurrency: 1, inProcess });
    pools.push(pool);
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        pool.run(outer(`outer-${i}`), async () => {
          const r = await pool.run(inner(`inner-${i}`), async () => null);
          return r.ok ? r.value : null;
        }),
      ),
    );
    expect(results.map((r) => (r.ok ? r.value : r.error.code))).toEqual([42, 42, 42]);
  });
});
