// Security suite: escape and denial-of-service attempts against the worker-process pool.
// Every case asserts that the attempt is contained (a clear error code, or a value that
// proves nothing leaked) and that the very next job on the same pool still succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from './pool';
import type { HostCallHandler, SandboxErrorCode, SandboxJob, SandboxResult } from './types';

let pool: SandboxPool;
let keyCounter = 0;

const handler: HostCallHandler = async (method, args) => {
  if (method === 'echo') return args[0];
  if (method === 'fail') throw Object.assign(new Error('host says no'), { code: 'test/denied' });
  if (method === 'never') return new Promise(() => {});
  if (method === 'count') return args.length;
  throw new Error(`unexpected method ${method}`);
};

function job(source: string, extra: Partial<SandboxJob> = {}): SandboxJob {
  return {
    key: `escape-${++keyCounter}`,
    source,
    entry: 'default',
    args: [],
    hostMethods: ['echo', 'fail', 'never', 'count'],
    limits: { cpuMs: 200, wallMs: 2_000, memoryMb: 16 },
    ...extra,
  };
}

async function expectNextJobWorks(): Promise<void> {
  const res = await pool.run(job('export default async (x) => (await host.echo(x)) * 2', { args: [21] }), handler);
  expect(res).toMatchObject({ ok: true, value: 42 });
}

async function contained(j: SandboxJob, code: SandboxErrorCode, message?: RegExp, h: HostCallHandler = handler): Promise<SandboxResult> {
  const res = await pool.run(j, h);
  if (res.ok) throw new Error(`expected ${code}, got ok with ${JSON.stringify(res.value)}`);
  expect(res.error.code).toBe(code);
  if (message) expect(res.error.message).toMatch(message);
  await expectNextJobWorks();
  return res;
}

async function containedValue(j: SandboxJob, h: HostCallHandler = handler): Promise<unknown> {
  const res = await pool.run(j, h);
  if (!res.ok) throw new Error(`expected a value, got ${res.error.code}: ${res.error.message}`);
  await expectNextJobWorks();
  return res.value;
}

// The payload every constructor chain tries: get `process`, then run a command.
const PWN = `('return process')().mainModule.require('child_process').execSync('id')`;

