// Which tools the agent offers (resolveVisibleTools) and how they are documented to the
// model: constrained mode inlines every allowed tool with its params; discovery mode
// inlines only explicitly named tools and adds skill-list / skill-describe.

import { isExplicitlyNamed, matchesToolName, parseAgentAllowedTools, type AllowedSpec } from './allowed-tools';
import type { AgentMode, AgentTool } from './types';

/** The agent and agent providers are never offered to the agent itself. */
export const AGENT_SELF_TOOLS = ['agent', 'agent-execute', 'agent-strands', 'agent-kiro'];

export const DISCOVERY_TOOLS = ['skill-list', 'skill-describe'] as const;

export type VisibleTools = {
  mode: AgentMode;
  spec: AllowedSpec | null;
  /** every tool agent code may call (besides the discovery tools) */
  visible: AgentTool[];
  /** the tools documented in the system prompt */
  inlined: AgentTool[];
};

export function resolveVisibleTools(tools: AgentTool[], opts: { allowedTools?: string | null; skillName?: string; excludeTools?: string[] } = {}): VisibleTools {
  const spec = parseAgentAllowedTools(opts.allowedTools);
  const excluded = new Set([...AGENT_SELF_TOOLS, ...(opts.excludeTools ?? [])]);
  const seen = new Set<string>();
  const visible: AgentTool[] = [];
  for (const t of tools) {
    if (seen.has(t.name) || excluded.has(t.name)) continue;
    const named = isExplicitlyNamed(spec, t.name);
    if (t.visibility === 'hidden' && !named) continue;
    if (!matchesToolName(spec, t.name, t.skill)) continue;
    if (opts.skillName && t.name === opts.skillName && !named) continue;
    seen.add(t.name);
    visible.push(t);
  }
  const mode: AgentMode = !spec || spec.hasBareStar ? 'discovery' : 'constrained';
  const inlined = mode === 'constrained' ? visible : visible.filter((t) => isExplicitlyNamed(spec, t.name));
  return { mode, spec, visible, inlined };
}

function schemaText(schema: unknown): string {
  return schema ? JSON.stringify(schema) : '(takes no arguments)';
}

export function describeTool(t: AgentTool): string {
  const lines = [`### ${t.name}`, t.description || '(no description)', `params: ${schemaText(t.params)}`];
  if (t.returns) lines.push(`returns: ${JSON.stringify(t.returns)}`);
  return lines.join('\n');
}

/** The tool section of the system prompt. */
export function renderToolDocs(v: VisibleTools): string {
  const regular = v.inlined.filter((t) => !(t.role === 'middleware' && t.params));
  const middleware = v.inlined.filter((t) => t.role === 'middleware' && t.params);
  const parts: string[] = [];
  if (regular.length) parts.push('## Tools\n\n' + regular.map(describeTool).join('\n\n'));
  else if (v.mode === 'constrained') parts.push('## Tools\n\n(no tools are available)');
  if (middleware.length) {
    parts.push(
      '## Middleware tools\n\nThese configure the pipeline rather than produce a result. Activate one with ' +
        '`await ctx.invoke("<name>", { ...options })` before the calls it should affect.\n\n' +
        middleware.map(describeTool).join('\n\n'),
    );
  }
  if (v.mode === 'discovery') {
    parts.push(
      '## Discovering tools\n\n' +
        (v.visible.length > v.inlined.length ? `${v.visible.length - v.inlined.length} more tool(s) are available. ` : '') +
        'List them with `await ctx.invoke("skill-list", { query?: string })` (name, description, skill) and read one ' +
        'with `await ctx.invoke("skill-describe", { name })` (params and returns).',
    );
  }
  return parts.join('\n\n');
}

export function skillList(v: VisibleTools, args: unknown): Array<{ name: string; description: string; skill: string }> {
  const q = args && typeof args === 'object' && typeof (args as { query?: unknown }).query === 'string' ? (args as { query: string }).query.toLowerCase() : '';
  return v.visible
    .filter((t) => !q || t.name.includes(q) || t.description.toLowerCase().includes(q) || t.tags.some((g) => g.includes(q)))
    .map((t) => ({ name: t.name, description: t.description, skill: t.skill }));
}

export function skillDescribe(v: VisibleTools, args: unknown) {
  const name = args && typeof args === 'object' ? (args as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') throw new Error('skill-describe needs { name: string }');
  const t = v.visible.find((x) => x.name === name);
  if (!t) throw new Error(`no tool named "${name}" is available`);
  return { name: t.name, description: t.description, skill: t.skill, role: t.role, tags: t.tags, params: t.params, returns: t.returns };
}
