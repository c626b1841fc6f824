// The MCP endpoint over real HTTP, driven by the SDK's own client: list, call, errors,
// a gated tool appearing after a token is minted or an account connected, a resumed
// session, missed events replayed by Last-Event-ID, and hostile input.
import { serveOnLoopback } from './testing/serve-on-loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { testDatabaseUrl, testDb } from '../../test/db';
import { createApiToken } from '../auth/api-tokens';
import { disconnect, storeConnectionTokens } from '../auth/oauth-connections';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { serverContext } from '../server/server-context';

let base: string;
let close: () => Promise<void>;
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
  ({ base, close } = await serveOnLoopback(
    getRequestListener((req) => {
      const url = new URL(req.url);
      const one = /^\/api\/mcp\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      return handleMcpRoute(req, one ? [`@${one[1]}/${one[2]}`] : url.searchParams.getAll('skills'));
    }),
  ));
});

afterAll(async () => {
  await close();
  await serverContext().close();
});

async function connect(path: string, token?: string, sessionId?: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(path, base), {
    sessionId,
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  // a resumed session (sessionId given) skips initialize: the transport already carries the id
  await client.connect(transport);
  return { client, transport };
}

async function newUserToken(name: string) {
  const user = await testDb().user.create({ data: { name } });
  return { userId: user.id, token: (await createApiToken(testDb(), { userId: user.id, name: 'mcp', scopes: ['invoke'] })).token };
}

async function until(check: () => boolean, what: string, ms = 5_000) {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Server-sent events of a response, as they arrive: `{id, data}` (data parsed as JSON when it is). */
function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return async function next(ms = 5_000): Promise<{ id?: string; data: unknown }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(.*)$/m.exec(block)?.[1];
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n');
        if (!data) continue; // priming events and keep-alives carry no message
        return { id, data: JSON.parse(data) };
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      const chunk = await Promise.race([reader.read(), new Promise<never>((_, no) => setTimeout(() => no(new Error('no event in time')), left))]);
      if (chunk.done) throw new Error('the stream ended');
      buffer += chunk.value.replace(/\r\n/g, '\n');
    }
  };
}

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

describe('the MCP endpoint', () => {
  it("lists a skill's tools with their schemas and calls one through the pipeline", async () => {
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
    // the server's instructions say what is locked and how to unlock it (not a silently short list)
    expect(client.getInstructions()).toContain('add-note (@skillyard/notebook) needs @skillyard/notebook (notebook): call open-notebook first');
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

  it('announces tools/list_changed when the user connects or disconnects an account outside MCP', async () => {
    const { userId, token } = await newUserToken('mcp-connector');
    const { client } = await connect('/api/mcp/skillyard/github-repos', token);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).not.toContain('list-my-repos');
    // the client opens its GET stream after initializing; give it a moment to be there
    await new Promise((r) => setTimeout(r, 300));
    await storeConnectionTokens(testDb(), userId, { provider: 'github', access_token: 'gho_test', scope: 'repo' });
    await until(() => changed === 1, 'list_changed after connecting');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list-my-repos');
    await disconnect(testDb(), userId, 'github');
    await until(() => changed === 2, 'list_changed after disconnecting');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('list-my-repos');
    await client.close();
  });

  it('replays the events a client missed while its GET stream was away, from Last-Event-ID', async () => {
    const { userId, token } = await newUserToken('mcp-resumer');
    const path = '/api/mcp/skillyard/github-repos';
    const auth = { authorization: `Bearer ${token}` };
    const init = await post(
      path,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      auth,
    );
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const inSession = { ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await post(path, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), inSession)).status).toBe(202);
    const listen = (lastEventId?: string, signal?: AbortSignal) =>
      fetch(new URL(path, base), { headers: { ...inSession, accept: 'text/event-stream', ...(lastEventId && { 'last-event-id': lastEventId }) }, signal });

    const away = new AbortController();
    const stream = await listen(undefined, away.signal);
    expect(stream.status).toBe(200);
    await storeConnectionTokens(testDb(), userId, { provider: 'github', access_token: 'gho_test', scope: 'repo' });
    const first = await sseReader(stream)();
    expect(first.data).toMatchObject({ method: 'notifications/tools/list_changed' });
    expect(first.id).toBeTruthy();

    away.abort();
    await disconnect(testDb(), userId, 'github'); // announced while nobody listens: stored
    const back = new AbortController();
    let resumed = await listen(first.id, back.signal);
    // the server may not have seen the old stream go yet (409 while it is still registered)
    for (let i = 0; i < 50 && resumed.status === 409; i++) {
      await new Promise((r) => setTimeout(r, 50));
      resumed = await listen(first.id, back.signal);
    }
    expect(resumed.status).toBe(200);
    const replayed = await sseReader(resumed)();
    expect(replayed.data).toMatchObject({ method: 'notifications/tools/list_changed' });
    expect(replayed.id).toBeTruthy();
    expect(replayed.id).not.toBe(first.id);
    back.abort();
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

    // a JSON-RPC batch (no batching in 2025-11-25) is refused whole, in a session or not
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'count-words', arguments: { text: 'a b' } } });
    const session = await connect('/api/mcp/skillyard/text-stats');
    for (const headers of [{}, { 'mcp-session-id': session.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' }] as Record<string, string>[]) {
      const batch = await post('/api/mcp/skillyard/text-stats', JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1))), headers);
      expect(batch.status).toBe(400);
      expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batches are not supported/) } });
    }
    await session.client.close();

    const unknownSkill = await post(
      '/api/mcp/skillyard/no-such-skill',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    );
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

