// Skill middleware: plain metadata keys of a skill that name a middleware tool activate
// it around the skill's tools, with the key's value as its args. The skill's own
// middleware wins over a visible one of the same name in another loaded skill, and only a
// skill the wrapped one trusts may supply it: the same publisher (scope), the operator's
// bundled scope, or for local scope-less skills another scope-less one. Otherwise any
// public skill naming a tool `version` would see and rewrite other skills' args and results.

import type { Frame, KernelState } from './kernel-state';
import { BUNDLED_SCOPE } from './bundled-scope';
import type { Layer } from './pipeline';
import { runHandler } from './run-handler';
import type { ToolEntry } from './tool-index';
import { checkTokenGate, tokenGateError } from './tokens';
import type { ToolContext } from './types';

export function skillMiddleware(k: KernelState, entry: ToolEntry, frame: Frame, ctx: ToolContext): Layer[] {
  if (entry.tool.role === 'middleware') return [];
  const layers: Layer[] = [];
  for (const [key, config] of Object.entries(entry.skill.manifest.metadata ?? {})) {
    if (key.startsWith('$')) continue;
    const name = key.replace(/_/g, '-');
    const mw =
      k.index.entries.find((e) => e.skill === entry.skill && e.tool.name === name && e.tool.role === 'middleware') ??
      k.index.entries.find((e) => e.tool.name === name && e.tool.role === 'middleware' && e.tool.visibility !== 'hidden' && mayWrap(e.skill.scope, entry.skill.scope));
    if (!mw) continue;
    layers.push({
      name: mw.ref,
      args: config,
      fn: (lctx, a) => {
        const gate = checkTokenGate(mw.tool, k.held, undefined, mw.skill.scope);
        if (!gate.ok) throw tokenGateError(mw.ref, gate.missing);
        return runHandler(k, { entry: mw, frame: { ...frame, entry: mw }, lctx, args: a, tokens: gate.granted, ctxArgs: ctx.args, isMiddleware: true });
      },
    });
  }
  return layers;
}

/** Whether a middleware from a skill of scope `from` may wrap the tools of a skill of scope `target`. */
function mayWrap(from: string | null | undefined, target: string | null | undefined): boolean {
  if (from == null) return target == null;
  return from === target || from === BUNDLED_SCOPE;
}
