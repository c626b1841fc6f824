import { afterEach, describe, expect, it } from 'vitest';
import { anthropicEvents, anthropicMessage, startLocalServer, type Handler } from '../testing/local-server';
import { createAnthropicProvider, toAnthropicMessages } from './anthropic';
import type { ModelRequest, RetryInfo } from './types';

let server: Awaited<ReturnType<typeof startLocalServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(handler: Handler) {
  server = await startLocalServer(handler);
  const delays: number[] = [];
  const provider = createAnthropicProvider({
    model: 'claude-test',
    apiKey: 'sk-ant-KEY-abcdef',
    baseUrl: server.url,
    maxTokens: 1000,
    retry: { maxAttempts: 3, baseMs: 1, capMs: 30_000 },
    sleep: async (ms) => void delays.push(ms),
  });
  return { provider, delays, server };
}

function request(extra: Partial<ModelRequest> = {}) {
  const deltas: string[] = [];
  const reasoning: string[] = [];
  const retries: RetryInfo[] = [];
  const req: ModelRequest = {
    system: 'be brief',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'invoke', description: 'run code', parameters: { type: 'object', properties: { code: { type: 'string' } } } }],
    turnNumber: 1,
    signal: new AbortController().signal,
    onText: (d) => void deltas.push(d),
    onReasoning: (d) => void reasoning.push(d),
    onRetry: (i) => void retries.push(i),
    ...extra,
  };
  return { req, deltas, reasoning, retries };
}

describe('Anthropic provider', () => {
  it('streams text_delta events and sends the Messages wire format', async () => {
    const { provider, server } = await setup((_r, res) => anthropicEvents(res, anthropicMessage('Hello there!')));
    const { req, deltas } = request();
    const turn = await provider.complete(req);
    expect(deltas).toEqual(['Hell', 'o th', 'ere!']);
    expect(turn).toMatchObject({ text: 'Hello there!', toolCalls: [], stopReason: 'end_turn', usage: { inputTokens: 11, outputTokens: 7 } });
    const sent = server.requests[0];
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-KEY-abcdef');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toMatchObject({ model: 'claude-test', max_tokens: 1000, system: 'be brief', stream: true });
    expect(sent.body.tools).toEqual([{ name: 'invoke', description: 'run code', input_schema: { type: 'object', properties: { code: { type: 'string' } } } }]);
  });

  it('assembles tool_use input from input_json_delta chunks, and reports thinking', async () => {
    const events = anthropicMessage('Running.', [{ id: 'toolu_1', name: 'invoke', input: { code: 'ctx.finish({ n: 1 })' } }]);
    events.splice(
      1,
      0,
      { type: 'content_block_start', index: 9, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 9, delta: { type: 'thinking_delta', thinking: 'let me think' } },
      { type: 'ping' },
    );
    const { provider } = await setup((_r, res) => anthropicEvents(res, events));
    const { req, reasoning } = request();
    const turn = await provider.complete(req);
    expect(turn.text).toBe('Running.');
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.toolCalls).toEqual([{ id: 'toolu_1', name: 'invoke', input: { code: 'ctx.finish({ n: 1 })' } }]);
    expect(reasoning).toEqual(['let me think']);
  });

  it('puts tool results into alternating user turns', () => {
    expect(
      toAnthropicMessages([
        { role: 'user', content: 'task' },
        {
          role: 'assistant',
          content: 'ok',
          toolCalls: [
            { id: 'a', name: 'invoke', input: { code: '1' } },
            { id: 'b', name: 'invoke', input: { code: '2' } },
          ],
        },
        { role: 'tool', toolCallId: 'a', name: 'invoke', content: 'r1' },
        { role: 'tool', toolCallId: 'b', name: 'invoke', content: 'r2', isError: true },
        { role: 'user', content: 'reminder' },
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'task' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'tool_use', id: 'a', name: 'invoke', input: { code: '1' } },
          { type: 'tool_use', id: 'b', name: 'invoke', input: { code: '2' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'r1' },
          { type: 'tool_result', tool_use_id: 'b', content: 'r2', is_error: true },
          { type: 'text', text: 'reminder' },
        ],
      },
    ]);
  });

  it('retries a 429 with retry-after, then a 529, then succeeds', async () => {
    const { provider, delays, server } = await setup((_r, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }));
      } else if (n === 2) {
        res.writeHead(529);
        res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
      } else anthropicEvents(res, anthropicMessage('fine'));
    });
    const { req, retries } = request();
    expect((await provider.complete(req)).text).toBe('fine');
    expect(server.requests).toHaveLength(3);
    expect(delays[0]).toBe(3000);
    expect(retries.map((r) => r.status)).toEqual([429, 529]);
    expect(retries[0].reason).toContain('slow down');
  });

  it('fails cleanly after bounded attempts on a persistent 500', async () => {
    const { provider, server } = await setup((_r, res) => {
      res.writeHead(500);
      res.end('internal');
    });
    await expect(provider.complete(request().req)).rejects.toMatchObject({ code: 'provider/http', providerStatus: 500 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries when the connection drops mid-stream', async () => {
    const { provider } = await setup((_r, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const ev = anthropicMessage('abcdefgh').slice(0, 3);
        for (const e of ev) res.write(`event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`);
        setTimeout(() => res.socket?.destroy(), 20);
      } else anthropicEvents(res, anthropicMessage('whole'));
    });
    const { req, retries } = request();
    expect((await provider.complete(req)).text).toBe('whole');
    expect(retries).toHaveLength(1);
    expect(retries[0].partial).toBe(true);
  });

  it('surfaces an error event inside the stream', async () => {
    const { provider } = await setup((_r, res) =>
      anthropicEvents(res, [
        { type: 'message_start', message: { usage: {} } },
        { type: 'error', error: { type: 'invalid_request_error', message: 'bad tool schema' } },
      ]),
    );
    await expect(provider.complete(request().req)).rejects.toThrow(/bad tool schema/);
  });
});
