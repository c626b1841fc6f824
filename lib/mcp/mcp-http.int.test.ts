// The MCP endpoint over real HTTP, driven by the SDK's own client: list, call, errors,
// a gated tool appearing after a token is minted, a resumed session, and hostile input.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { testDatabaseUrl, testDb } from '../../test/db';
import { createApiToken } from '../auth/api-tokens';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { serverContext } from '../server/server-context';

let base: string;
let server: http.Server;
let userToken: string;
let otherToken: string;
let noScopeToken: string;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  const { handleMcpRoute } = await import('../api/mcp-route');
  await seedBundledSkills(testDb());
  const user = await testDb().user.create({ data: { name: 'mcp-user' } });
  const other = await testDb().user.create({ data: { name: 'mcp-other' } });
  userToken = (await createApiToken(testDb(), { userId: user.id, name: 'mcp', scopes: ['invoke'] })).token;
  otherToken = (await createApiToken(testDb(), { userId: other.id, name: 'mcp', scopes: ['invoke'] })).token;
  noScopeToken = (await createApiToken(testDb(), { userId: user.id, name: 'runs only', scopes: ['runs'] })).token;
  server = http.createServer(
    getRequestListener((req) => {
      const url = new URL(req.url);
      const one = /^\/api\/mcp\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      return handleMcpRoute(req, one ? [`@${one[1]}/${one[2]}`] : url.searchParams.getAll('skills'));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await serverContext().close();
});

async function connect(path: string, token?: string, sessionId?: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(path, base), {
    sessionId,
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  if (sessionId) {
    // a resumed session skips initialize: the transport already carries the session id
    await client.connect(transport).catch(() => {});
  } else await client.connect(transport);
  return { client, transport };
}

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

describe('the MCP endpoint', () => {
  it('lists a skill\'s tools with their schemas and calls one through the pipeline', async () => {
    const { client } = await connect('/api/mcp/skillyard/text-stats');
    const { tools } = await client.listTools();
    const count = tools.find((t) => t.name === 'count-words');
    expect(count?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(count?._meta?.['skillyard/ref']).toBe('text-stats/count-words');
    const res = await client.callTool({ name: 'count-words', arguments: { text: 'One two three. Four five!' } });
    expect(res.isError).toBeFalsy();
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toMatchObject({ words: 5, sentences: 2 });
    await client.close();
  });

  it('serves several skills from one endpoint and offers their instructions as prompts', async () => {
    const { client } = await connect('/api/mcp?skills=@skillyard/text-stats,@skillyard/slugify');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['count-words', 'slugify']));
    const prompts = (await client.listPrompts()).prompts;
    for (const p of prompts) {
      const got = await client.getPrompt({ name: p.name });
      expect((got.messages[0].content as { text: string }).text.length).toBeGreaterThan(0);
    }
    await client.close();
  });

  it('answers bad arguments as a tool error with the runtime code, and unknown tools as unknown', async () => {
    const { client } = await connect('/api/mcp/skillyard/text-stats');
    const bad = await client.callTool({ name: 'count-words', arguments: { text: 42 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0].text).toMatch(/^params\/invalid: /);
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/tool\/not-found: Unknown tool: no-such-tool/);
    await expect(client.request({ method: 'no/such-method' } as never, ToolListChangedNotificationSchema as never)).rejects.toThrow(/Method not found/);
    await client.close();
  });

  it('shows a gated tool only after its token is minted, and says so with tools/list_changed', async () => {
    const { client } = await connect('/api/mcp/skillyard/notebook', userToken);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toContain('open-notebook');
    expect(before).not.toContain('add-note');
    await expect(client.callTool({ name: 'add-note', arguments: { title: 'x' } })).rejects.toThrow(/tool\/not-found/);
    const opened = await client.callTool({ name: 'open-notebook', arguments: { name: 'mcp-notes' } });
    expect(opened.isError).toBeFalsy();
    expect(opened.structuredContent).toMatchObject({ notebook: 'mcp-notes' });
    for (let i = 0; i < 50 && changed === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(changed).toBeGreaterThan(0);
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).toEqual(expect.arrayContaining(['add-note', 'list-notes']));
    await client.close();
  });

  it('resumes a session by its id, and refuses it to anyone else', async () => {
    const first = await connect('/api/mcp/skillyard/text-stats', userToken);
    const sessionId = first.transport.sessionId!;
    expect(sessionId).toBeTruthy();
    const again = await connect('/api/mcp/skillyard/text-stats', userToken, sessionId);
    expect(again.transport.sessionId).toBe(sessionId);
    expect((await again.client.listTools()).tools.length).toBeGreaterThan(0);
    const stolen = await post('/api/mcp/skillyard/text-stats', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      authorization: `Bearer ${otherToken}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(stolen.status).toBe(404);
    const anonymous = await post('/api/mcp/skillyard/text-stats', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(anonymous.status).toBe(404);
    await first.client.close();
  });

  it('answers hostile and malformed requests with protocol errors and keeps serving', async () => {
    const notJson = await post('/api/mcp/skillyard/text-stats', '{"jsonrpc": "2.0", ');
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe(-32700);

    const huge = await post('/api/mcp/skillyard/text-stats', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(2 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);

    const deep = await post('/api/mcp/skillyard/text-stats', '['.repeat(5000) + ']'.repeat(5000));
    expect(deep.status).toBe(400);
    expect((await deep.json()).error.message).toMatch(/too-deep/);

    const noSession = await post('/api/mcp/skillyard/text-stats', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(noSession.status).toBe(400);

    const unknownSkill = await post('/api/mcp/skillyard/no-such-skill', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
    expect(unknownSkill.status).toBe(404);
    expect((await unknownSkill.json()).error.message).toMatch(/^skill\/not-found: /);

    const badToken = await post('/api/mcp/skillyard/text-stats', '{}', { authorization: 'Bearer sy_00000000_nope-nope-nope-nope-nope-nope' });
    expect(badToken.status).toBe(401);

    const noScope = await post('/api/mcp/skillyard/text-stats', '{}', { authorization: `Bearer ${noScopeToken}` });
    expect(noScope.status).toBe(403);

    const { client } = await connect('/api/mcp/skillyard/text-stats');
    const res = await client.callTool({ name: 'count-words', arguments: { text: 'still serving' } });
    expect(res.isError).toBeFalsy();
    await client.close();
  });
});
