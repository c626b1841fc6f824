// A manual run's turns as a script: the text and the code a person gave each turn, read
// back from its trace (the model-level `invoke` calls and each turn's message). Forking a
// manual run replays them with the scripted provider instead of waiting for a person.
import 'server-only';
import type { z } from 'zod';
import type { ScriptTurnSchema } from './run-config';

type ScriptTurn = z.infer<typeof ScriptTurnSchema>;

type TraceEvent = { type: string; data: Record<string, unknown> };

export function scriptFromTrace(events: Iterable<TraceEvent>): ScriptTurn[] {
  const turns = new Map<number, { text: string; code: string[] }>();
  for (const { type, data } of events) {
    const n = data.turnNumber;
    if (typeof n !== 'number') continue;
    let turn = turns.get(n);
    if (!turn) turns.set(n, (turn = { text: '', code: [] }));
    if (type === 'tool-call' && data.via === 'model' && data.tool === 'invoke') {
      const code = (data.args as { code?: unknown } | null)?.code;
      if (typeof code === 'string') turn.code.push(code);
    } else if (type === 'agent-message' && typeof data.text === 'string') turn.text = data.text;
  }
  return [...turns.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, t]) => ({ text: t.text, code: t.code.join('\n') }))
    .filter((t) => t.text.trim() || t.code.trim())
    .map((t) => (t.code ? (t.text ? { text: t.text, code: t.code } : t.code) : { text: t.text }));
}
