// Agent code runs wrapped in a module (lib/agent/agent-code.ts: agentModuleSource), so the
// sandbox reports positions in the wrapper ("module.js:6:11"). This maps them back to
// the line and column of the code the person or model wrote.

/** Lines of the wrapper before the first line of agent code (checked by the test against agentModuleSource). */
export const AGENT_CODE_LINE_OFFSET = 4;

const POSITION = /\s*\[?file:\/\/\/sandbox\/module\.js:(\d+):(\d+)\]?/;

export type CodePosition = { line: number; column: number };

/** The position in the agent's own code that an error message points at, and the message without the wrapper's position. */
export function userCodePosition(message: string, codeLines: number): { position: CodePosition | null; message: string } {
  const m = POSITION.exec(message);
  if (!m) return { position: null, message };
  const line = Number(m[1]) - AGENT_CODE_LINE_OFFSET;
  const rest = message.replace(POSITION, '').trim();
  if (line < 1 || line > codeLines) return { position: null, message: rest };
  return { position: { line, column: Number(m[2]) }, message: rest };
}