beforeAll(() => {
  pool = createSandboxPool({ workers: 2, concurrency: 4 });
});
afterAll(async () => {
  await pool.close();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('constructor chains never reach the host realm', () => {
  it('this.constructor.constructor', async () => {
    await contained(job(`export default function () { return this.constructor.constructor${PWN}; }`), 'sandbox/guest-error');
  });
  it('globalThis.constructor.constructor', async () => {
    await contained(job(`export default () => globalThis.constructor.constructor${PWN}`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via a host function', async () => {
    await contained(job(`export default () => host.echo.constructor${PWN}`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via the host object itself (null prototype, frozen)', async () => {
    await contained(job(`export default () => host.constructor.constructor${PWN}`), 'sandbox/guest-error', /reading 'constructor'/);
  });
  it('via the host object: prototype and own keys expose nothing', async () => {
    const value = await containedValue(
      job(`export default () => [Object.getPrototypeOf(host), Reflect.ownKeys(host), Object.isFrozen(host), Object.getOwnPropertyDescriptor(globalThis, 'host').writable]`),
    );
    expect(value).toEqual([null, ['echo', 'fail', 'never', 'count'], true, false]);
  });
  it('via an args object', async () => {
    await contained(job(`export default (a) => a.constructor.constructor${PWN}`, { args: [{ a: 1 }] }), 'sandbox/guest-error', /process is not defined/);
  });
  it('via an args array', async () => {
    await contained(job(`export default (a) => a.constructor.constructor${PWN}`, { args: [[1, 2]] }), 'sandbox/guest-error', /process is not defined/);
  });
  it('via a globals value', async () => {
    await contained(job(`export default () => cfg.constructor.constructor${PWN}`, { globals: { cfg: { a: 1 } } }), 'sandbox/guest-error', /process is not defined/);
  });
  it('via a host call result', async () => {
    await contained(job(`export default async () => (await host.echo({ x: 1 })).constructor.constructor${PWN}`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via the promise a host call returns', async () => {
    await contained(job(`export default () => host.echo(1).constructor.constructor${PWN}`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via an Error coming back from a host call', async () => {
    await contained(
      job(`export default async () => { try { await host.fail() } catch (e) { return e.constructor.constructor${PWN} } }`),
      'sandbox/guest-error',
      /process is not defined/,
    );
  });
  it('via the AsyncFunction constructor', async () => {
    await contained(job(`export default async () => await (async () => {}).constructor${PWN}`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via the GeneratorFunction constructor', async () => {
    await contained(job(`export default () => (function* () {}).constructor('return process')().next().value.exit()`), 'sandbox/guest-error', /process is not defined/);
  });
  it('via the Promise constructor and a rejected host promise', async () => {
    await contained(
      job(`export default () => host.fail().catch((e) => Promise.constructor.constructor${PWN})`),
      'sandbox/guest-error',
      /process is not defined/,
    );
  });
  it('indirect eval and new Function see only the guest global', async () => {
    await contained(job(`export default () => (0, eval)('this').process.exit(1)`), 'sandbox/guest-error', /reading 'exit'/);
  });
});

describe('stack trace tricks', () => {
  it('Error.prepareStackTrace call sites hold no host objects', async () => {
    const src = `export default async () => {
      Error.prepareStackTrace = (e, sites) => sites.map((s) => { const t = s.getThis(); const f = s.getFunction && s.getFunction(); return [typeof t, typeof f, String(s.getFileName())]; });
      try { await host.fail(); } catch (e) { const frames = e.stack; Error.prepareStackTrace = undefined; return frames; }
    }`;
    const frames = (await containedValue(job(src))) as unknown[][];
    for (const [, , file] of frames) expect(file).not.toMatch(/node:|\/work\/|lib\/sandbox/);
  });
  it('prepareStackTrace used to reach a constructor still lands in the guest realm', async () => {
    const src = `export default async () => {
      Error.prepareStackTrace = (e, sites) => sites;
      let sites; try { await host.fail(); } catch (e) { sites = e.stack; }
      Error.prepareStackTrace = undefined;
      for (const s of sites) { const t = s.getThis(); if (t) return t.constructor.constructor${PWN}; }
      return globalThis.constructor.constructor${PWN};
    }`;
    await contained(job(src), 'sandbox/guest-error', /process is not defined/);
  });
  it('host error stacks carry no host paths', async () => {
    const value = await containedValue(job(`export default async () => { try { await host.fail() } catch (e) { return [e.message, e.code, String(e.stack)] } }`));
    const [message, code, stack] = value as string[];
    expect(message).toBe('host says no');
    expect(code).toBe('test/denied');
    expect(stack).not.toMatch(/\/work\/|node:|lib\/sandbox/);
  });
  it('Error.captureStackTrace shows only guest frames', async () => {
    const stack = (await containedValue(job(`export default () => { const o = {}; Error.captureStackTrace(o); return o.stack; }`))) as string;
    expect(stack).not.toMatch(/\/work\/|node:|lib\/sandbox/);
  });
});

describe('prototype pollution', () => {
  it('__proto__ keys in args do not pollute the host or the guest', async () => {
    const args = [JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}')];
    const value = await containedValue(job(`export default (a) => [({}).polluted ?? null, Object.assign({}, a).polluted ?? null, a.a]`, { args }));
    expect(value).toEqual([null, 'yes', 1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('__proto__ keys in results are dropped before they reach the host', async () => {
    const value = await containedValue(job(`export default () => JSON.parse('{"__proto__": {"polluted": "yes"}, "ok": 1}')`));
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(false);
    expect((Object.assign({}, value) as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('escaped \\u005f\\u005fproto__ keys in results are dropped too', async () => {
    const value = await containedValue(job(`export default () => { JSON.stringify = () => '{"\\\\u005f\\\\u005fproto\\\\u005f\\\\u005f": {"polluted": 1}}'; return 1; }`));
    // the guest's own JSON.stringify replacement is ignored: the bridge captured the original
    expect(value).toBe(1);
    const res = await pool.run(job(`export default () => ({ nested: JSON.parse('{"\\\\u005f_proto__": {"polluted": 1}}') })`), handler);
    expect(res.ok).toBe(true);
    if (res.ok) expect(Object.keys((res.value as { nested: object }).nested)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('results with constructor/prototype keys stay plain data', async () => {
    const value = await containedValue(job(`export default () => ({ constructor: { prototype: { polluted: 1 } } })`));
    expect(value).toEqual({ constructor: { prototype: { polluted: 1 } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('__proto__ keys in host call arguments never reach the handler', async () => {
    let seen: unknown;
    const h: HostCallHandler = async (method, args) => {
      seen = args[0];
      return null;
    };
    await containedValue(job(`export default async () => { await host.echo(JSON.parse('{"__proto__": {"polluted": 1}, "b": 2}')); return 1; }`), h);
    expect(Object.keys(seen as object)).toEqual(['b']);
    expect((Object.assign({}, seen) as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("a guest polluting its own Object.prototype affects neither the host nor another key", async () => {
    await containedValue(job(`export default () => { Object.prototype.polluted = 'yes'; return 1; }`, { key: 'polluter' }));
    const other = await containedValue(job(`export default () => ({}).polluted ?? 'clean'`, { key: 'bystander' }));
    expect(other).toBe('clean');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('ambient globals are absent', () => {
  const absent: [string, string, RegExp][] = [
    ['process', `export default () => process.exit(1)`, /process is not defined/],
    ['require', `export default () => require('fs')`, /require is not defined/],
    ['dynamic import()', `export default async () => (await import('fs')).readFileSync('/etc/passwd')`, /not supported/i],
    ['fetch', `export default async () => fetch('http://127.0.0.1')`, /fetch is not defined/],
    ['setTimeout', `export default () => setTimeout(() => {}, 1)`, /setTimeout is not defined/],
    ['setInterval / setImmediate', `export default () => (setInterval ?? setImmediate)(() => {}, 1)`, /is not defined/],
    ['SharedArrayBuffer', `export default () => new SharedArrayBuffer(8)`, /SharedArrayBuffer is not defined/],
    ['WebAssembly', `export default () => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))`, /WebAssembly is not defined/],
    ['Atomics.wait', `export default () => Atomics.wait(new Int32Array(4), 0, 0, 1000)`, /Atomics is not defined/],
    ['Buffer and global', `export default () => Buffer.from('x') ?? global.process`, /Buffer is not defined/],
  ];
  for (const [name, source, message] of absent) {
    it(name, async () => {
      await contained(job(source), 'sandbox/guest-error', message);
    });
  }
  it('static imports are refused at compile time', async () => {
    await contained(job(`import fs from 'node:fs'; export default () => fs.readFileSync('/etc/passwd', 'utf8')`), 'sandbox/compile-error', /imports are not allowed.*node:fs/);
  });
  it('the bridge callbacks are not reachable from the global scope', async () => {
    const value = await containedValue(
      job(`export default () => Reflect.ownKeys(globalThis).map(String).filter((k) => /^(_?ivm|Reference|Callback|ExternalCopy|\\$\\d|send|done|run|settle|setNamespace|bridge|__.*)$/i.test(k))`),
    );
    expect(value).toEqual([]);
  });
  it('an undeclared host method does not exist', async () => {
    await contained(job(`export default () => host.readSecrets()`, { hostMethods: ['echo'] }), 'sandbox/guest-error', /not a function/);
  });
  it('host cannot be replaced', async () => {
    await contained(job(`export default () => { globalThis.host = { echo: () => 'mine' }; }`), 'sandbox/guest-error', /read only|read-only|Cannot assign/);
  });
  it('replacing JSON and Promise.prototype.then does not redirect the bridge', async () => {
    const value = await containedValue(
      job(`export default async () => { const r = await host.echo(5); JSON.parse = () => ({ hacked: 1 }); JSON.stringify = () => '"hacked"'; return { r }; }`),
    );
    expect(value).toEqual({ r: 5 });
  });
});

describe('denial of service', () => {
  it('a synchronous infinite loop hits the CPU limit', async () => {
    await contained(job(`export default () => { for (;;) {} }`), 'sandbox/cpu-limit');
  });
  it('an infinite loop after an awaited host call hits the CPU limit', async () => {
    await contained(job(`export default async () => { await host.echo(1); for (;;) {} }`), 'sandbox/cpu-limit');
  });
  it('an infinite loop at module top level hits the CPU limit', async () => {
    await contained(job(`for (;;) {} export default () => 1`), 'sandbox/cpu-limit');
  });
  it('an infinite loop in the prelude hits the CPU limit', async () => {
    await contained(job(`export default () => 1`, { prelude: 'for (;;) {}' }), 'sandbox/cpu-limit');
  });
  it('a microtask flood hits the CPU limit', async () => {
    await contained(job(`export default () => { const f = () => { Promise.resolve().then(f); }; f(); return new Promise(() => {}); }`), 'sandbox/cpu-limit');
  });
  it('a host call that never resolves hits the wall-clock deadline', async () => {
    await contained(job(`export default async () => await host.never()`, { limits: { wallMs: 300 } }), 'sandbox/timeout', /wall-clock/);
  });
  it('a promise that never settles hits the wall-clock deadline', async () => {
    await contained(job(`export default () => new Promise(() => {})`, { limits: { wallMs: 300 } }), 'sandbox/timeout');
  });
  it('a thenable result whose then never calls back hits the wall-clock deadline', async () => {
    await contained(job(`export default () => ({ then() {} })`, { limits: { wallMs: 300 } }), 'sandbox/timeout');
  });
  it('a memory bomb of arrays hits the memory limit', async () => {
    await contained(job(`export default () => { const a = []; for (let i = 0; ; i++) a.push([i, i + 1, i + 2, i + 3]); }`, { limits: { cpuMs: 5_000, memoryMb: 16 } }), 'sandbox/memory-limit');
  });
  it('a memory bomb of strings hits the memory limit', async () => {
    await contained(job(`export default () => { const a = []; const s = 'x'.repeat(1 << 16); for (let i = 0; ; i++) a.push(s + i); }`, { limits: { cpuMs: 5_000, memoryMb: 16 } }), 'sandbox/memory-limit');
  });
  it('a memory bomb of nested objects hits the memory limit', async () => {
    await contained(job(`export default () => { let o = {}; for (let i = 0; ; i++) o = { o, i, s: 'v' + i }; }`, { limits: { cpuMs: 5_000, memoryMb: 16 } }), 'sandbox/memory-limit');
  });
  it('a memory bomb after a host call hits the memory limit', async () => {
    await contained(job(`export default async () => { await host.echo(1); const a = []; for (;;) a.push({ a: [1, 2, 3] }); }`, { limits: { cpuMs: 5_000, memoryMb: 16 } }), 'sandbox/memory-limit');
  });
  it('a huge ArrayBuffer is refused', async () => {
    const res = await pool.run(job(`export default () => new ArrayBuffer(2 ** 31).byteLength`), handler);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(['sandbox/guest-error', 'sandbox/memory-limit']).toContain(res.error.code);
    await expectNextJobWorks();
  });
  it('deep recursion is a guest error, not a crash', async () => {
    await contained(job(`export default () => { const f = (n) => f(n + 1) + 1; return f(0); }`), 'sandbox/guest-error', /call stack/);
  });
  it('a huge result is refused', async () => {
    await contained(job(`export default () => 'x'.repeat(2_000_000)`, { limits: { cpuMs: 1_000, memoryMb: 64 } }), 'sandbox/result-too-large');
  });
  it('huge returnGlobals are refused', async () => {
    await contained(job(`export default () => { globalThis.big = 'y'.repeat(200); return 1; }`, { returnGlobals: ['big'], limits: { maxResultBytes: 100 } }), 'sandbox/result-too-large');
  });
  it('a result whose getter loops forever hits the CPU limit', async () => {
    await contained(job(`export default () => ({ get x() { for (;;) {} } })`), 'sandbox/cpu-limit');
  });
  it('a result that is not JSON is a guest error', async () => {
    await contained(job(`export default () => ({ n: 10n })`), 'sandbox/guest-error', /JSON/);
  });
  it('a thrown value with a poisoned toString is still reported', async () => {
    await contained(job(`export default () => { throw { get message() { throw new Error('gotcha') } }; }`), 'sandbox/guest-error', /cannot be described/);
  });
  it('10,000 awaited host calls exceed the default host-call limit', async () => {
    await contained(job(`export default async () => { for (let i = 0; i < 10000; i++) await host.echo(i); }`, { limits: { cpuMs: 5_000, wallMs: 10_000 } }), 'sandbox/too-many-host-calls');
  });
  it('10,000 host calls fired without awaiting exceed the limit too', async () => {
    await contained(job(`export default () => { for (let i = 0; i < 10000; i++) host.count(i); return 1; }`, { limits: { cpuMs: 5_000 } }), 'sandbox/too-many-host-calls');
  });
  it('10,000 host calls succeed when the job raises its limit', async () => {
    const value = await containedValue(
      job(`export default async () => { let s = 0; for (let i = 0; i < 10000; i++) s += await host.echo(1); return s; }`, {
        limits: { cpuMs: 10_000, wallMs: 30_000, maxHostCalls: 10_000 },
      }),
    );
    expect(value).toBe(10_000);
  });
  it('a worker killed mid-job fails only that job; the pool restarts it', async () => {
    // one worker, so the job certainly runs on the worker we kill
    const single = createSandboxPool({ workers: 1 });
    try {
      const killer: HostCallHandler = async () => {
        for (const pid of single.workerPids()) process.kill(pid, 'SIGKILL');
        return new Promise(() => {});
      };
      const res = await single.run(job(`export default async () => host.echo(1)`, { limits: { wallMs: 10_000 } }), killer);
      expect(res).toMatchObject({ ok: false, error: { code: 'sandbox/worker-crashed', message: expect.stringMatching(/exited/) } });
      const next = await single.run(job('export default async (x) => (await host.echo(x)) * 2', { args: [21] }), handler);
      expect(next).toMatchObject({ ok: true, value: 42 });
      expect(single.stats().restarts).toBe(1);
    } finally {
      await single.close();
    }
    await expectNextJobWorks();
  });
});

describe('queue overflow', () => {
  it('jobs over the queue limit get sandbox/queue-full and the pool keeps working', async () => {
    const small = createSandboxPool({ workers: 1, concurrency: 1, queueLimit: 1 });
    try {
      expect(await small.run(job(`export default () => 0`), handler)).toMatchObject({ ok: true }); // worker is up
      const slow = job(`export default async () => await host.never()`, { limits: { wallMs: 500 } });
      const results = await Promise.all([small.run(slow, handler), small.run(slow, handler), small.run(slow, handler)]);
      const codes = results.map((r) => (r.ok ? 'ok' : r.error.code));
      expect(codes.filter((c) => c === 'sandbox/queue-full')).toHaveLength(1);
      expect(codes.filter((c) => c === 'sandbox/timeout')).toHaveLength(2);
      const next = await small.run(job(`export default () => 7`), handler);
      expect(next).toMatchObject({ ok: true, value: 7 });
    } finally {
      await small.close();
    }
    expect(await small.run(job(`export default () => 1`), handler)).toMatchObject({ ok: false, error: { code: 'sandbox/closed' } });
  });
});
