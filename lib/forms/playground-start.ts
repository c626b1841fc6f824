// Where the playground starts when it is opened from a skill: that skill's tools, a
// script whose first turn calls a tool with arguments built from its schema, and a
// task that says so. Pure: the page builds it on the server, tests check it here.
import { exampleArgs } from './schema-fields';

export type ScriptTurnDraft = { text: string; code: string };

export type StartTool = { name: string; params: Record<string, unknown> | null; runnable: boolean; gated: boolean };

export type PlaygroundStart = { task: string; turns: ScriptTurnDraft[]; tool: string | null };

/** The tool to show first: a runnable, ungated one if there is one. */
export function pickExampleTool(tools: StartTool[]): StartTool | null {
  return tools.find((t) => t.runnable && !t.gated) ?? tools.find((t) => t.runnable) ?? tools[0] ?? null;
}

export function exampleCall(tool: string, params: Record<string, unknown> | null): string {
  const args = JSON.stringify(exampleArgs(params), null, 2).replace(/\n/g, '\n  ');
  return `const result = await ctx.invoke('${tool}', ${args});`;
}

export function playgroundStart(skillRef: string, tools: StartTool[]): PlaygroundStart {
  const tool = pickExampleTool(tools);
  if (!tool) {
    return {
      tool: null,
      task: `Read the instructions of ${skillRef} and say what it is for.`,
      turns: [{ text: `${skillRef} has no tools: its instructions are the skill.`, code: `ctx.finish({ skill: '${skillRef}', tools: 0 });` }],
    };
  }
  return {
    tool: tool.name,
    task: `Call ${tool.name} from ${skillRef} with an example input and report what it returns.`,
    turns: [
      { text: `I'll call ${tool.name} with an example built from its parameters.`, code: `${exampleCall(tool.name, tool.params)}\nmemory.result = result;\nreturn result;` },
      { text: 'Done: returning what the tool gave back.', code: 'ctx.finish(memory.result);' },
    ],
  };
}

/** Script turns as the run config stores them: a bare string when a turn has no text. */
export function turnsToScript(turns: ScriptTurnDraft[]): Array<string | { text?: string; code?: string }> {
  return turns
    .filter((t) => t.text.trim() || t.code.trim())
    .map((t) => (t.text.trim() ? (t.code.trim() ? { text: t.text, code: t.code } : { text: t.text }) : t.code));
}

export function scriptToTurns(script: ReadonlyArray<string | { text?: string; code?: string }> | null | undefined): ScriptTurnDraft[] {
  return (script ?? []).map((t) => (typeof t === 'string' ? { text: '', code: t } : { text: t.text ?? '', code: t.code ?? '' }));
}
