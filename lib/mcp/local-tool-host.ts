// The MCP tool host for skills already loaded in this process (`skillyard mcp`): one
// kernel for the whole session, so tokens a tool mints unlock tools for later calls.
import type { ToolManager } from '../runtime';
import type { LoadedSkill } from '../runtime';
import { lockedToolNotes } from './locked-tools';
import type { McpToolHost } from './tool-host';

export function localToolHost(skills: LoadedSkill[], manager: ToolManager): McpToolHost {
  return {
    skills: () =>
      skills.map((s) => ({
        ref: s.scope ? `@${s.scope}/${s.manifest.name}` : s.manifest.name,
        name: s.manifest.name,
        description: s.manifest.description,
        instructions: s.manifest.instructions,
        locked: lockedToolNotes(s.manifest),
      })),
    listVisibleTools: async () => manager.listVisibleTools().filter((t) => t.role !== 'middleware'),
    invoke: (ref, args) => manager.invoke(ref, args),
  };
}
