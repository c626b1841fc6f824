// createToolManager: the kernel. Every invocation, from outside or from a tool, takes the
// same path (SPEC section 3, invoke-tool.ts); this file builds the manager's state and
// offers the caller's view of it (invoke, list, describe, plan).

import { mayListTool } from './allowed-tools';
import { RuntimeError } from './errors';
import { createKernelState, namesOf, schemaOf, type KernelState } from './kernel-state';
import { invokeTool } from './invoke-tool';
import { planFor } from './planner';
import { checkTokenGate } from './tokens';
import type { ToolEntry } from './tool-index';
import type { ToolManager, ToolManagerOptions, ToolSummary } from './types';

export { DEFAULT_MAX_CALLS, DEFAULT_MAX_DEPTH } from './kernel-state';

function summary(k: KernelState, e: ToolEntry): ToolSummary {
  return {
    ref: e.ref,
    skill: e.skill.manifest.name,
    name: e.tool.name,
    description: e.tool.description,
    role: e.tool.role,
    params: schemaOf(k, e.tool.params),
    returns: schemaOf(k, e.tool.returns),
    capabilities: [...(e.tool.capabilities ?? [])],
    tags: [...(e.tool.tags ?? [])],
    handler: e.tool.handler?.kind,
    mints: Object.keys(e.tool.outputTokens ?? {}),
  };
}

export function createToolManager(opts: ToolManagerOptions): ToolManager {
  const k: KernelState = createKernelState(opts, (origin, ref, args) => invokeTool(k, origin, ref, args));
  return {
    invoke: (ref, args) => invokeTool(k, null, ref, args),
    listVisibleTools: () =>
      k.index.entries
        .filter((e) => e.tool.visibility !== 'hidden' && mayListTool(k.outsideSpec, namesOf(e)) && checkTokenGate(e.tool, k.held, undefined, e.skill.scope).ok)
        .map((e) => summary(k, e)),
    describe(ref) {
      const e = k.index.resolve(ref, null);
      if (e.tool.visibility === 'hidden') throw new RuntimeError('tool/hidden', `tool '${e.ref}' is hidden`);
      return summary(k, e);
    },
    plan: (ref) => planFor(k.index, k.index.resolve(ref, null), k.held),
    heldTokens: () => [...k.held],
  };
}
