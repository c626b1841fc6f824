// The agent's reading of an `allowed-tools` spec. The grammar (globs, `tool(key=value)`
// argument constraints, `$deny`) is the runtime's, so that the agent documents exactly
// what the pipeline will let through; this file adds what only the agent needs: mode
// selection (bare `*`) and "explicitly named" (hidden tools, self-recursion).

import { checkAllowedTools, mayListTool, parseAllowedTools as parseRuntimeSpec, type AllowedToolsSpec } from '../runtime';

export type AllowedSpec = AllowedToolsSpec & { hasBareStar: boolean };

const GLOB_CHARS = /[*?]/;

/** null for an absent or blank spec (discovery mode). */
export function parseAgentAllowedTools(spec: string | null | undefined): AllowedSpec | null {
  if (spec == null || spec.trim() === '') return null;
  const parsed = parseRuntimeSpec(spec)!;
  return { ...parsed, hasBareStar: parsed.entries.some((e) => e.pattern === '*' && !e.deny && e.conditions.length === 0) };
}

/** Named without any glob character, in an entry that grants. */
export function isExplicitlyNamed(spec: AllowedSpec | null, tool: string): boolean {
  return !!spec?.entries.some((e) => !e.deny && !GLOB_CHARS.test(e.pattern) && e.pattern === tool);
}

/** May this tool appear at all (argument constraints aside)? */
export function matchesToolName(spec: AllowedSpec | null, tool: string, skill?: string): boolean {
  return mayListTool(spec, skill ? [tool, `${skill}/${tool}`] : [tool]);
}

/** Is this call allowed? null when it is, the reason when it is not. */
export function checkToolCall(spec: AllowedSpec | null, tool: string, args: unknown, skill?: string): string | null {
  const d = checkAllowedTools(spec, skill ? [tool, `${skill}/${tool}`] : [tool], args);
  return d.allowed ? null : d.reason;
}
