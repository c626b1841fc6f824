// A sandbox worker whose guest escaped can write anything on its pipe: the pool kills it
// and fails its job clearly; the web process never throws.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandboxPool } from './pool';

const hostile = (name: string) => path.join(import.meta.dirname, 'fixtures', `hostile-worker-${name}.ts`);

describe('frames of the wrong shape from a worker', () => {
  it('kill the worker, not the server', async () => {
    const pool = createSandboxPool({ workers: 1, workerFile: hostile('shape') });
    try {
      const res = await pool.run({ key: 'user:hostile|shape', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] }, async () => null);
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('a frame that is no worker message') } });
    } finally {
      await pool.close();
    }
  });

  it('end the job with the worker when a result of the right shape is not JSON, not at its timeout', async () => {
    const pool = createSandboxPool({ workers: 1, workerFile: hostile('badjson') });
    try {
      // a deadline far past the test's own timeout: only the worker's end can answer in time
      const res = await pool.run(
        { key: 'user:hostile|badjson', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [], limits: { wallMs: 600_000 } },
        async () => null,
      );
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('a frame of the wrong shape') } });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
