// Happy paths of the sandbox contract, run both through worker processes and in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxEngine } from './engine';
import { SandboxFailure } from './errors';
import { parseUntrustedJson } from './json';
import { resolveLimits, DEFAULT_LIMITS } from './limits';
import { createSandboxPool, resolveWorkerFile, type SandboxPool } from './pool';
import { transpileTs } from './transpile';
import type { HostCallHandler, SandboxJob } from './types';

const calls: [string, unknown[]][] = [];
const handler: HostCallHandler = async (method, args) => {
  calls.push([method, args]);
  if (method === 'add') return (args[0] as number) + (args[1] as number);
  if (method === 'get') return { key: args[0], stored: true };
  return null;
};

let n = 0;
const job = (source: string, extra: Partial<SandboxJob> = {}): SandboxJob => ({
  key: `happy-${++n}`,
  source,
  entry: 'default',
  args: [],
  hostMethods: ['add', 'get'],
  ...extra,
});

// worker processes poll their pipes after each frame by default (idle-spin.ts); the same
// contract holds when they only ever wait in the event loop
for (const mode of ['worker processes', 'worker processes without polling', 'in-process'] as const) {
  describe(`sandbox (${mode})`, () => {
    let pool: SandboxPool;
    beforeAll(() => {
      pool = createSandboxPool({
        workers: 1,
        inProcess: mode === 'in-process',
        spinUs: mode === 'worker processes without polling' ? 0 : undefined,
      });
    });
    afterAll(() => pool.close());

    it('calls the default export with JSON args', async () => {
      const res = await pool.run(job('export default (a, b) => ({ sum: a.x + b })', { args: [{ x: 2 }, 3] }), handler);
      expect(res).toMatchObject({ ok: true, value: { sum: 5 }, stats: { cold: true } });
    });

    it('calls named entries (execute, main)', async () => {
      const source = 'export function execute(p) { return "execute:" + p.q } export const main = (p) => "main:" + p.q';
      expect(await pool.run(job(source, { entry: 'execute', args: [{ q: 1 }] }), handler)).toMatchObject({ ok: true, value: 'execute:1' });
      expect(await pool.run(job(source, { entry: 'main', args: [{ q: 2 }] }), handler)).toMatchObject({ ok: true, value: 'main:2' });
      expect(await pool.run(job(source, { entry: 'nope' }), handler)).toMatchObject({ ok: false, error: { code: 'sandbox/no-entry' } });
    });

    it('returns undefined as undefined and keeps JSON types', async () => {
      expect(await pool.run(job('export default () => {}'), handler)).toMatchObject({ ok: true, value: undefined });
      expect(await pool.run(job('export default () => [1, "a", null, true, { d: [] }]'), handler)).toMatchObject({
        ok: true,
        value: [1, 'a', null, true, { d: [] }],
      });
    });

    it('moves frames of megabytes both ways, in order, many at once (pipes written directly and through the stream, polled and heard)', async () => {
      const big = 'x'.repeat(900_000);
      const source = `const big = ${JSON.stringify(big)}; export default async (n, s) => ({ n, len: s.length + big.length, echo: s.slice(0, 300_000), back: (await host.get(s.slice(0, 200_000))).key.length })`;
      const results = await Promise.all(Array.from({ length: 6 }, (_, n) => pool.run(job(source, { key: `big-${mode}`, args: [n, `${n}`.repeat(400_000)] }), handler)));
      results.forEach((res, n) => {
        expect(res).toMatchObject({ ok: true, value: { n, len: 1_300_000, back: 200_000 } });
        expect((res as { value: { echo: string } }).value.echo).toBe(`${n}`.repeat(300_000));
      });
    });

    it('host methods resolve with JSON copies', async () => {
      const res = await pool.run(job('export default async () => [await host.add(2, 3), await host.get("k")]'), handler);
      expect(res).toMatchObject({ ok: true, value: [5, { key: 'k', stored: true }] });
    });

    it('a host rejection the guest does not catch is sandbox/host-error; a caught one is a normal Error', async () => {
      const failing: HostCallHandler = async () => {
        throw Object.assign(new Error('denied'), { code: 'cap/denied' });
      };
      expect(await pool.run(job('export default () => host.get("x")'), failing)).toMatchObject({
        ok: false,
        error: { code: 'sandbox/host-error', message: 'Error: denied' },
      });
      const caught = await pool.run(job('export default async () => { try { await host.get(1) } catch (e) { return [e instanceof Error, e.message, e.code] } }'), failing);
      expect(caught).toMatchObject({ ok: true, value: [true, 'denied', 'cap/denied'] });
    });

    it('installs globals and copies returnGlobals back, also on failure', async () => {
      const source =
        'export default () => { memory.count += 1; globalThis.note = "seen " + memory.count; if (memory.count > 5) throw new Error("too many"); return memory.count; }';
      const ok = await pool.run(job(source, { globals: { memory: { count: 1 } }, returnGlobals: ['memory', 'note', 'missing'] }), handler);
      expect(ok).toMatchObject({ ok: true, value: 2, globals: { memory: { count: 2 }, note: 'seen 2' } });
      const bad = await pool.run(job(source, { globals: { memory: { count: 9 } }, returnGlobals: ['memory'] }), handler);
      expect(bad).toMatchObject({ ok: false, error: { code: 'sandbox/guest-error', message: 'Error: too many' }, globals: { memory: { count: 10 } } });
    });

    it('a prelude builds a ctx whose methods call the host', async () => {
      const prelude = 'globalThis.ctx = Object.freeze({ storage: { get: (k) => host.get(k) }, sum: (a, b) => host.add(a, b) });';
      const res = await pool.run(job('export default async (args) => [await ctx.storage.get(args.k), await ctx.sum(1, 1)]', { prelude, args: [{ k: 'z' }] }), handler);
      expect(res).toMatchObject({ ok: true, value: [{ key: 'z', stored: true }, 2] });
    });

    it('runs transpiled TypeScript', async () => {
      const ts = 'type In = { name: string }; export default async function (ctx: unknown, { name }: In): Promise<string> { return `Hello, ${name}!` as string; }';
      const res = await pool.run(job(transpileTs(ts), { args: [{}, { name: 'Ada' }] }), handler);
      expect(res).toMatchObject({ ok: true, value: 'Hello, Ada!' });
    });

    it('reuses a warm isolate for the same key and source', async () => {
      const j = job('let runs = 0; export default () => ++runs', { key: 'warm' });
      const first = await pool.run(j, handler);
      const second = await pool.run({ ...j }, handler);
      expect(first).toMatchObject({ ok: true, value: 1, stats: { cold: true } });
      expect(second).toMatchObject({ ok: true, value: 2, stats: { cold: false } });
    });

    it('a changed source for the same key gets a fresh isolate', async () => {
      await pool.run(job('export default () => { globalThis.left = 1; return 1 }', { key: 'versioned' }), handler);
      const res = await pool.run(job('export default () => typeof globalThis.left', { key: 'versioned' }), handler);
      expect(res).toMatchObject({ ok: true, value: 'undefined', stats: { cold: true } });
    });

    it('two keys never share globals', async () => {
      const source = 'export default (v) => { const before = globalThis.secret; globalThis.secret = v; return before ?? null; }';
      await pool.run(job(source, { key: 'alice', args: ['alice-secret'] }), handler);
      const bob = await pool.run(job(source, { key: 'bob', args: ['bob-secret'] }), handler);
      const alice = await pool.run(job(source, { key: 'alice', args: ['again'] }), handler);
      expect(bob).toMatchObject({ ok: true, value: null });
      expect(alice).toMatchObject({ ok: true, value: 'alice-secret' });
    });

    it('after a fatal error the key gets a fresh isolate', async () => {
      const source = 'let runs = 0; export default (spin) => { runs++; if (spin) for (;;) {} return runs; }';
      const j = (spin: boolean) => job(source, { key: 'fatal', args: [spin], limits: { cpuMs: 50 } });
      expect(await pool.run(j(false), handler)).toMatchObject({ ok: true, value: 1 });
      expect(await pool.run(j(true), handler)).toMatchObject({ ok: false, error: { code: 'sandbox/cpu-limit' } });
      expect(await pool.run(j(false), handler)).toMatchObject({ ok: true, value: 1, stats: { cold: true } });
    });

    it('reports syntax errors as sandbox/compile-error', async () => {
      const res = await pool.run(job('export default (('), handler);
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/compile-error' } });
      const prelude = await pool.run(job('export default () => 1', { prelude: 'let = ;' }), handler);
      expect(prelude).toMatchObject({ ok: false, error: { code: 'sandbox/compile-error' } });
    });

    it('rejects malformed jobs without running them', async () => {
      const res = await pool.run({ ...job('export default () => 1'), args: 'nope' as unknown as unknown[] }, handler);
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/host-error' } });
    });

    it('runs jobs concurrently', async () => {
      const slow = (i: number) => job('export default async (i) => { await host.get(i); return i }', { key: `c${i}`, args: [i] });
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.run(slow(i), handler)));
      expect(results.map((r) => (r.ok ? r.value : r.error.code))).toEqual(Array.from({ length: 12 }, (_, i) => i));
    });

    it('an AbortSignal cancels a running job', async () => {
      const ctl = new AbortController();
      const never: HostCallHandler = () => new Promise(() => {});
      const running = pool.run({ ...job('export default () => host.get(1)'), signal: ctl.signal }, never);
      setTimeout(() => ctl.abort(), 50);
      expect(await running).toMatchObject({ ok: false, error: { code: 'sandbox/timeout', message: /cancelled/ } });
      expect(await pool.run(job('export default () => 3'), handler)).toMatchObject({ ok: true, value: 3 });
    });
  });
}

