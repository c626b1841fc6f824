import { describe, expect, it } from 'vitest';
import { createContext, runOnion, type Layer } from './pipeline';
import type { ToolContext } from './types';

function ctxWith(args: unknown): ToolContext {
  return createContext({
    args,
    skill: { name: 's', format: 'code-skill' },
    tool: { name: 't', role: null },
    caller: { id: 'u1', kind: 'user' },
    tokens: [],
    depth: 0,
    invoke: async () => null,
  });
}

describe('runOnion', () => {
  it('runs layers outermost first and unwinds in reverse (onion order)', async () => {
    const log: string[] = [];
    const mw = (name: string): Layer => ({
      name,
      fn: async (ctx) => {
        log.push(`${name}:in`);
        const r = await ctx.manager.next();
        log.push(`${name}:out:${String(r)}`);
        return undefined;
      },
    });
    const result = await runOnion(ctxWith({}), [mw('a'), mw('b'), { name: 'h', fn: () => (log.push('h'), 'done') }]);
    expect(result).toBe('done');
    expect(log).toEqual(['a:in', 'b:in', 'h', 'b:out:done', 'a:out:done']);
  });

  it('returning non-undefined sets ctx.locals.result and stops the downstream chain', async () => {
    const ctx = ctxWith({});
    let reached = false;
    const result = await runOnion(ctx, [
      { name: 'gate', fn: () => ({ blocked: true }) },
      { name: 'h', fn: () => ((reached = true), 1) },
    ]);
    expect(result).toEqual({ blocked: true });
    expect(ctx.locals.result).toEqual({ blocked: true });
    expect(reached).toBe(false);
  });

  it('returning undefined continues to the next layer without calling next()', async () => {
    const seen: string[] = [];
    const result = await runOnion(ctxWith({}), [
      { name: 'a', fn: () => void seen.push('a') },
      { name: 'b', fn: () => void seen.push('b') },
      { name: 'h', fn: () => 42 },
    ]);
    expect(seen).toEqual(['a', 'b']);
    expect(result).toBe(42);
  });

  it('a throw propagates up through the onion, past outer layers', async () => {
    const log: string[] = [];
    const p = runOnion(ctxWith({}), [
      {
        name: 'outer',
        fn: async (ctx) => {
          log.push('outer');
          await ctx.manager.next();
          log.push('never');
        },
      },
      {
        name: 'h',
        fn: () => {
          throw new Error('boom');
        },
      },
    ]);
    await expect(p).rejects.toThrow('boom');
    expect(log).toEqual(['outer']);
  });

  it('an outer layer can catch an inner throw and return a fallback', async () => {
    const result = await runOnion(ctxWith({}), [
      {
        name: 'outer',
        fn: async (ctx) => {
          try {
            await ctx.manager.next();
          } catch (e) {
            return `caught ${(e as Error).message}`;
          }
        },
      },
      {
        name: 'h',
        fn: () => {
          throw new Error('inner');
        },
      },
    ]);
    expect(result).toBe('caught inner');
  });

  it('ctx.args is set once: layers cannot reassign it, middleware gets its own config as args', async () => {
    const ctx = ctxWith({ x: 1 });
    const seen: unknown[] = [];
    await runOnion(ctx, [
      {
        name: 'mw',
        args: { config: true },
        fn: (c, a) => {
          seen.push(a, c.args);
          expect(() => {
            (c as { args: unknown }).args = { x: 2 };
          }).toThrow(TypeError);
        },
      },
      { name: 'h', fn: (c) => c.args },
    ]);
    expect(seen).toEqual([{ config: true }, { x: 1 }]);
    expect(ctx.args).toEqual({ x: 1 });
  });

  it('finish(result) sets the result and stops the chain even when the layer returns undefined', async () => {
    let reached = false;
    const result = await runOnion(ctxWith({}), [
      { name: 'mw', fn: (c) => void c.manager.finish('early') },
      { name: 'h', fn: () => ((reached = true), 'late') },
    ]);
    expect(result).toBe('early');
    expect(reached).toBe(false);
  });

  it('next() runs the downstream chain once even when called twice', async () => {
    let runs = 0;
    const result = await runOnion(ctxWith({}), [
      {
        name: 'mw',
        fn: async (c) => {
          await c.manager.next();
          await c.manager.next();
          return undefined;
        },
      },
      { name: 'h', fn: () => ++runs },
    ]);
    expect(runs).toBe(1);
    expect(result).toBe(1);
  });

  it('an outer layer may replace the inner result after next() (post-processing)', async () => {
    const result = await runOnion(ctxWith({}), [
      { name: 'wrap', fn: async (c) => ({ wrapped: await c.manager.next() }) },
      { name: 'h', fn: () => 'v' },
    ]);
    expect(result).toEqual({ wrapped: 'v' });
  });
});
