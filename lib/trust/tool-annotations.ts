// MCP tool annotations (the protocol's hints to a client) from what a tool declares:
// `openWorldHint` when it may reach beyond the registry (net, a subprocess, another MCP
// server), `readOnlyHint` only when it declares nothing that writes or reaches out. The
// kernel enforces the declarations, so a read-only hint here holds. destructiveHint is left
// unset (the protocol's default, true) unless the tool is read-only: a declaration says
// where a tool may write, not whether what it writes destroys anything.
import type { HandlerKind } from '../skills';

const WRITES = new Set(['storage', 'event', 'net', 'tool', 'token', 'object']);
const OUTSIDE: HandlerKind[] = ['python', 'bash', 'mcp'];

export type ToolAnnotationHints = { readOnlyHint: boolean; openWorldHint: boolean; destructiveHint?: false };

export function toolAnnotationsFor(tool: { capabilities: string[]; handler?: HandlerKind; mints?: string[] }): ToolAnnotationHints {
  const caps = tool.capabilities.map((c) => c.split('.')[0].toLowerCase());
  const outside = tool.handler === undefined || OUTSIDE.includes(tool.handler);
  const openWorldHint = caps.includes('net') || (tool.handler !== undefined && OUTSIDE.includes(tool.handler));
  const readOnlyHint = !outside && !caps.some((c) => WRITES.has(c)) && !(tool.mints?.length ?? 0);
  return readOnlyHint ? { readOnlyHint, openWorldHint, destructiveHint: false } : { readOnlyHint, openWorldHint };
}
