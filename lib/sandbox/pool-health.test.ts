// A pool whose workers cannot start fails every job with a clear error and tells
// /api/health (lib/log's failure registry) instead of failing silently.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearFailures, recentFailures } from '../log';
import { createSandboxPool } from './pool';

afterEach(clearFailures);

describe('a pool whose workers cannot start', () => {
  it('fails jobs with sandbox/worker-crashed and reports sandbox.workers to health', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillyard-broken-worker-'));
    const workerFile = path.join(dir, 'worker.mjs');
    fs.writeFileSync(workerFile, 'process.exit(3);\n');
    const pool = createSandboxPool({ workers: 1, workerFile });
    try {
      const res = await pool.run({ key: 'user:u|@a/b/t|0', source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] }, async () => null);
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringContaining('fail to start') } });
      expect(recentFailures()).toEqual([expect.objectContaining({ component: 'sandbox.workers', lastMessage: expect.stringContaining('fail to start') })]);
    } finally {
      await pool.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
