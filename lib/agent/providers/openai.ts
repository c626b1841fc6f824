// OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp server, ...):
// streaming SSE `data:` chunks with `delta.content`, `delta.tool_calls` assembled by
// index across chunks, and `[DONE]`. A server that ignores `stream` and answers with
// one JSON completion is accepted too.

import { AgentError } from '../errors';
import { postJson, redact, retryingProvider } from './http';
import { readSse } from './sse';
import type { ChatMessage, HttpProviderOptions, ModelProvider, ModelRequest, ModelTurn, ToolCall } from './types';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

type WireToolCallDelta = { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } };
type WireChoice = {
  delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: WireToolCallDelta[] };
  message?: { content?: string | null; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }> };
  finish_reason?: string | null;
};
type WireChunk = {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
};

export function toOpenAIMessages(system: string, messages: ChatMessage[]): unknown[] {
  const out: unknown[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else {
      const msg: Record<string, unknown> = { role: 'assistant', content: m.content || null };
      if (m.toolCalls?.length) {
        msg.tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
        }));
      }
      out.push(msg);
    }
  }
  return out;
}

export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return { __raw: raw };
  }
}

export function createOpenAIProvider(opts: HttpProviderOptions): ModelProvider {
  const baseUrl = (opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = `${baseUrl}/chat/completions`;
  const secrets = [opts.apiKey, ...Object.values(opts.headers ?? {})];
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;

  async function once(req: ModelRequest, state: { streamedAny: boolean }): Promise<ModelTurn> {
    const body: Record<string, unknown> = {
      model: opts.model,
      messages: toOpenAIMessages(req.system, req.messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) } : {}),
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      ...(opts.maxTokens !== undefined ? { max_tokens: opts.maxTokens } : {}),
      ...opts.extraBody,
    };
    const res = await postJson(url, body, headers, req.signal, secrets, opts.fetch);
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return fromCompletion(await res.json().catch(() => null));

    let text = '';
    let stopReason: string | null = null;
    let usage: ModelTurn['usage'] = null;
    let done = false;
    const calls = new Map<number, { id: string; name: string; args: string }>();
    for await (const msg of readSse(res.body, req.signal)) {
      if (msg.data === '[DONE]') {
        done = true;
        break;
      }
      let chunk: WireChunk;
      try {
        chunk = JSON.parse(msg.data) as WireChunk;
      } catch {
        throw new AgentError('provider/bad-response', `unparseable stream chunk: ${msg.data.slice(0, 120)}`);
      }
      if (chunk.error) {
        const m = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
        throw new AgentError('provider/http', `model error in stream: ${redact(m, secrets)}`, { retryable: false });
      }
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const d = choice.delta ?? {};
      if (d.content) {
        text += d.content;
        state.streamedAny = true;
        await req.onText?.(d.content);
      }
      const thinking = d.reasoning_content ?? d.reasoning;
      if (thinking) {
        state.streamedAny = true;
        await req.onReasoning?.(thinking);
      }
      for (const tc of d.tool_calls ?? []) {
        const index = tc.index ?? 0;
        const cur = calls.get(index) ?? { id: '', name: '', args: '' };
        if (tc.id) cur.id = tc.id;
        if (tc.function?.name) cur.name += tc.function.name;
        if (tc.function?.arguments) cur.args += tc.function.arguments;
        calls.set(index, cur);
        state.streamedAny = true;
      }
      if (choice.finish_reason) stopReason = choice.finish_reason;
    }
    // A stream that ends with neither [DONE] nor a finish reason was cut short.
    if (!done && stopReason === null) {
      throw new AgentError('provider/stream-interrupted', 'stream ended before the completion finished', { retryable: true });
    }
    const toolCalls: ToolCall[] = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ id: c.id || `call_${req.turnNumber}_${i}`, name: c.name, input: parseToolArguments(c.args) }));
    return { text, toolCalls, stopReason, usage, streamed: true };
  }

  return retryingProvider('openai', opts, once);
}

function fromCompletion(json: unknown): ModelTurn {
  const j = json as { choices?: WireChoice[]; usage?: WireChunk['usage'] } | null;
  const choice = j?.choices?.[0];
  if (!choice?.message) throw new AgentError('provider/bad-response', 'completion has no choices[0].message');
  const toolCalls = (choice.message.tool_calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.function?.name ?? '',
    input: parseToolArguments(c.function?.arguments ?? ''),
  }));
  return {
    text: choice.message.content ?? '',
    toolCalls,
    stopReason: choice.finish_reason ?? null,
    usage: j?.usage ? { inputTokens: j.usage.prompt_tokens ?? 0, outputTokens: j.usage.completion_tokens ?? 0 } : null,
    streamed: false,
  };
}
