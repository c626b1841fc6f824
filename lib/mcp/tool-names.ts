// MCP tool names for the tools a host serves: the bare tool name when it is unique among
// the served skills, `<skill>.<tool>` when two skills share it (MCP allows A-Z a-z 0-9 _ - .).
import type { ToolSummary } from '../runtime';

export type NamedTool = { mcpName: string; tool: ToolSummary };

export function nameTools(tools: ToolSummary[]): NamedTool[] {
  const count = new Map<string, number>();
  for (const t of tools) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  return tools.map((tool) => ({ mcpName: (count.get(tool.name) ?? 0) > 1 ? `${tool.skill}.${tool.name}` : tool.name, tool }));
}
