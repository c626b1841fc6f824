// Where the playground starts when it is opened from a skill: that skill's tools, a
// script that calls one tool with example arguments (valid against its schema, built on
// the server by example-args.ts) and finishes with what the tool returned, and a task
// that says so. A locked tool's script says what unlocks it. Pure: the page builds it
// on the server and the form again when skills change; tests check it here.
import { exampleArgs } from './schema-fields';

export type ScriptTurnDraft = { text: string; code: string };

export type StartTool = {
  name: string;
  params: Record<string, unknown> | null;
  runnable: boolean;
  gated: boolean;
  /** example arguments valid against `params` (from the server); stand-ins from the schema when absent */
  example?: Record<string, unknown>;
  /** for a gated tool: what unlocks it, in words */
  unlock?: string;
};

export type PlaygroundStart = { task: string; turns: ScriptTurnDraft[]; tool: string | null };

/** The tool to show first: a runnable, ungated one if there is one. */
export function pickExampleTool(tools: StartTool[]): StartTool | null {
  return tools.find((t) => t.runnable && !t.gated) ?? tools.find((t) => t.runnable) ?? tools[0] ?? null;
}

export function exampleCall(tool: string, params: Record<string, unknown> | null, example?: Record<string, unknown>): string {
  const args = JSON.stringify(example ?? exampleArgs(params), null, 2).replace(/\n/g, '\n  ');
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
  // one turn: if the call fails the run fails with the tool's error (what unlocks a locked
  // tool, say); it never finishes with nothing after a failed call
  const code = `${exampleCall(tool.name, tool.params, tool.example)}\nctx.finish(result);\nreturn result;`;
  const locked = tool.gated ? ` It is locked for you (${tool.unlock || 'it needs a token you do not hold'}): the run will say what unlocks it.` : '';
  return {
    tool: tool.name,
    task: `Call ${tool.name} from ${skillRef} with an example input and report what it returns.`,
    turns: [
      { text: `I'll call ${tool.name} with an example valid against its parameters and finish with what it returns.${locked}`, code },
      // reached only when the call failed: the run then fails with the call's error
      { text: `The call to ${tool.name} failed: its error above says why.`, code: '' },
    ],
  };
}

/** Script turns as the run config stores them: a bare string when a turn has no text. */
export function turnsToScript(turns: ScriptTurnDraft[]): Array<string | { text?: string; code?: string }> {
  return turns.filter((t) => t.text.trim() || t.code.trim()).map((t) => (t.text.trim() ? (t.code.trim() ? { text: t.text, code: t.code } : { text: t.text }) : t.code));
}

export function scriptToTurns(script: ReadonlyArray<string | { text?: string; code?: string }> | null | undefined): ScriptTurnDraft[] {
  return (script ?? []).map((t) => (typeof t === 'string' ? { text: '', code: t } : { text: t.text ?? '', code: t.code ?? '' }));
}
