// A caller whose guest code burns its CPU budget is kept off the last free worker: other
// callers' jobs never wait behind its endless loops (confinement.ts, pool.ts `pick`).
import { describe, expect, it } from 'vitest';
import { Confinement, HEAVY_CPU_MS, HEAVY_HOLD_MS, heavyWorkerCap, LIGHT_HOLD_MS } from './confinement';
import { FairQueue } from './fair-queue';
import { createSandboxPool } from './pool';

describe('Confinement', () => {
  it('marks a caller whose job used HEAVY_CPU_MS or stopped at a limit, for HEAVY_HOLD_MS', () => {
    let now = 1_000;
    const c = new Confinement(() => now);
    c.observe('user:light', { ok: true, cpuMs: 3 });
    c.observe('user:cancelled', { ok: false, error: { code: 'sandbox/timeout', message: 'the job was cancelled by its caller' } });
    c.observe('user:guest-error', { ok: false, cpuMs: 1, error: { code: 'sandbox/guest-error', message: 'boom' } });
    expect(['user:light', 'user:cancelled', 'user:guest-error'].map((p) => c.isHeavy(p))).toEqual([false, false, false]);
    c.observe('user:busy', { ok: true, cpuMs: HEAVY_CPU_MS });
    c.observe('anon:loop', { ok: false, error: { code: 'sandbox/cpu-limit', message: 'the job exceeded its CPU time limit of 1000 ms' } });
    c.observe('anon:alloc', { ok: false, error: { code: 'sandbox/memory-limit', message: 'the job exceeded its memory limit' } });
    expect(['user:busy', 'anon:loop', 'anon:alloc'].map((p) => c.isHeavy(p))).toEqual([true, true, true]);
    now += HEAVY_HOLD_MS + 1;
    expect(c.isHeavy('anon:loop')).toBe(false);
    expect(c.size).toBe(2);
  });

  it('knows a caller as light after a light job, until it is marked or LIGHT_HOLD_MS pass', () => {
    let now = 1_000;
    const c = new Confinement(() => now);
    expect(c.isKnownLight('user:new')).toBe(false);
    c.observe('user:new', { ok: true, cpuMs: 2 });
    c.observe('anon:loop', { ok: true, cpuMs: 1 });
    c.observe('anon:loop', { ok: false, error: { code: 'sandbox/cpu-limit', message: 'the job exceeded its CPU time limit of 1000 ms' } });
    expect([c.isKnownLight('user:new'), c.isKnownLight('anon:loop')]).toEqual([true, false]);
    now += LIGHT_HOLD_MS + 1;
    expect(c.isKnownLight('user:new')).toBe(false);
  });

  it('leaves at least one worker, and a quarter of many, free of heavy callers', () => {
    expect([1, 2, 3, 4, 8, 16].map(heavyWorkerCap)).toEqual([1, 1, 2, 3, 6, 12]);
  });

  it("the fair queue hands out the first head that fits, keeping the others' places", () => {
    const q = new FairQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    q.push('a', 'a2');
    expect(q.takeFirst((x) => x.startsWith('b'))).toBe('b1');
    expect(q.takeFirst(() => false)).toBeUndefined();
    expect([q.take(), q.take(), q.size]).toEqual(['a1', 'a2', 0]);
  });
});

const job = (source: string, key: string, limits = {}) => ({ key, source, entry: 'default', args: [], hostMethods: [], limits });

/** Waits for the pool's `n` workers (and its reserve, when `reserve`) to be up. */
async function ready(pool: ReturnType<typeof createSandboxPool>, n: number, reserve = false) {
  for (let i = 0; i < 400 && (pool.stats().ready < n || (reserve && !pool.stats().reserve)); i++) await new Promise((r) => setTimeout(r, 50));
  if (reserve) expect(pool.stats()).toMatchObject({ ready: n, reserve: true });
  else expect(pool.stats().ready).toBe(n);
}

