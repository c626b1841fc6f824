// `manual`: a person supplies each turn (the playground's code box). The provider awaits
// `nextTurn`, which the caller resolves when the person submits; cancel rejects it.

import { AgentError } from '../errors';
import { turnFromScript, type ScriptTurn } from './scripted';
import type { ChatMessage, ModelProvider } from './types';

export type ManualTurnRequest = {
  turnNumber: number;
  system: string;
  messages: ChatMessage[];
  signal: AbortSignal;
};

/** Resolve with the code of the turn, `{text, code}`, or null to end with no further code. */
export type NextTurn = (req: ManualTurnRequest) => Promise<ScriptTurn | null>;

export function createManualProvider(nextTurn: NextTurn): ModelProvider {
  return {
    name: 'manual',
    model: null,
    async complete(req) {
      const { signal } = req;
      if (signal.aborted) throw new AgentError('provider/aborted', 'request cancelled');
      let onAbort = () => {};
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new AgentError('provider/aborted', 'request cancelled'));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const item = await Promise.race([nextTurn({ turnNumber: req.turnNumber, system: req.system, messages: req.messages.slice(), signal }), aborted]);
        return turnFromScript(item ?? { text: '' }, req.turnNumber);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
