// Which model providers this server offers, and their settings from the environment.
// Keys stay here: they are never stored with a run, logged, or sent to the browser.
import 'server-only';
import type { ProviderName } from '../agent';

export type ServerModelConfig = { apiKey: string | null; baseUrl: string | undefined; model: string };

export function modelConfig(provider: 'openai' | 'anthropic'): ServerModelConfig | null {
  if (provider === 'openai') {
    const baseUrl = process.env.OPENAI_BASE_URL;
    const apiKey = process.env.OPENAI_API_KEY ?? null;
    // a local OpenAI-compatible server (Ollama, vLLM, llama.cpp) needs no key
    if (!apiKey && !baseUrl) return null;
    return { apiKey, baseUrl, model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini' };
  }
  const apiKey = process.env.ANTHROPIC_API_KEY ?? null;
  const baseUrl = process.env.ANTHROPIC_BASE_URL;
  if (!apiKey && !baseUrl) return null;
  return { apiKey, baseUrl, model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5' };
}

export function availableProviders(): ProviderName[] {
  const names: ProviderName[] = ['scripted', 'manual'];
  if (modelConfig('openai')) names.push('openai');
  if (modelConfig('anthropic')) names.push('anthropic');
  return names;
}
