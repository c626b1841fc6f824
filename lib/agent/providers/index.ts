// Picks a model provider by name (the CLI and the playground worker use this).

import { AgentError } from '../errors';
import { createAnthropicProvider } from './anthropic';
import { createManualProvider, type NextTurn } from './manual';
import { createOpenAIProvider } from './openai';
import { createScriptedProvider, type ScriptTurn } from './scripted';
import type { HttpProviderOptions, ModelProvider } from './types';

export type ProviderName = 'openai' | 'anthropic' | 'manual' | 'scripted';
export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic', 'manual', 'scripted'];

export type ProviderConfig =
  ({ provider: 'openai' | 'anthropic' } & HttpProviderOptions) | { provider: 'scripted'; turns: ScriptTurn[] } | { provider: 'manual'; nextTurn: NextTurn };

export function createProvider(config: ProviderConfig): ModelProvider {
  switch (config.provider) {
    case 'openai':
      return createOpenAIProvider(config);
    case 'anthropic':
      return createAnthropicProvider(config);
    case 'scripted':
      return createScriptedProvider(config.turns);
    case 'manual':
      return createManualProvider(config.nextTurn);
    default:
      throw new AgentError('agent/config', `unknown provider "${(config as { provider: string }).provider}"`);
  }
}

export { createAnthropicProvider, createManualProvider, createOpenAIProvider, createScriptedProvider };
export type { NextTurn, ScriptTurn };
export * from './types';