describe('a private skill over an open MCP session', () => {
  it('is gone from the session of a member removed from its team: not listed, not called, no prompt; a session of nothing visible ends', async () => {
    const { createTeam, createInvite, acceptInvite, removeMember } = await import('../teams');
    const { userPrincipal } = await import('../principal');
    const { readUpload } = await import('../registry/read-upload');
    const { publishVersion } = await import('../registry/publish-version');
    const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.5' });
    const ann = await newUserToken('mcp-ann');
    const bob = await newUserToken('mcp-bob');
    const slug = `mcp-${Date.now().toString(36)}`;
    await createTeam(testDb(), as(ann.userId), { slug });
    await acceptInvite(testDb(), as(bob.userId), (await createInvite(testDb(), as(ann.userId), slug, { role: 'member' })).secret);
    const md = [
      '---',
      'name: secret-tool',
      'description: A private tool of the team, for the MCP removal test.',
      'metadata:',
      '  version: 1.0.0',
      '  params: { type: object, properties: {} }',
      `  delegate: "inline://code,export default async function () { return { secret: 'acme-private-result' }; }\\n"`,
      '---',
      '',
      'Call secret-tool to read the team secret.',
      '',
    ].join('\n');
    const pkg = readUpload({ kind: 'files', files: [{ path: 'secret-tool.skill.md', content: new TextEncoder().encode(md) }] });
    if (!pkg.manifest) throw new Error(JSON.stringify(pkg.diagnostics));
    await publishVersion(testDb(), { scope: slug, manifest: pkg.manifest, files: pkg.files, version: '1.0.0', visibility: 'private' });

    const both = await connect(`/api/mcp?skills=@${slug}/secret-tool,@skillyard/slugify`, bob.token);
    const only = await connect(`/api/mcp/${slug}/secret-tool`, bob.token);
    const secretName = (await both.client.listTools()).tools.find((t) => t._meta?.['skillyard/skill'] === 'secret-tool')?.name;
    expect(secretName).toBe('secret-tool');
    const before = await both.client.callTool({ name: secretName!, arguments: {} });
    expect((before.content as Array<{ text: string }>)[0].text).toContain('acme-private-result');
    expect((await both.client.listPrompts()).prompts.map((p) => p.name)).toContain('secret-tool');
    expect((await only.client.listTools()).tools.length).toBe(1);

    await removeMember(testDb(), as(ann.userId), slug, bob.userId);

    // the same sessions, right after: the private skill does not exist for bob any more
    const tools = (await both.client.listTools()).tools;
    expect(tools.map((t) => t.name)).toContain('slugify');
    expect(tools.map((t) => t.name)).not.toContain(secretName);
    await expect(both.client.callTool({ name: secretName!, arguments: {} })).rejects.toThrow(/tool\/not-found/);
    expect((await both.client.listPrompts()).prompts.map((p) => p.name)).not.toContain('secret-tool');
    await expect(both.client.getPrompt({ name: 'secret-tool' })).rejects.toThrow(/prompt\/not-found/);
    // a session of only that skill is answered as a missing one
    await expect(only.client.callTool({ name: secretName!, arguments: {} })).rejects.toThrow(/Session not found|404/);
    await expect(only.client.listTools()).rejects.toThrow(/Session not found|404/);
    await both.client.close();
  });
});

describe('anonymous sessions', () => {
  it('are capped per client address: one address opening many sessions evicts only its own', async () => {
    const init = (address: string) =>
      post(
        '/api/mcp/skillyard/text-stats',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'anon', version: '1' } } }),
        { 'x-forwarded-for': address },
      ).then(async (res) => {
        expect(res.status).toBe(200);
        await res.body?.cancel();
        return res.headers.get('mcp-session-id')!;
      });
    const list = (address: string, sessionId: string) =>
      post('/api/mcp/skillyard/text-stats', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
        'x-forwarded-for': address,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      }).then(async (res) => {
        await res.body?.cancel();
        return res.status;
      });
    const victim = await init('198.51.100.7');
    const flooder: string[] = [];
    for (let i = 0; i < 21; i++) flooder.push(await init('198.51.100.66'));
    expect(await list('198.51.100.7', victim)).toBe(200); // another address's flood left it alone
    expect(await list('198.51.100.66', flooder[0])).toBe(404); // the flooder's own oldest went
    expect(await list('198.51.100.66', flooder[20])).toBe(200);
    // a session is bound to its address too: another anonymous address is answered as for a missing one
    expect(await list('198.51.100.66', victim)).toBe(404);
  });
});
