// Anthropic Messages API with streaming: `message_start`, `content_block_start`
// (text | tool_use | thinking), `content_block_delta` (text_delta | input_json_delta |
// thinking_delta), `content_block_stop`, `message_delta` (stop_reason, usage),
// `message_stop`, plus `ping` and `error`.

import { AgentError } from '../errors';
import { postJson, redact, retryingProvider } from './http';
import { parseToolArguments } from './openai';
import { readSse } from './sse';
import type { ChatMessage, HttpProviderOptions, ModelProvider, ModelRequest, ModelTurn, ToolCall } from './types';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

type Block = Record<string, unknown>;

/** Anthropic wants strictly alternating user/assistant turns; tool results travel in user turns. */
export function toAnthropicMessages(messages: ChatMessage[]): Array<{ role: 'user' | 'assistant'; content: Block[] }> {
  const out: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  const push = (role: 'user' | 'assistant', block: Block) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(block);
    else out.push({ role, content: [block] });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', { type: 'text', text: m.content || '(empty)' });
    else if (m.role === 'tool') {
      push('user', { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) });
    } else {
      if (m.content) push('assistant', { type: 'text', text: m.content });
      for (const c of m.toolCalls ?? []) push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
      if (!m.content && !m.toolCalls?.length) push('assistant', { type: 'text', text: '(no output)' });
    }
  }
  return out;
}

export function createAnthropicProvider(opts: HttpProviderOptions): ModelProvider {
  const baseUrl = (opts.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = `${baseUrl}/v1/messages`;
  const secrets = [opts.apiKey, ...Object.values(opts.headers ?? {})];
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...opts.headers };
  if (opts.apiKey) headers['x-api-key'] = opts.apiKey;

  async function once(req: ModelRequest, state: { streamedAny: boolean }): Promise<ModelTurn> {
    const body: Record<string, unknown> = {
      model: opts.model,
      max_tokens: opts.maxTokens ?? 4096,
      system: req.system || undefined,
      messages: toAnthropicMessages(req.messages),
      stream: true,
      ...(req.tools.length ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {}),
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      ...opts.extraBody,
    };
    const res = await postJson(url, body, headers, req.signal, secrets, opts.fetch);

    let text = '';
    let stopReason: string | null = null;
    let inputTokens = 0;
    let outputTokens = 0;
    let stopped = false;
    const blocks = new Map<number, { type: string; id: string; name: string; json: string }>();
    for await (const msg of readSse(res.body, req.signal)) {
      let ev: Record<string, any>;
      try {
        ev = JSON.parse(msg.data) as Record<string, any>;
      } catch {
        throw new AgentError('provider/bad-response', `unparseable stream event: ${msg.data.slice(0, 120)}`);
      }
      const type = (ev.type as string | undefined) ?? msg.event;
      if (type === 'message_start') {
        inputTokens = ev.message?.usage?.input_tokens ?? 0;
        outputTokens = ev.message?.usage?.output_tokens ?? 0;
      } else if (type === 'content_block_start') {
        const b = ev.content_block ?? {};
        blocks.set(ev.index, { type: b.type, id: b.id ?? '', name: b.name ?? '', json: '' });
        if (b.type === 'text' && b.text) {
          text += b.text;
          state.streamedAny = true;
          await req.onText?.(b.text);
        }
      } else if (type === 'content_block_delta') {
        const d = ev.delta ?? {};
        state.streamedAny = true;
        if (d.type === 'text_delta') {
          text += d.text;
          await req.onText?.(d.text);
        } else if (d.type === 'input_json_delta') {
          const b = blocks.get(ev.index);
          if (b) b.json += d.partial_json ?? '';
        } else if (d.type === 'thinking_delta') {
          await req.onReasoning?.(d.thinking);
        }
      } else if (type === 'message_delta') {
        if (ev.delta?.stop_reason) stopReason = ev.delta.stop_reason;
        if (ev.usage?.output_tokens != null) outputTokens = ev.usage.output_tokens;
      } else if (type === 'message_stop') {
        stopped = true;
        break;
      } else if (type === 'error') {
        const e = ev.error ?? {};
        const overloaded = e.type === 'overloaded_error' || e.type === 'api_error';
        throw new AgentError('provider/http', `model error in stream: ${redact(String(e.message ?? e.type ?? 'unknown'), secrets)}`, {
          retryable: overloaded,
        });
      }
    }
    if (!stopped) throw new AgentError('provider/stream-interrupted', 'stream ended before message_stop', { retryable: true });
    const toolCalls: ToolCall[] = [...blocks.entries()]
      .filter(([, b]) => b.type === 'tool_use')
      .sort((a, b) => a[0] - b[0])
      .map(([, b]) => ({ id: b.id, name: b.name, input: parseToolArguments(b.json) }));
    return { text, toolCalls, stopReason, usage: { inputTokens, outputTokens }, streamed: true };
  }

  return retryingProvider('anthropic', opts, once);
}
