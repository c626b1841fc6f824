// Where each agent loads Agent Skills folders (`<dir>/<name>/SKILL.md`), at project level
// (relative to the working folder) and user level (under the home folder), as each one
// documents it (checked 2026-11-27):
//
// | agent    | project          | user                        | source                                                          |
// |----------|------------------|-----------------------------|-----------------------------------------------------------------|
// | claude   | .claude/skills   | ~/.claude/skills            | https://docs.claude.com/en/docs/claude-code/skills              |
// | codex    | .agents/skills   | ~/.agents/skills            | https://developers.openai.com/codex/skills                      |
// | cursor   | .cursor/skills   | ~/.cursor/skills            | https://www.cursor.com/docs/context/skills                      |
// | copilot  | .github/skills   | ~/.copilot/skills           | https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills |
// | opencode | .opencode/skills | ~/.config/opencode/skills   | https://opencode.ai/docs/skills                                 |
//
// (Copilot and OpenCode also read .claude/skills and .agents/skills; each agent gets its
// own folder here so that removing one agent's copy never touches another's.)
import os from 'node:os';
import path from 'node:path';

export type AgentName = 'claude' | 'codex' | 'cursor' | 'copilot' | 'opencode';

export const AGENTS: Record<AgentName, { label: string; project: string; user: string }> = {
  claude: { label: 'Claude Code', project: '.claude/skills', user: '.claude/skills' },
  codex: { label: 'Codex', project: '.agents/skills', user: '.agents/skills' },
  cursor: { label: 'Cursor', project: '.cursor/skills', user: '.cursor/skills' },
  copilot: { label: 'GitHub Copilot', project: '.github/skills', user: '.copilot/skills' },
  opencode: { label: 'OpenCode', project: '.opencode/skills', user: '.config/opencode/skills' },
};

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(AGENTS, name);
}

/** The folder skills go in: `<cwd>/<project dir>`, or `<home>/<user dir>` with `global`. */
export function agentSkillsDir(agent: AgentName, opts: { global?: boolean; cwd?: string; home?: string } = {}): string {
  const a = AGENTS[agent];
  return opts.global ? path.join(opts.home ?? os.homedir(), a.user) : path.resolve(opts.cwd ?? process.cwd(), a.project);
}

/**
 * How `agent` can use a skill it cannot load as a folder (a format other than Agent
 * Skills): register it as an MCP server that `skillyard mcp` serves.
 */
export function mcpRegistrationFor(agent: AgentName, opts: { name: string; ref: string; registry: string }): string {
  const cli = `${opts.registry}/cli/skillyard.tgz`;
  const args = ['-y', cli, 'mcp', '--registry', opts.registry, '--skill', opts.ref];
  if (agent === 'claude') return `claude mcp add ${opts.name} -- npx ${args.join(' ')}`;
  if (agent === 'codex') return `codex mcp add ${opts.name} -- npx ${args.join(' ')}`;
  if (agent === 'cursor') return `add to .cursor/mcp.json: ${JSON.stringify({ mcpServers: { [opts.name]: { command: 'npx', args } } })}`;
  if (agent === 'copilot') return `add to .vscode/mcp.json: ${JSON.stringify({ servers: { [opts.name]: { type: 'stdio', command: 'npx', args } } })}`;
  return `add to opencode.json: ${JSON.stringify({ mcp: { [opts.name]: { type: 'local', command: ['npx', ...args] } } })}`;
}
