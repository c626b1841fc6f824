import { afterAll, describe, expect, it } from 'vitest';
import { closeSharedSandbox, createManager, sharedInProcessSandbox } from './testing/harness';
import { codeSkill, skill, tool } from './testing/skills';
import type { HostMiddleware } from './types';
import type { Sandbox } from '../sandbox/types';

afterAll(closeSharedSandbox);
const sb = () => sharedInProcessSandbox();

const echo = (name: string, over = {}, opts = {}) => codeSkill(name, 'export default async function (ctx, args) { return { tool: ctx.tool.name, args }; }', over, opts);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('resolve ref', () => {
  const s = skill('notes', [tool('create-note', { sourceName: 'create_note', handler: { kind: 'inline-code', ref: 'inline://code,export default async () => "created"' } })]);
  it('accepts a bare canonical name, skill/tool, and snake_case spelling', async () => {
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('create-note')).toBe('created');
    expect(await manager.invoke('notes/create-note')).toBe('created');
    expect(await manager.invoke('create_note')).toBe('created');
  });
  it('refuses URIs and paths with a clear error', async () => {
    const { manager } = createManager(sb(), [s]);
    for (const ref of ['inline://code,export default () => 1', 'file:///etc/passwd', './x.js', '/abs/x.js', '../up', 'a/b/c/d']) {
      await expect(manager.invoke(ref)).rejects.toMatchObject({ code: 'ref/invalid' });
    }
    await expect(manager.invoke('file:///x')).rejects.toThrow(/URI or a path/);
  });
  it('unknown tool → tool/not-found', async () => {
    const { manager } = createManager(sb(), [s]);
    await expect(manager.invoke('nope')).rejects.toMatchObject({ code: 'tool/not-found', message: "no loaded tool is named 'nope'" });
  });
  it('the last-loaded skill wins a name clash, but a skill prefers its own tool', async () => {
    const a = skill('a', [
      tool('dup', { handler: { kind: 'inline-code', ref: 'inline://code,export default async () => "from a"' } }),
      tool('call-dup', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => ctx.manager.invoke("dup")' } }),
    ]);
    const b = skill('b', [tool('dup', { handler: { kind: 'inline-code', ref: 'inline://code,export default async () => "from b"' } })]);
    const { manager } = createManager(sb(), [a, b]);
    expect(await manager.invoke('dup')).toBe('from b');
    expect(await manager.invoke('a/dup')).toBe('from a');
    expect(await manager.invoke('call-dup')).toBe('from a');
  });
});

