// Skill middleware: plain metadata keys of a skill that name a middleware tool activate
// it around the skill's tools, with the key's value as its args. The skill's own
// middleware wins over a visible one of the same name in another loaded skill.

import type { Frame, KernelState } from './kernel-state';
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
      k.index.entries.find((e) => e.tool.name === name && e.tool.role === 'middleware' && e.tool.visibility !== 'hidden');
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
