// The host side of a guest's calls: ctx.manager.invoke/next for agent-apps tools, and
// every capability method (granted ones only, see capabilities/grant.ts).

import { callCapability } from './capabilities/grant';
import type { CapabilityName, CapabilityScope } from './capabilities/types';
import { isRuntimeErrorCode, RuntimeError } from './errors';
import type { KernelState } from './kernel-state';
import { skillKey } from './skill-key';
import { sameScopeAs, type ToolEntry } from './tool-index';
import type { LoadedSkill, ToolContext } from './types';

export type HostCallContext = {
  entry: ToolEntry;
  granted: CapabilityName[];
  scope: CapabilityScope;
  origin: { skill: LoadedSkill; depth: number; tree: { calls: number } };
  lctx: ToolContext;
  convention: string;
};

export async function answerHostCall(k: KernelState, method: string, args: unknown[], c: HostCallContext): Promise<unknown> {
  if (method === 'invoke' || method === 'next') {
    if (c.convention !== 'agent-apps') throw new RuntimeError('capability/denied', `ctx.manager.${method} is only available to agent-apps tools`);
    if (method === 'next') return (await c.lctx.manager.next()) ?? null;
    return (await k.invoke(c.origin, String(args[0]), args[1] ?? undefined)) ?? null;
  }
  const result = await callCapability(
    {
      skill: c.entry.skill,
      tool: c.entry.tool,
      scope: c.scope,
      granted: c.granted,
      providers: k.providers,
      invoke: (ref, a) => k.invoke(c.origin, ref, a),
      deliver: (subscriberSkill, ref, a) => {
        // subscriptions record the subscriber's full @scope/name (skill-key.ts)
        const sub = k.opts.skills.find((s) => skillKey(s) === subscriberSkill) ?? c.entry.skill;
        const delivery = k.invoke({ skill: sub, depth: c.origin.depth, tree: c.origin.tree }, ref, a);
        if (sameScopeAs(sub, c.entry.skill)) return delivery;
        // a subscriber of another scope ran with its owner's secrets: its error message
        // (which may quote what it read) stays with it; the publisher learns the code only
        return delivery.catch((err: { code?: string }) => {
          throw new RuntimeError(isRuntimeErrorCode(err?.code) ? err.code : 'tool/failed', `a subscriber of another scope failed`);
        });
      },
      addHeldToken: (t) => k.held.push(t),
    },
    method,
    args,
  );
  return result ?? null;
}
