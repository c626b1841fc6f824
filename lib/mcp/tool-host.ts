// What an MCP server needs from Skillyard: the tools one caller may see, a way to call
// them through the full pipeline, and the skills' instructions. The HTTP endpoint builds
// it from the registry and the caller's tokens; `skillyard mcp` from local folders.
import type { ToolSummary } from '../runtime';

import type { LockedToolNote } from './locked-tools';

/** `locked`: its token-gated tools, for the server's instructions (locked-tools.ts) */
export type McpSkillInfo = { ref: string; name: string; description: string; instructions: string | null; locked?: LockedToolNote[] };

export type McpToolHost = {
  /** the skills served, in the order the caller chose them */
  skills(): McpSkillInfo[];
  /**
   * the served skills the caller may still see, asked again on every list, call and prompt
   * (access can end mid-session: removal from a team, a skill made private); absent: all
   */
  visibleSkills?(): Promise<McpSkillInfo[]>;
  /** the tools this caller may see right now (token gate, visibility, allowed-tools applied) */
  listVisibleTools(): Promise<ToolSummary[]>;
  /** runs `ref` (`skill/tool`) through the pipeline; throws a RuntimeError-like `{code, message}` */
  invoke(ref: string, args: unknown): Promise<unknown>;
};
