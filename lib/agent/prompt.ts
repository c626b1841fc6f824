// The system prompt and the one tool (`invoke`) the model is given.

import { renderToolDocs, type VisibleTools } from './discovery';
import type { ToolSpec } from './providers/types';

export function buildSystemPrompt(o: { prompt?: string; tools: VisibleTools; returns?: Record<string, unknown> | null; maxSteps: number }): string {
  const parts = [
    'You are an agent. You act by calling the tool `invoke` with JavaScript code. The code is the body of an async ' +
      'function running in a sandbox without Node.js or network APIs: use `await`, and `return` a value to see it in the tool result.',
    [
      'In the code:',
      '- `await ctx.invoke(name, args)` calls a tool by its bare name (lowercase letters, digits and "-"); URIs and paths are refused.',
      '- `ctx.finish(value)` ends the run with `value` as the final result.',
      '- `memory` is an object that persists across invoke calls (JSON values only).',
      '- `console.log(...)` output comes back with the tool result.',
      `- At most ${Number.isFinite(o.maxSteps) ? o.maxSteps : 'unlimited'} invoke calls are allowed in this run; combine steps in one call when you can.`,
    ].join('\n'),
  ];
  if (o.returns) {
    parts.push('The final result MUST be passed to `ctx.finish(value)` and match this JSON Schema (a prose answer is not accepted):\n' + JSON.stringify(o.returns));
  } else {
    parts.push('When the task is done, call `ctx.finish(value)` with the result, or answer in plain text without calling invoke.');
  }
  if (o.prompt?.trim()) parts.push('## Instructions\n\n' + o.prompt.trim());
  const docs = renderToolDocs(o.tools);
  if (docs) parts.push(docs);
  return parts.join('\n\n');
}

export function buildInvokeTool(tools: VisibleTools): ToolSpec {
  const names = tools.inlined.map((t) => t.name);
  const listed = names.length ? ` Tools: ${names.join(', ')}.` : '';
  const discovery = tools.mode === 'discovery' ? ' Use skill-list and skill-describe to find more tools.' : '';
  return {
    name: 'invoke',
    description:
      'Run JavaScript (an async function body) in a sandbox with `ctx` (ctx.invoke(name, args), ctx.finish(result)) and a ' +
      'persistent `memory` object in scope. Returns {ok, result, logs} or {ok: false, error}.' +
      listed +
      discovery,
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'JavaScript to run, e.g. `const r = await ctx.invoke("tool-name", {}); return r;`' } },
      required: ['code'],
    },
  };
}

export function returnsReminder(returns: Record<string, unknown>): string {
  return (
    'Your run is not finished: the final result must be returned by calling invoke with code that calls ' +
    `ctx.finish(value), where value matches this JSON Schema: ${JSON.stringify(returns)}`
  );
}
