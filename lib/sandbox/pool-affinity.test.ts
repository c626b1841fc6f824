// Jobs follow their key to the worker holding its warm isolate, but not into a wait: a
// worker runs guest code synchronously, so a job sent to a worker busy with another job's
// long segment would wait for all of it while another worker sits idle.
import { describe, expect, it } from 'vitest';
import { createSandboxPool } from './pool';

const job = (source: string, key: string, limits = {}) => ({ key, source, entry: 'default', args: [], hostMethods: [], limits });

describe('warm-isolate affinity on a busy worker', () => {
  it('a job whose warm worker is running a long segment starts on the idle worker instead of waiting', async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      // both workers up (on a loaded machine one may start seconds after the other), the key warm on one
      for (let i = 0; i < 400 && pool.stats().ready < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats().ready).toBe(2);
      await Promise.all([pool.run(job('export default () => 0', 'user:x|t'), async () => null), pool.run(job('export default () => 0', 'user:y|t'), async () => null)]);
      expect(await pool.run(job('export default () => 1', 'user:a|t'), async () => null)).toMatchObject({ ok: true });
      const order: string[] = [];
      // the same key (so the same worker; another source, so another isolate), busy for 3 s of CPU
      const long = pool
        .run(job('export default () => { const end = Date.now() + 3000; while (Date.now() < end) {} return 2; }', 'user:a|t', { cpuMs: 10_000, wallMs: 20_000 }), async () => null)
        .then((r) => (order.push('long'), r));
      await new Promise((r) => setTimeout(r, 50));
      const quick = pool.run(job('export default () => 1', 'user:a|t'), async () => null).then((r) => (order.push('quick'), r));
      expect(await quick).toMatchObject({ ok: true, value: 1 });
      expect(await long).toMatchObject({ ok: true, value: 2 });
      expect(order).toEqual(['quick', 'long']);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