describe('worker processes', () => {
  it('do not inherit the server environment (no secrets)', async () => {
    process.env.SKILLYARD_TEST_SECRET = 'hunter2';
    const pool = createSandboxPool({ workers: 1 });
    try {
      expect(await pool.run(job('export default () => 1'), handler)).toMatchObject({ ok: true });
      const [pid] = pool.workerPids();
      const { readFileSync } = await import('node:fs');
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(env.some((line) => line.includes('hunter2'))).toBe(false);
      expect(env.some((line) => line.startsWith('SKILLYARD_SANDBOX_WORKER='))).toBe(true);
    } finally {
      delete process.env.SKILLYARD_TEST_SECRET;
      await pool.close();
    }
  });
});

describe('pieces', () => {
  it('transpileTs reports TypeScript syntax errors as compile errors', () => {
    expect(() => transpileTs('export default (: =>')).toThrow(SandboxFailure);
  });
  it('resolveLimits applies defaults, job values and hard caps', () => {
    expect(resolveLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(resolveLimits({ cpuMs: 5 }, { cpuMs: 50, wallMs: 100 })).toMatchObject({ cpuMs: 5, wallMs: 100 });
    expect(resolveLimits({ memoryMb: 1, maxHostCalls: -3 })).toMatchObject({ memoryMb: 8, maxHostCalls: 0 });
  });
  it('parseUntrustedJson drops __proto__ keys, also escaped ones', () => {
    const parsed = parseUntrustedJson('{"a":{"__proto__":{"x":1},"b":2},"\\u005f_proto__":{"y":1}}') as Record<string, Record<string, unknown>>;
    expect(Object.keys(parsed)).toEqual(['a']);
    expect(Object.keys(parsed.a)).toEqual(['b']);
  });
  it("SandboxEngine.cancel ends a job waiting on its host (a worker's cancel frame), and only that job", async () => {
    const engine = new SandboxEngine();
    try {
      const waiting = job('export default () => host.get(1)');
      const other = job('export default async () => (await host.add(1, 2)) * 2');
      let release: (json: string) => void = () => {};
      const held = new Promise<string>((resolve) => (release = resolve));
      const first = engine.runRaw(waiting, () => held);
      const second = engine.runRaw(other, () => held);
      engine.cancel(waiting);
      expect(await first).toMatchObject({ ok: false, error: { code: 'sandbox/timeout', message: /cancelled/ } });
      release('3');
      expect(await second).toMatchObject({ ok: true, valueJson: '6' });
    } finally {
      engine.close();
    }
  });
  it('finds the worker file from the project root', () => {
    expect(resolveWorkerFile()).toMatch(/dist\/sandbox\/worker\.mjs$/);
  });
});
