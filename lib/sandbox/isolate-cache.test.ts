// The idle-isolate cache is scan-resistant and fair between principals: a flood of one-off
// keys (anonymous callers without an identity make a new key per call) evicts only the
// flooder's own warm isolates, never another caller's (issue 23).
import { describe, expect, it } from 'vitest';
import type ivm from 'isolated-vm';
import { IsolateCache, type WarmIsolate } from './isolate-cache';
import { createSandboxPool } from './pool';

function warm(principal: string, key: string, uses = 1): WarmIsolate & { disposed: () => boolean } {
  let disposed = false;
  const isolate = {
    get isDisposed() {
      return disposed;
    },
    dispose: () => void (disposed = true),
  } as unknown as ivm.Isolate;
  const none = null as unknown as ivm.Reference;
  return {
    key,
    principal,
    idleSince: 0,
    source: 's',
    prelude: undefined,
    methodsSig: '',
    memoryMb: 64,
    isolate,
    context: null as unknown as ivm.Context,
    run: none,
    settle: none,
    init: null,
    setNamespace: null,
    active: null,
    uses,
    runConfig: null,
    disposed: () => disposed,
  };
}

const want = (key: string) => ({ key, source: 's', prelude: undefined, methodsSig: '', memoryMb: 64 });

describe('IsolateCache', () => {
  it('a flood of one-off keys from many principals never evicts a reused isolate', () => {
    const cache = new IsolateCache(8);
    const innocent = [warm('user:i', 'user:i|a', 5), warm('user:i', 'user:i|b', 2)];
    for (const e of innocent) cache.checkin(e);
    for (let n = 0; n < 200; n++) cache.checkin(warm(`anonymous:10.0.${n % 50}.1`, `anonymous:${n}|t`));
    expect(cache.size).toBe(8);
    expect(cache.checkout(want('user:i|a'))).toBe(innocent[0]);
    expect(cache.checkout(want('user:i|b'))).toBe(innocent[1]);
    // the flood keeps only its most recent
    expect(cache.checkout(want('anonymous:199|t'))).toBeDefined();
    expect(cache.checkout(want('anonymous:150|t'))).toBeUndefined();
  });

  it("a flood from one principal evicts its own isolates, not another caller's first one", () => {
    const cache = new IsolateCache(4);
    const first = warm('user:new', 'user:new|a');
    cache.checkin(first);
    for (let n = 0; n < 100; n++) cache.checkin(warm('anonymous:203.0.113.9', `anonymous:${n}|t`));
    expect(cache.checkout(want('user:new|a'))).toBe(first);
  });

  it('when full, the principal holding the most loses its least recently used; ties go to the longest idle', () => {
    const cache = new IsolateCache(3);
    const a1 = warm('a', 'a|1');
    const b1 = warm('b', 'b|1');
    const a2 = warm('a', 'a|2');
    for (const e of [a1, b1, a2]) cache.checkin(e);
    const c1 = warm('c', 'c|1');
    cache.checkin(c1); // a holds two: its oldest goes
    expect(cache.checkout(want('a|1'))).toBeUndefined();
    cache.checkin(warm('d', 'd|1')); // each holds one: b's is idle longest
    expect(cache.checkout(want('b|1'))).toBeUndefined();
    expect([cache.checkout(want('a|2')), cache.checkout(want('c|1'))]).toEqual([a2, c1]);
    expect(cache.size).toBe(1);
  });

  it('reused isolates go only when every idle one was reused, fairly between principals', () => {
    const cache = new IsolateCache(3);
    const [a1, a2, b1] = [warm('a', 'a|1', 3), warm('a', 'a|2', 3), warm('b', 'b|1', 3)];
    for (const e of [a1, a2, b1]) cache.checkin(e);
    cache.checkin(warm('b', 'b|2', 4));
    expect(cache.checkout(want('a|1'))).toBeUndefined();
    expect([cache.checkout(want('a|2')), cache.checkout(want('b|1'))]).toEqual([a2, b1]);
  });

  it('clear disposes every idle isolate', () => {
    const cache = new IsolateCache(4);
    const all = [warm('a', 'a|1'), warm('b', 'b|1'), warm('b', 'b|2')];
    for (const e of all) cache.checkin(e);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(all.map((e) => e.disposed())).toEqual([true, true, true]);
  });
});

describe('the worker pool keeps a caller warm beside a flood of one-off keys', () => {
  it("hundreds of anonymous jobs with new keys from one address leave another caller's isolate warm", async () => {
    const pool = createSandboxPool({ workers: 1, concurrency: 4, coldStartsPerSecond: 0 });
    const job = (key: string, principal: string) => ({ key, principal, source: 'export default () => 1', entry: 'default', args: [], hostMethods: [] });
    try {
      expect(await pool.run(job('user:i|count', 'user:i'), async () => null)).toMatchObject({ ok: true, stats: { cold: true } });
      for (let n = 0; n < 100; n++) {
        const flood = Array.from({ length: 4 }, (_, m) => pool.run(job(`anonymous:${n}-${m}|count`, 'anonymous:203.0.113.9'), async () => null));
        for (const r of await Promise.all(flood)) expect(r).toMatchObject({ ok: true });
      }
      expect(await pool.run(job('user:i|count', 'user:i'), async () => null)).toMatchObject({ ok: true, stats: { cold: false } });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
