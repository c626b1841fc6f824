// The onion. Each layer is `fn(ctx, args)`: returning non-undefined sets ctx.locals.result and
// stops the downstream chain; returning undefined continues it; a throw propagates.
// `ctx.manager.next()` runs the rest of the chain now and resolves to its result (so a layer
// can post-process); `ctx.manager.finish(result)` sets the result and stops the chain.

import type { ToolContext } from './types';

export type Layer = {
  name: string;
  args?: unknown;
  fn: (ctx: ToolContext, args: unknown) => unknown | Promise<unknown>;
};

export type ContextInit = Omit<ToolContext, 'args' | 'locals' | 'manager'> & {
  args: unknown;
  invoke: (ref: string, args?: unknown) => Promise<unknown>;
};

/** A context whose `args` is set once: the property is read-only for every layer. */
export function createContext(init: ContextInit): ToolContext {
  const { args, invoke, ...rest } = init;
  const ctx = {
    ...rest,
    locals: {},
    manager: {
      invoke,
      finish: () => {
        throw new Error('finish() is only available inside the pipeline');
      },
      next: async () => undefined,
    },
  } as unknown as ToolContext;
  Object.defineProperty(ctx, 'args', { value: args, enumerable: true, writable: false, configurable: false });
  return ctx;
}

export async function runOnion(ctx: ToolContext, layers: Layer[]): Promise<unknown> {
  let done = false;
  const finish = (result: unknown) => {
    ctx.locals.result = result;
    done = true;
  };
  const dispatch = async (i: number): Promise<unknown> => {
    if (done || i >= layers.length) return ctx.locals.result;
    const layer = layers[i];
    let downstream: Promise<unknown> | null = null;
    // next() runs the downstream chain at most once per layer.
    const next = () => (downstream ??= dispatch(i + 1));
    const manager = Object.freeze({ invoke: ctx.manager.invoke, finish, next });
    const layerCtx = Object.create(ctx, { manager: { value: manager, enumerable: true } }) as ToolContext;
    const out = await layer.fn(layerCtx, layer.args);
    if (out !== undefined) {
      finish(out);
      return out;
    }
    if (done) return ctx.locals.result;
    return next();
  };
  return dispatch(0);
}
