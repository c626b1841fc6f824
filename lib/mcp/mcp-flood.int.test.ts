// A flood on the MCP endpoint is limited like the invoke API: each request costs a rate
// point, batches are refused, and a tools/call holds one of the caller's requests in
// progress until its answer is sent. Past either limit the caller gets 429 with a JSON-RPC
// error and Retry-After (from withApi, then from the front door, as in production), and
// the server keeps serving everybody else. Limits are lowered for this file's process.
import { serveOnLoopback } from './testing/serve-on-loopback';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testDatabaseUrl, testDb } from '../../test/db';
import { createApiToken } from '../auth/api-tokens';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { serverContext } from '../server/server-context';

const RATE_LIMIT = 30;
const SKILL = '@skillyard/text-stats';
const PATH = '/api/mcp/skillyard/text-stats';
let base: string;
let close: () => Promise<void>;
let handleMcpRoute: typeof import('../api/mcp-route').handleMcpRoute;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.SKILLYARD_RATE_LIMIT_AUTHENTICATED = String(RATE_LIMIT);
  process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = String(RATE_LIMIT);
  process.env.SKILLYARD_MAX_CONCURRENT_PER_CALLER = '2';
  const { httpLimits } = await import('../limits');
  expect(httpLimits()).toMatchObject({ rateAuthenticated: RATE_LIMIT, maxConcurrentPerCaller: 2 });
  ({ handleMcpRoute } = await import('../api/mcp-route'));
  const { refuseAtFrontDoor } = await import('../api/front-door');
  await seedBundledSkills(testDb());
  const listener = getRequestListener((req) => handleMcpRoute(req, [SKILL]));
  // the front door in front of the route, as instrumentation.ts puts it in production
  ({ base, close } = await serveOnLoopback((req, res) => {
    if (!refuseAtFrontDoor(req, res)) void listener(req, res);
  }));
});

afterAll(async () => {
  await close();
  await serverContext().close();
});

async function tokenFor(name: string) {
  const user = await testDb().user.create({ data: { name } });
  return (await createApiToken(testDb(), { userId: user.id, name: 'mcp', scopes: ['invoke'] })).token;
}

async function connect(token: string) {
  const client = new Client({ name: 'flood', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(PATH, base), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

const callBody = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'count-words', arguments: { text: 'one two' } } });
const sessionHeaders = (token: string, sessionId: string) => ({
  authorization: `Bearer ${token}`,
  'mcp-session-id': sessionId,
  'mcp-protocol-version': '2025-11-25',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

describe('a flood of MCP calls', () => {
  it('is refused with 429, a JSON-RPC error and Retry-After once past the rate limit, and others are still served', async () => {
    const token = await tokenFor('mcp-flooder');
    const { client, sessionId } = await connect(token);
    const statuses: number[] = [];
    const refusals: Response[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) {
      const res = await fetch(`${base}${PATH}`, { method: 'POST', headers: sessionHeaders(token, sessionId), body: callBody(i + 1) });
      statuses.push(res.status);
      if (res.status === 429) refusals.push(res);
      else await res.text();
    }
    // the session's own requests (initialize, initialized, its GET stream) cost points too
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(RATE_LIMIT - 6);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(RATE_LIMIT);
    expect(statuses.slice(statuses.indexOf(429))).toEqual(statuses.slice(statuses.indexOf(429)).map(() => 429));
    for (const res of refusals) {
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^rate\/limited: /) } });
    }
    // the first refusal is withApi's (with the RateLimit-* headers), the rest the front door's
    expect(refusals[0].headers.get('ratelimit-remaining')).toBe('0');
    expect(refusals.at(-1)!.headers.get('ratelimit-remaining')).toBeNull();
    // the SDK client sees the refusal as an error, not a hang
    await expect(client.callTool({ name: 'count-words', arguments: { text: 'again' } })).rejects.toThrow(/429|rate\/limited/);

    const other = await connect(await tokenFor('mcp-innocent'));
    const res = await other.client.callTool({ name: 'count-words', arguments: { text: 'still serving' } });
    expect(res.isError).toBeFalsy();
    await other.client.close();
    await client.close().catch(() => {});
  });

  it('counts a tools/call as in progress until its answer has been sent, like an invoke', async () => {
    const token = await tokenFor('mcp-parallel');
    const { client, sessionId } = await connect(token);
    const call = (id: number) => handleMcpRoute(new Request(`${base}${PATH}`, { method: 'POST', headers: sessionHeaders(token, sessionId), body: callBody(id) }), [SKILL]);
    // two answers nobody has read yet: the caller's cap of 2 requests in progress is reached
    const first = await call(1);
    const second = await call(2);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await call(3);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(await third.json()).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/^rate\/limited: Too many requests in progress/) } });
    // once an answer has been sent, the next call is served
    expect(await first.text()).toMatch(/words[\\"]*: 2/);
    const fourth = await call(4);
    expect(fourth.status).toBe(200);
    expect(await fourth.text()).toMatch(/words[\\"]*: 2/);
    await second.text();
    await client.close();
  });
});
