import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../errors';
import { finishChunk, openaiChunks, startLocalServer, textChunk, type Handler } from '../testing/local-server';
import { createOpenAIProvider } from './openai';
import type { ModelRequest, RetryInfo } from './types';

let server: Awaited<ReturnType<typeof startLocalServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup(handler: Handler, retry = { maxAttempts: 3, baseMs: 1, capMs: 30_000 }) {
  server = await startLocalServer(handler);
  const delays: number[] = [];
  const provider = createOpenAIProvider({
    model: 'gpt-test',
    apiKey: 'sk-openai-KEY-123456',
    baseUrl: `${server.url}/v1/`,
    retry,
    sleep: async (ms) => void delays.push(ms),
  });
  return { provider, delays, server };
}

function request(extra: Partial<ModelRequest> = {}) {
  const deltas: string[] = [];
  const retries: RetryInfo[] = [];
  const req: ModelRequest = {
    system: 'sys',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'invoke', description: 'run code', parameters: { type: 'object', properties: { code: { type: 'string' } } } }],
    turnNumber: 1,
    signal: new AbortController().signal,
    onText: (d) => void deltas.push(d),
    onRetry: (i) => void retries.push(i),
    ...extra,
  };
  return { req, deltas, retries };
}

describe('OpenAI-compatible provider', () => {
  it('streams text deltas as they arrive and sends the wire format', async () => {
    const { provider, server } = await setup((_r, res) =>
      openaiChunks(res, [textChunk('Hel'), textChunk('lo, '), textChunk('world'), finishChunk('stop'), { choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } }]),
    );
    const { req, deltas } = request();
    const turn = await provider.complete(req);
    expect(deltas).toEqual(['Hel', 'lo, ', 'world']);
    expect(turn).toMatchObject({ text: 'Hello, world', toolCalls: [], stopReason: 'stop', usage: { inputTokens: 12, outputTokens: 3 }, streamed: true });
    const sent = server.requests[0];
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-openai-KEY-123456');
    expect(sent.body.model).toBe('gpt-test');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
    ]);
    expect(sent.body.tools[0]).toEqual({
      type: 'function',
      function: { name: 'invoke', description: 'run code', parameters: { type: 'object', properties: { code: { type: 'string' } } } },
    });
  });

  it('assembles tool calls split over chunks (two calls, by index)', async () => {
    const args = JSON.stringify({ code: 'return await ctx.invoke("echo", {"text": "a"});' });
    const { provider } = await setup((_r, res) =>
      openaiChunks(res, [
        { choices: [{ delta: { role: 'assistant', content: 'Let me run it. ' } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_A', type: 'function', function: { name: 'inv', arguments: '' } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { name: 'oke', arguments: args.slice(0, 10) } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 1, id: 'call_B', function: { name: 'invoke', arguments: '{"code":' } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(10) } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 1, function: { arguments: '"return 1"}' } }] } }] },
        finishChunk('tool_calls'),
      ]),
    );
    const turn = await provider.complete(request().req);
    expect(turn.text).toBe('Let me run it. ');
    expect(turn.stopReason).toBe('tool_calls');
    expect(turn.toolCalls).toEqual([
      { id: 'call_A', name: 'invoke', input: { code: 'return await ctx.invoke("echo", {"text": "a"});' } },
      { id: 'call_B', name: 'invoke', input: { code: 'return 1' } },
    ]);
  });

  it('sends earlier tool calls and tool results back in OpenAI form', async () => {
    const { provider, server } = await setup((_r, res) => openaiChunks(res, [textChunk('ok'), finishChunk()]));
    await provider.complete(
      request({
        messages: [
          { role: 'user', content: 'task' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'invoke', input: { code: 'return 2' } }] },
          { role: 'tool', toolCallId: 'c1', name: 'invoke', content: '{"ok":true,"result":2}' },
        ],
      }).req,
    );
    expect(server.requests[0].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'task' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'invoke', arguments: '{"code":"return 2"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"ok":true,"result":2}' },
    ]);
  });

  it('retries a 429, honouring retry-after in seconds, then succeeds', async () => {
    const { provider, delays } = await setup((_r, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached' } }));
      } else openaiChunks(res, [textChunk('done'), finishChunk()]);
    });
    const { req, retries } = request();
    const turn = await provider.complete(req);
    expect(turn.text).toBe('done');
    expect(delays).toEqual([7000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 7000, status: 429, partial: false });
    expect(retries[0].reason).toContain('Rate limit reached');
  });

  it('honours retry-after as an HTTP date, capped by capMs', async () => {
    const { provider, delays } = await setup(
      (_r, res, n) => {
        if (n === 1) {
          res.writeHead(429, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() });
          res.end();
        } else openaiChunks(res, [textChunk('x'), finishChunk()]);
      },
      { maxAttempts: 3, baseMs: 1, capMs: 30_000 },
    );
    await provider.complete(request().req);
    expect(delays).toEqual([30_000]);
  });

  it('retries a 500 then succeeds', async () => {
    const { provider, server } = await setup((_r, res, n) => {
      if (n === 1) {
        res.writeHead(500);
        res.end('boom');
      } else openaiChunks(res, [textChunk('recovered'), finishChunk()]);
    });
    const { req, retries } = request();
    expect((await provider.complete(req)).text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
    expect(retries.map((r) => r.status)).toEqual([500]);
  });

  it('fails cleanly after bounded attempts on a persistent 500, without leaking the key', async () => {
    const { provider, server } = await setup((r, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `upstream broke for ${r.headers.authorization}` } }));
    });
    const err = await provider.complete(request().req).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).code).toBe('provider/http');
    expect((err as AgentError).providerStatus).toBe(500);
    expect((err as AgentError).message).toContain('gave up after 3 attempts');
    expect((err as AgentError).message).not.toContain('sk-openai-KEY-123456');
    expect((err as AgentError).message).toContain('[redacted]');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    const { provider, server } = await setup((_r, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad model' } }));
    });
    await expect(provider.complete(request().req)).rejects.toMatchObject({ code: 'provider/http', providerStatus: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a connection dropped mid-stream and reports that output had streamed', async () => {
    const { provider, server } = await setup((_r, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify(textChunk('partial '))}\n\n`);
        setTimeout(() => res.socket?.destroy(), 20);
      } else openaiChunks(res, [textChunk('complete answer'), finishChunk()]);
    });
    const { req, deltas, retries } = request();
    const turn = await provider.complete(req);
    expect(turn.text).toBe('complete answer');
    expect(deltas).toEqual(['partial ', 'complete answer']);
    expect(retries).toHaveLength(1);
    expect(retries[0].partial).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('fails with provider/stream-interrupted when every stream is cut short', async () => {
    const { provider } = await setup((_r, res) => openaiChunks(res, [textChunk('never finishes')], false));
    await expect(provider.complete(request().req)).rejects.toMatchObject({ code: 'provider/stream-interrupted' });
  });

  it('accepts a non-streamed JSON completion', async () => {
    const { provider } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { content: 'plain', tool_calls: [{ id: 't1', function: { name: 'invoke', arguments: '{"code":"return 1"}' } }] }, finish_reason: 'tool_calls' }],
          usage: { prompt_tokens: 5, completion_tokens: 2 },
        }),
      );
    });
    const turn = await provider.complete(request().req);
    expect(turn).toMatchObject({ text: 'plain', streamed: false, toolCalls: [{ id: 't1', name: 'invoke', input: { code: 'return 1' } }] });
  });

  it('stops the request when the signal aborts', async () => {
    const { provider } = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(textChunk('slow'))}\n\n`);
      // never ends
    });
    const ac = new AbortController();
    const { req } = request({ signal: ac.signal, onText: () => ac.abort() });
    await expect(provider.complete(req)).rejects.toMatchObject({ code: 'provider/aborted' });
  });
});
