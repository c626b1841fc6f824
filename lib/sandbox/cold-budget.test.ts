// Cold starts are budgeted per principal (cold-budget.ts): a caller whose every job needs
// a new isolate gets `burst` at once and `perSecond` after that, while other callers' jobs
// go ahead of its waiting ones (issue 23: hundreds of anonymous invokes, each a new key).
import { describe, expect, it } from 'vitest';
import { ColdBudget } from './cold-budget';
import { createSandboxPool } from './pool';

describe('ColdBudget', () => {
  it('hands out the burst at once, then perSecond, per principal', () => {
    let now = 0;
    const budget = new ColdBudget({ perSecond: 10, burst: 3, now: () => now });
    expect([1, 2, 3, 4].map(() => budget.take('a'))).toEqual([true, true, true, false]);
    expect(budget.has('a')).toBe(false);
    expect(budget.has('b')).toBe(true);
    expect(budget.waitMs('a')).toBe(100);
    now += 100;
    expect(budget.take('a')).toBe(true);
    expect(budget.take('a')).toBe(false);
    now += 10_000;
    expect([1, 2, 3, 4].map(() => budget.take('a'))).toEqual([true, true, true, false]);
  });

  it('with perSecond 0 there is no budget', () => {
    const budget = new ColdBudget({ perSecond: 0, burst: 0 });
    expect(Array.from({ length: 100 }, () => budget.take('a')).every(Boolean)).toBe(true);
    expect(budget.waitMs('a')).toBe(0);
  });
});

describe('the worker pool budgets cold starts per principal', () => {
  const job = (key: string, principal: string) => ({ key, principal, source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] });

  it("a principal's flood of new keys waits for its cold starts while another caller's jobs run at once", async () => {
    const pool = createSandboxPool({ workers: 1, concurrency: 4, coldStartsPerSecond: 5, perPrincipalQueueLimit: 16 });
    try {
      for (let i = 0; i < 400 && pool.stats().ready < 1; i++) await new Promise((r) => setTimeout(r, 50));
      const done: string[] = [];
      const t0 = performance.now();
      const flood = Array.from({ length: 18 }, (_, n) => pool.run(job(`anonymous:${n}|count`, 'anonymous:203.0.113.9'), async () => null).then((r) => (done.push('flood'), r)));
      await new Promise((r) => setTimeout(r, 50));
      // the burst (10) ran or waits for a slot; 8 wait for their cold starts, one every 200 ms
      expect(await pool.run(job('user:i|count', 'user:i'), async () => null)).toMatchObject({ ok: true, stats: { cold: true } });
      done.push('other');
      const results = await Promise.all(flood);
      expect(results.filter((r) => r.ok)).toHaveLength(18);
      // the other caller waited for none of the flood's waiting cold starts
      expect(done.indexOf('other')).toBeLessThanOrEqual(11);
      // and the flood got no more than its budget: 8 past the burst take 7 intervals at least
      expect(performance.now() - t0).toBeGreaterThan(1_300);
      // its budget is spent, but a key it has warm is not held back by it
      expect(await pool.run(job('anonymous:17|count', 'anonymous:203.0.113.9'), async () => null)).toMatchObject({ ok: true, stats: { cold: false } });
      // past the principal's share of the queue: refused with a time to come back
      const more = await Promise.all(Array.from({ length: 24 }, (_, n) => pool.run(job(`anonymous:more-${n}|count`, 'anonymous:203.0.113.9'), async () => null)));
      const refused = more.filter((r) => !r.ok);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'sandbox/queue-full', retryAfterMs: expect.any(Number) } });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