describe('a pool with a heavy caller', () => {
  it("another caller's jobs all finish while the heavy caller's loops hold their worker", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2);
      // the attacker's first endless loop stops at its CPU limit and marks it
      expect(await pool.run(job('export default () => { for (;;) {} }', 'anon:attacker|loop', { cpuMs: 300 }), async () => null)).toMatchObject({
        ok: false,
        error: { code: 'sandbox/cpu-limit' },
      });
      const order: string[] = [];
      // then two loops of 2 s each at once (unconfined, one would take each worker)
      const loops = [1, 2].map((n) =>
        pool
          .run(job(`export default () => { for (;;) {} } // ${n}`, `anon:attacker|loop${n}`, { cpuMs: 2_000, wallMs: 20_000 }), async () => null)
          .then((r) => (order.push('loop'), r)),
      );
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 5; i++) {
        expect(await pool.run(job(`export default () => ${i}`, 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: i });
        order.push('innocent');
      }
      for (const r of await Promise.all(loops)) expect(r).toMatchObject({ ok: false, error: { code: 'sandbox/cpu-limit' } });
      expect(order).toEqual(['innocent', 'innocent', 'innocent', 'innocent', 'innocent', 'loop', 'loop']);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("another caller's job waits for a free slot (or the reserve) rather than queue behind a heavy caller's loop", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 2 });
    try {
      await ready(pool, 2);
      expect(await pool.run(job('export default () => { for (;;) {} }', 'anon:attacker|loop', { cpuMs: 300 }), async () => null)).toMatchObject({ ok: false });
      const order: string[] = [];
      const loop = pool
        .run(job('export default () => { for (;;) {} } // 2', 'anon:attacker|loop2', { cpuMs: 2_000, wallMs: 20_000 }), async () => null)
        .then(() => order.push('loop'));
      await new Promise((r) => setTimeout(r, 100));
      // both slots of the other worker busy for 150 ms each; the next job waits for one of
      // them, not for the loop (whose worker has a slot free)
      const busy = (n: number) => `export default () => { const end = Date.now() + 150; while (Date.now() < end) {} return ${n}; }`;
      const firsts = [1, 2].map((n) => pool.run(job(busy(n), `user:innocent|busy${n}`), async () => null).then(() => order.push('busy')));
      const next = pool.run(job('export default () => 3', 'user:innocent|next'), async () => null).then(() => order.push('next'));
      await Promise.all([...firsts, next, loop]);
      // `next` ends before the loop: in a slot freed on that worker, or on the reserve that
      // starts while every worker is in a long segment (whichever comes first)
      expect(order.slice(0, 3).sort()).toEqual(['busy', 'busy', 'next']);
      expect(order[3]).toBe('loop');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a cancelled loop holds its slot until its worker answers, and still marks its caller', async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2);
      // the caller cancels its loop (a run cancelled by its owner): the worker reads the
      // cancel only when the loop stops at its CPU limit
      const abort = new AbortController();
      const cancelled = pool.run({ ...job('export default () => { for (;;) {} }', 'anon:attacker|loop'), limits: { cpuMs: 600 }, signal: abort.signal }, async () => null);
      await new Promise((r) => setTimeout(r, 100));
      abort.abort();
      expect(await cancelled).toMatchObject({ ok: false, error: { code: 'sandbox/timeout' } });
      expect(pool.stats().running).toBe(1); // its worker is still in the loop
      for (let i = 0; i < 200 && pool.stats().running > 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(pool.stats().running).toBe(0);
      // its result (the CPU limit) marked the caller: its next loops share one worker
      const order: string[] = [];
      const loops = [1, 2].map((n) =>
        pool.run(job(`export default () => { for (;;) {} } // ${n}`, `anon:attacker|loop${n}`, { cpuMs: 1_000, wallMs: 20_000 }), async () => null).then(() => order.push('loop')),
      );
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 3; i++) {
        expect(await pool.run(job(`export default () => ${i}`, 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: i });
        order.push('innocent');
      }
      await Promise.all(loops);
      expect(order).toEqual(['innocent', 'innocent', 'innocent', 'loop', 'loop']);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a heavy caller's job that started before its mark does not open a second worker to its loops", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2);
      // two jobs of the attacker's, each on a worker and waiting on its host, before any mark
      let release = () => {};
      const released = new Promise<void>((r) => (release = r));
      const parked = [1, 2].map((n) =>
        pool.run({ ...job('export default async () => (await host.wait()) + 1', `anon:attacker|parked${n}`), hostMethods: ['wait'] }, async () => {
          await released;
          return n;
        }),
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(await pool.run(job('export default () => { for (;;) {} }', 'anon:attacker|mark', { cpuMs: 300 }), async () => null)).toMatchObject({ ok: false });
      const order: string[] = [];
      const loops = [1, 2].map((n) =>
        pool.run(job(`export default () => { for (;;) {} } // ${n}`, `anon:attacker|loop${n}`, { cpuMs: 2_000, wallMs: 20_000 }), async () => null).then(() => order.push('loop')),
      );
      await new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < 5; i++) {
        expect(await pool.run(job(`export default () => ${i}`, 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: i });
        order.push('innocent');
      }
      await Promise.all(loops);
      release();
      expect(await Promise.all(parked)).toMatchObject([
        { ok: true, value: 2 },
        { ok: true, value: 3 },
      ]);
      expect(order).toEqual(['innocent', 'innocent', 'innocent', 'innocent', 'innocent', 'loop', 'loop']);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('the reserve worker', () => {
  const loop = (name: string) => job(`export default () => { for (;;) {} } // ${name}`, `${name}|loop`, { cpuMs: 4_000, wallMs: 40_000 });

  it("new callers' first loops on every worker do not hold up a known caller: the reserve takes its jobs", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2, true);
      // the innocent caller is known: one light job
      expect(await pool.run(job('export default () => 0', 'user:innocent|t'), async () => null)).toMatchObject({ ok: true });
      const order: string[] = [];
      // two callers never seen before: nothing marks them until their loops have run
      const loops = ['anon:first', 'anon:second'].map((name) => pool.run(loop(name), async () => null).then(() => order.push('loop')));
      await new Promise((r) => setTimeout(r, 100));
      expect(await pool.run(job('export default () => 1', 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: 1 });
      // a third unknown caller's loop, and a second loop of the first, never get the reserve
      loops.push(...['anon:third', 'anon:first'].map((name) => pool.run(loop(`${name} again`), async () => null).then(() => order.push('loop'))));
      for (let i = 2; i < 7; i++) {
        await new Promise((r) => setTimeout(r, 50));
        expect(await pool.run(job(`export default () => ${i}`, 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: i });
        order.push('innocent');
      }
      await Promise.all(loops);
      expect(order).toEqual(['innocent', 'innocent', 'innocent', 'innocent', 'innocent', 'loop', 'loop', 'loop', 'loop']);
      expect(pool.stats()).toMatchObject({ workers: 2, reserve: true, restarts: 0 });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a marked caller's jobs never take the reserve, nor spill off their places while all are held", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2, true);
      expect(await pool.run(job('export default () => 0', 'user:innocent|t'), async () => null)).toMatchObject({ ok: true });
      expect(await pool.run(job('export default () => 0', 'anon:attacker|t'), async () => null)).toMatchObject({ ok: true });
      expect(await pool.run(job('export default () => { for (;;) {} }', 'anon:attacker|mark', { cpuMs: 300 }), async () => null)).toMatchObject({ ok: false });
      const order: string[] = [];
      // a new caller's first loop takes the free worker; the marked caller's loop is on its place
      const loops = ['anon:attacker', 'anon:newcomer'].map((name) => pool.run(loop(name), async () => null).then(() => order.push('loop')));
      await new Promise((r) => setTimeout(r, 100));
      const marked = pool.run(job('export default () => "marked"', 'anon:attacker|short'), async () => null).then((r) => (order.push('marked'), r));
      expect(await pool.run(job('export default () => "innocent"', 'user:innocent|t'), async () => null)).toMatchObject({ ok: true, value: 'innocent' });
      order.push('innocent');
      expect(await marked).toMatchObject({ ok: true, value: 'marked' });
      await Promise.all(loops);
      expect(order.slice(0, 2)).toEqual(['innocent', 'loop']);
      expect(order).toContain('marked');
      expect(order.indexOf('marked')).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('confined jobs', () => {
  it("a stranger's code (job.confined) takes only the confined callers' places, even before any mark", async () => {
    const pool = createSandboxPool({ workers: 2, concurrency: 4 });
    try {
      await ready(pool, 2);
      const order: string[] = [];
      // two callers never seen before, each with an endless loop: both share one worker
      const loops = ['anon:one', 'anon:two'].map((name) =>
        pool
          .run({ ...job('export default () => { for (;;) {} }', `${name}|code`, { cpuMs: 1_000, wallMs: 20_000 }), confined: true }, async () => null)
          .then((r) => (order.push('loop'), r)),
      );
      await new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < 5; i++) {
        expect(await pool.run(job(`export default () => ${i}`, 'user:new|t'), async () => null)).toMatchObject({ ok: true, value: i });
        order.push('innocent');
      }
      for (const r of await Promise.all(loops)) expect(r).toMatchObject({ ok: false, error: { code: 'sandbox/cpu-limit' } });
      expect(order).toEqual(['innocent', 'innocent', 'innocent', 'innocent', 'innocent', 'loop', 'loop']);
      expect(pool.stats().workers).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