describe('visibility', () => {
  const s = skill('kit', [
    tool('secret', { visibility: 'hidden', handler: { kind: 'inline-code', ref: 'inline://code,export default async () => 42' } }),
    tool('front', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => ({ got: await ctx.manager.invoke("secret") })' } }),
  ]);
  const other = skill('other', [tool('peek', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => ctx.manager.invoke("secret")' } })]);
  it('a hidden tool is refused from outside and from another skill, invokable within its skill', async () => {
    const { manager } = createManager(sb(), [s, other]);
    await expect(manager.invoke('secret')).rejects.toMatchObject({ code: 'tool/hidden' });
    await expect(manager.invoke('peek')).rejects.toMatchObject({ code: 'tool/hidden' });
    expect(await manager.invoke('front')).toEqual({ got: 42 });
  });
  it('listVisibleTools and describe leave hidden tools out', () => {
    const { manager } = createManager(sb(), [s, other]);
    expect(manager.listVisibleTools().map((t) => t.ref)).toEqual(['kit/front', 'other/peek']);
    expect(() => manager.describe('secret')).toThrow(expect.objectContaining({ code: 'tool/hidden' }));
  });
});

describe('allowed-tools in the pipeline', () => {
  const target = echo('file-read', { params: { type: 'object', properties: { path: { type: 'string' } } } });
  const caller = (spec: string) =>
    skill('caller', [tool('go', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx, a) => ctx.manager.invoke(a.ref, a.args)' } })], {
      over: { allowedTools: spec },
    });
  it("a skill's allowed-tools restrict what its tools may invoke, with arg specifiers", async () => {
    const { manager } = createManager(sb(), [target, echo('other-tool'), caller('file-*(path=/tmp/*)')]);
    expect(await manager.invoke('go', { ref: 'file-read', args: { path: '/tmp/a' } })).toEqual({ tool: 'file-read', args: { path: '/tmp/a' } });
    await expect(manager.invoke('go', { ref: 'file-read', args: { path: '/etc/passwd' } })).rejects.toMatchObject({
      code: 'tool/not-allowed',
      message: "skill 'caller' may not invoke 'file-read/file-read': arguments do not match 'file-*(path=/tmp/*)'",
    });
    await expect(manager.invoke('go', { ref: 'other-tool' })).rejects.toMatchObject({ code: 'tool/not-allowed' });
  });
  it('$deny refuses matching calls and wins over allows', async () => {
    const { manager } = createManager(sb(), [target, caller('* file-read(path=/etc/*,$deny)')]);
    expect(await manager.invoke('go', { ref: 'file-read', args: { path: '/home/x' } })).toMatchObject({ tool: 'file-read' });
    await expect(manager.invoke('go', { ref: 'file-read', args: { path: '/etc/shadow' } })).rejects.toMatchObject({ code: 'tool/not-allowed' });
  });
  it("the outside caller's spec applies to top-level calls and to listings", async () => {
    const { manager } = createManager(sb(), [target, echo('other-tool')], { allowedTools: 'other-*' });
    await expect(manager.invoke('file-read')).rejects.toMatchObject({ code: 'tool/not-allowed' });
    expect(await manager.invoke('other-tool')).toMatchObject({ tool: 'other-tool' });
    expect(manager.listVisibleTools().map((t) => t.name)).toEqual(['other-tool']);
  });
});

describe('params and returns validation', () => {
  const s = codeSkill('add', 'export default async function (ctx, { a, b, bad }) { return bad ? { sum: "x" } : { sum: a + b }; }', {
    params: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', default: 10 }, bad: { type: 'boolean' } },
      required: ['a'],
      additionalProperties: false,
    },
    returns: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  });
  it('validates params (defaults applied) and returns', async () => {
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('add', { a: 1, b: 2 })).toEqual({ sum: 3 });
    expect(await manager.invoke('add', { a: 1 })).toEqual({ sum: 11 });
    await expect(manager.invoke('add', { b: 1 })).rejects.toMatchObject({ code: 'params/invalid', message: expect.stringContaining("must have required property 'a'") });
    await expect(manager.invoke('add', { a: 1, c: 1 })).rejects.toMatchObject({ code: 'params/invalid', message: expect.stringContaining('(c)') });
    await expect(manager.invoke('add', { a: 1, bad: true })).rejects.toMatchObject({ code: 'returns/invalid' });
  });
  it('$resolve replaces the static schema when the path resolves, and is not a validation error otherwise', async () => {
    const t = codeSkill('send', 'export default async (ctx, a) => a', {
      params: { $resolve: 'gateway.sendSchema', type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    });
    const plain = createManager(sb(), [t]).manager;
    expect(await plain.invoke('send', { message: 'hi' })).toEqual({ message: 'hi' });
    const resolved = createManager(sb(), [t], {
      resolveContext: { gateway: { sendSchema: { type: 'object', properties: { channel: { type: 'string' } }, required: ['channel'] } } },
    }).manager;
    await expect(resolved.invoke('send', { message: 'hi' })).rejects.toMatchObject({ code: 'params/invalid' });
    expect(await resolved.invoke('send', { channel: '#x' })).toEqual({ channel: '#x' });
    expect(resolved.describe('send').params).toMatchObject({ required: ['channel'] });
  });
});

describe('the onion through the manager', () => {
  it('host middleware wraps every tool, outermost first, and can short-circuit', async () => {
    const log: string[] = [];
    const mw: HostMiddleware[] = [
      {
        name: 'trace',
        fn: async (ctx) => {
          log.push(`in:${ctx.tool.name}`);
          const r = await ctx.manager.next();
          log.push(`out:${JSON.stringify(r)}`);
        },
      },
      { name: 'cache', fn: (ctx) => ((ctx.args as { cached?: boolean })?.cached ? 'from cache' : undefined) },
    ];
    const { manager } = createManager(sb(), [echo('t', { params: { type: 'object' } })], { middleware: mw });
    expect(await manager.invoke('t', { x: 1 })).toEqual({ tool: 't', args: { x: 1 } });
    expect(await manager.invoke('t', { cached: true })).toBe('from cache');
    expect(log).toEqual(['in:t', 'out:{"tool":"t","args":{"x":1}}', 'in:t', 'out:"from cache"']);
  });
  it('a skill middleware tool (activated by a metadata key) runs in the sandbox with its config as args and calls next()', async () => {
    const s = skill(
      'wrapped',
      [
        tool('shout', {
          role: 'middleware',
          handler: {
            kind: 'inline-code',
            ref: 'inline://code,export default async (ctx, cfg) => { const r = await ctx.manager.next(); return { inner: r, suffix: cfg.suffix, sawArgs: ctx.args }; }',
          },
        }),
        tool('hello', { params: { type: 'object' }, handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx, a) => "hello " + a.name' } }),
      ],
      { over: { metadata: { shout: { suffix: '!' } } } },
    );
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('hello', { name: 'Ada' })).toEqual({ inner: 'hello Ada', suffix: '!', sawArgs: { name: 'Ada' } });
  });
  it('in the guest: ctx.args is read-only, finish() sets the result, a nested error keeps its code', async () => {
    const s = skill('g', [
      tool('ro', {
        params: { type: 'object' },
        handler: {
          kind: 'inline-code',
          ref: 'inline://code,export default async (ctx) => { "use strict"; try { ctx.args = 1; return "assigned"; } catch (e) { return "read-only:" + JSON.stringify(ctx.args); } }',
        },
      }),
      tool('fin', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => { ctx.manager.finish({ done: 1 }); }' } }),
      tool('nest', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => ctx.manager.invoke("missing-tool")' } }),
      tool('boom', { handler: { kind: 'inline-code', ref: 'inline://code,export default async () => { throw new Error("kaput"); }' } }),
    ]);
    const { manager } = createManager(sb(), [s]);
    expect(await manager.invoke('ro', { a: 1 })).toBe('read-only:{"a":1}');
    expect(await manager.invoke('fin')).toEqual({ done: 1 });
    await expect(manager.invoke('nest')).rejects.toMatchObject({ code: 'tool/not-found', message: "no loaded tool is named 'missing-tool'" });
    await expect(manager.invoke('boom')).rejects.toMatchObject({ code: 'tool/failed', message: "'g/boom' failed: kaput" });
  });
});

describe('limits', () => {
  it('recursion stops at maxDepth with runtime/depth-exceeded', async () => {
    const s = codeSkill('loop', 'export default async (ctx) => ctx.manager.invoke("loop")');
    const { manager } = createManager(sb(), [s], { maxDepth: 3 });
    await expect(manager.invoke('loop')).rejects.toMatchObject({ code: 'runtime/depth-exceeded', message: "tool calls nest deeper than 3 (calling 'loop')" });
  });
  it('fan-out stops at maxCalls with runtime/too-many-calls', async () => {
    const s = skill('fan', [
      tool('leaf', { handler: { kind: 'inline-code', ref: 'inline://code,export default async () => 1' } }),
      tool('root', {
        handler: {
          kind: 'inline-code',
          ref: 'inline://code,export default async (ctx) => { let n = 0; for (let i = 0; i < 10; i++) n += await ctx.manager.invoke("leaf"); return n; }',
        },
      }),
    ]);
    expect(await createManager(sb(), [s], { maxCalls: 11 }).manager.invoke('root')).toBe(10);
    expect(await codeOf(createManager(sb(), [s], { maxCalls: 5 }).manager.invoke('root'))).toBe('runtime/too-many-calls');
  });
  it('reports tool-start/tool-end events with depth', async () => {
    const events: string[] = [];
    const s = skill('ev', [
      tool('inner', { handler: { kind: 'inline-code', ref: 'inline://code,export default async () => 1' } }),
      tool('outer', { handler: { kind: 'inline-code', ref: 'inline://code,export default async (ctx) => ctx.manager.invoke("inner")' } }),
    ]);
    const { manager } = createManager(sb(), [s], { onEvent: (e) => events.push(`${e.type}:${e.tool}:${e.depth}`) });
    await manager.invoke('outer');
    expect(events).toEqual(['tool-start:outer:0', 'tool-start:inner:1', 'tool-end:inner:1', 'tool-end:outer:0']);
  });
});

describe('sandbox queue share', () => {
  const s = skill('notes', [tool('create-note', { sourceName: 'create_note', handler: { kind: 'inline-code', ref: 'inline://code,export default async () => "created"' } })]);
  it("a job queues under the caller's queueKey when it has one, else under its key's caller prefix", async () => {
    const principals: Array<string | undefined> = [];
    const recording = (): Sandbox => {
      const real = sb();
      return { run: (job, handler) => (principals.push(job.principal), real.run(job, handler)), close: async () => {} };
    };
    const shared = createManager(recording(), [s], { caller: { id: 'visitor:abc', kind: 'anonymous', queueKey: 'ip:203.0.113.7' } });
    expect(await shared.manager.invoke('create-note')).toBe('created');
    const own = createManager(recording(), [s], { caller: { id: 'u1', kind: 'user' } });
    expect(await own.manager.invoke('create-note')).toBe('created');
    expect(principals).toEqual(['ip:203.0.113.7', undefined]);
  });
});
