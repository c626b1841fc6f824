// Which model providers this server offers, and their settings from the environment.
// Keys stay here: they are never stored with a run, logged, or sent to the browser.
import 'server-only';
import type { ProviderName } from '../agent';
import { setting } from '../config';

export type ServerModelConfig = { apiKey: string | null; baseUrl: string | undefined; model: string };

export function modelConfig(provider: 'openai' | 'anthropic'): ServerModelConfig | null {
  if (provider === 'openai') {
    const baseUrl = setting('OPENAI_BASE_URL');
    const apiKey = setting('OPENAI_API_KEY') ?? null;
    // a local OpenAI-compatible server (Ollama, vLLM, llama.cpp) needs no key
    if (!apiKey && !baseUrl) return null;
    return { apiKey, baseUrl, model: setting('OPENAI_MODEL') };
  }
  const apiKey = setting('ANTHROPIC_API_KEY') ?? null;
  const baseUrl = setting('ANTHROPIC_BASE_URL');
  if (!apiKey && !baseUrl) return null;
  return { apiKey, baseUrl, model: setting('ANTHROPIC_MODEL') };
}

export function availableProviders(): ProviderName[] {
  const names: ProviderName[] = ['scripted', 'manual'];
  if (modelConfig('openai')) names.push('openai');
  if (modelConfig('anthropic')) names.push('anthropic');
  return names;
}
