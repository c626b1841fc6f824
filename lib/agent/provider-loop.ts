// The LLM loop (the seed's "agent provider"): send the conversation, run each `invoke`
// tool call through the invoke callback, report everything to the hook callback and
// follow its directives. It holds no policy: limits, returns enforcement, tool gating and
// the trace all live in the hook (run-agent.ts).

import { AgentError, describeError, isAbortError } from './errors';
import type { ChatMessage, ModelProvider, ToolSpec } from './providers/types';
import type { Directive, HookEvent, InvokeOutcome } from './types';

export type AgentProviderArgs = {
  /** the system prompt */
  prompt: string;
  userMessage: string;
  model: ModelProvider;
  /** the one tool the model gets */
  invokeTool: ToolSpec;
  /** runs one invoke tool call's code */
  invoke: (code: string, call: { id: string; turnNumber: number }) => Promise<InvokeOutcome>;
  /** lifecycle hook: reports events, answers with directives */
  hook: (event: HookEvent) => Promise<Directive>;
  signal: AbortSignal;
  maxToolResultChars?: number;
};

export function formatOutcome(o: InvokeOutcome, maxChars: number): string {
  const body: Record<string, unknown> = o.ok
    ? { ok: true, result: o.value, ...(o.finished ? { finished: true } : {}) }
    : { ok: false, error: `${o.error.code}: ${o.error.message}` };
  if (o.logs.length) body.logs = o.logs;
  let text = JSON.stringify(body);
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}… [truncated ${text.length - maxChars} characters]`;
  return text;
}

function cancelled(): AgentError {
  return new AgentError('agent/cancelled', 'run cancelled');
}

export async function runProviderLoop(a: AgentProviderArgs): Promise<{ result: unknown; text: string }> {
  const maxChars = a.maxToolResultChars ?? 16_000;
  const messages: ChatMessage[] = [{ role: 'user', content: a.userMessage }];
  let turnNumber = 0;
  let errorAttempt = 0;
  for (;;) {
    if (a.signal.aborted) throw cancelled();
    turnNumber++;
    await a.hook({ type: 'turn-start', turnNumber });
    let turn;
    try {
      turn = await a.model.complete({
        system: a.prompt,
        messages,
        tools: [a.invokeTool],
        turnNumber,
        signal: a.signal,
        onText: async (text) => void (await a.hook({ type: 'message', text, delta: true, turnNumber })),
        onReasoning: async (text) => void (await a.hook({ type: 'reasoning', text, delta: true, turnNumber })),
        onRetry: async (info) => void (await a.hook({ type: 'retry', turnNumber, ...info })),
      });
    } catch (err) {
      if (a.signal.aborted || isAbortError(err)) throw cancelled();
      errorAttempt++;
      const d = await a.hook({ type: 'error', error: describeError(err), attempt: errorAttempt, turnNumber });
      if (d && 'continue' in d && d.continue) {
        turnNumber--; // the same turn is asked again
        continue;
      }
      throw err;
    }
    errorAttempt = 0;
    if (!turn.streamed && turn.text) await a.hook({ type: 'message', text: turn.text, delta: false, turnNumber });
    messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });

    for (const call of turn.toolCalls) {
      if (a.signal.aborted) throw cancelled();
      const d = await a.hook({ type: 'tool-call', tool: call.name, args: call.input, id: call.id, turnNumber });
      let outcome: InvokeOutcome;
      if (d && 'deny' in d) {
        outcome = { ok: false, error: { code: 'agent/denied', message: d.deny }, logs: [] };
      } else {
        const code = (call.input as { code?: unknown } | null)?.code;
        if (call.name !== 'invoke') {
          outcome = { ok: false, error: { code: 'agent/unknown-tool', message: `there is no tool "${call.name}"; the only tool is invoke` }, logs: [] };
        } else if (typeof code !== 'string') {
          outcome = { ok: false, error: { code: 'agent/bad-arguments', message: 'invoke takes { "code": string } (JavaScript)' }, logs: [] };
        } else {
          outcome = await a.invoke(code, { id: call.id, turnNumber });
        }
      }
      if (a.signal.aborted) throw cancelled();
      await a.hook({ type: 'tool-result', tool: call.name, args: call.input, result: outcome, id: call.id, turnNumber });
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: formatOutcome(outcome, maxChars), isError: !outcome.ok });
    }

    const d = await a.hook({ type: 'turn-end', result: turn.text, turnNumber, toolCalls: turn.toolCalls.length });
    if (d && 'stop' in d && d.stop) return { result: 'result' in d && d.result !== undefined ? d.result : turn.text, text: turn.text };
    if (d && 'continue' in d && d.continue) {
      if (d.message) messages.push({ role: 'user', content: d.message });
      else if (turn.toolCalls.length === 0) messages.push({ role: 'user', content: 'Continue.' });
      continue;
    }
    if (turn.toolCalls.length > 0) continue;
    return { result: turn.text, text: turn.text };
  }
}
