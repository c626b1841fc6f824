// `scripted`: replays a fixed list of turns (tests and demos). Every event and result of
// a run with it carries provider: 'scripted', so a replay is never mistaken for a model.

import { AgentError } from '../errors';
import type { ModelProvider, ModelTurn, ToolCall } from './types';

/** One model turn: a string is the code of that turn's invoke call; an object is text plus an optional invoke. */
export type ScriptTurn = string | { text?: string; code?: string };

export function parseScript(json: unknown): ScriptTurn[] {
  if (!Array.isArray(json)) throw new AgentError('agent/config', 'a script is a JSON array of turns');
  return json.map((item, i) => {
    if (typeof item === 'string') return item;
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const { text, code } = item as Record<string, unknown>;
      if ((text !== undefined && typeof text !== 'string') || (code !== undefined && typeof code !== 'string')) {
        throw new AgentError('agent/config', `script turn ${i + 1}: "text" and "code" must be strings`);
      }
      return { text: text as string | undefined, code: code as string | undefined };
    }
    throw new AgentError('agent/config', `script turn ${i + 1}: expected a string or {"text", "code"}`);
  });
}

export function turnFromScript(item: ScriptTurn, turnNumber: number): ModelTurn {
  const { text = '', code } = typeof item === 'string' ? { text: '', code: item } : item;
  const toolCalls: ToolCall[] = code !== undefined ? [{ id: `call_${turnNumber}`, name: 'invoke', input: { code } }] : [];
  return { text, toolCalls, stopReason: toolCalls.length ? 'tool_use' : 'end_turn', usage: null, streamed: false };
}

export function createScriptedProvider(turns: ScriptTurn[]): ModelProvider {
  let next = 0;
  return {
    name: 'scripted',
    model: null,
    async complete(req) {
      if (req.signal.aborted) throw new AgentError('provider/aborted', 'request cancelled');
      if (next >= turns.length) {
        throw new AgentError('provider/script-exhausted', `the script has ${turns.length} turn(s); turn ${next + 1} was asked for`);
      }
      return turnFromScript(turns[next++], req.turnNumber);
    },
  };
}
