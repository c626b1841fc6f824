// The whole loop against loopback servers speaking the OpenAI and Anthropic wire
// formats: streamed text becomes message events as it arrives, and the API key never
// appears in any event or result, even when the server echoes it back.

import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from './providers/anthropic';
import { createOpenAIProvider } from './providers/openai';
import { runAgent } from './run-agent';
import { toolHost } from './testing/fixtures';
import { anthropicEvents, anthropicMessage, finishChunk, openaiChunks, startLocalServer, textChunk } from './testing/local-server';
import { createWorkerSandbox } from './testing/worker-sandbox';
import type { AgentEvent } from './types';

const sandbox = createWorkerSandbox();
afterAll(() => sandbox.close());
let server: Awaited<ReturnType<typeof startLocalServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const KEY = 'sk-live-DO-NOT-LEAK-7f3a9c';
const fast = { maxAttempts: 3, baseMs: 1, capMs: 10 };

describe('runAgent over HTTP providers', () => {
  it('OpenAI: streams, runs the tool call, retries a 500 that echoes the key, and never leaks it', async () => {
    const code = 'const r = await ctx.invoke("echo", { text: "hi" }); ctx.finish({ echoed: r.text });';
    server = await startLocalServer((req, res, n) => {
      if (n === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `invalid request for key ${req.headers.authorization}` } }));
      } else if (n === 2) {
        const args = JSON.stringify({ code });
        openaiChunks(res, [
          textChunk('I will '),
          textChunk('echo.'),
          { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'invoke', arguments: args.slice(0, 15) } }] } }] },
          { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(15) } }] } }] },
          finishChunk('tool_calls'),
          { choices: [], usage: { prompt_tokens: 100, completion_tokens: 20 } },
        ]);
      } else res.destroy();
    });
    const events: AgentEvent[] = [];
    const provider = createOpenAIProvider({ model: 'm', apiKey: KEY, baseUrl: server.url, retry: fast });
    const res = await runAgent({ task: 'echo hi', provider, tools: toolHost({ echo: (a) => a }), sandbox, onEvent: (e) => events.push(e) });

    expect(res).toMatchObject({ status: 'completed', result: { echoed: 'hi' }, provider: 'openai', model: 'm', usage: { inputTokens: 100, outputTokens: 20 } });
    expect(events.filter((e) => e.type === 'message').map((e) => (e as { text: string }).text)).toEqual(['I will ', 'echo.']);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ scope: 'request', status: 500, attempt: 1 });
    expect(events.find((e) => e.type === 'agent-message')).toMatchObject({ text: 'I will echo.' });
    // the usage the server reported is the turn's, on its turn-end event (the run page shows it)
    expect(events.find((e) => e.type === 'turn-end')).toMatchObject({ turnNumber: 1, usage: { inputTokens: 100, outputTokens: 20 } });
    expect(server.requests[1].body.messages[0].content).toContain('ctx.invoke');

    const all = JSON.stringify({ events, res });
    expect(all).toContain('[redacted]');
    expect(all).not.toContain(KEY);
  });

  it('Anthropic: a failing run reports the error without the key', async () => {
    server = await startLocalServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `bad x-api-key ${String(req.headers['x-api-key'])}` } }));
    });
    const events: AgentEvent[] = [];
    const provider = createAnthropicProvider({ model: 'c', apiKey: KEY, baseUrl: server.url, retry: fast });
    const res = await runAgent({ task: 't', provider, tools: toolHost({}), sandbox, onEvent: (e) => events.push(e) });
    expect(res.status).toBe('failed');
    expect(res.error?.code).toBe('provider/http');
    expect(res.error?.message).toContain('answered 401: bad x-api-key [redacted]');
    expect(events.map((e) => e.type)).toEqual(['agent-start', 'turn-start', 'error', 'agent-error']);
    expect(JSON.stringify({ events, res })).not.toContain(KEY);
  });

  it('Anthropic: tool_use runs agent code and the tool_result goes back in the next request', async () => {
    server = await startLocalServer((_req, res, n) => {
      if (n === 1) anthropicEvents(res, anthropicMessage('', [{ id: 'toolu_9', name: 'invoke', input: { code: 'memory.k = 1; return 40 + 2' } }]));
      else anthropicEvents(res, anthropicMessage('It is 42.'));
    });
    const provider = createAnthropicProvider({ model: 'c', apiKey: KEY, baseUrl: server.url, retry: fast });
    const res = await runAgent({ task: 't', provider, tools: toolHost({}), sandbox });
    expect(res).toMatchObject({ status: 'completed', result: 'It is 42.', memory: { k: 1 }, steps: 1, turns: 2 });
    const second = server.requests[1].body.messages;
    expect(second.at(-1)).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: '{"ok":true,"result":42}' }] });
  });
});
