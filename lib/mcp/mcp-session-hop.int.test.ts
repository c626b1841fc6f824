// An MCP session opened on one instance works on another (issue 27): two session tables
// sharing the Postgres store, as two web instances behind a round-robin balancer. The
// other instance revives the session for the same principal and selection only; a
// session ended with DELETE is gone everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from '../../test/db';
import { openRegistryMcpHost, parseMcpSelection } from '../server/registry-mcp-host';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { serverContext } from '../server/server-context';
import { createMcpSessions, mcpSessionLimits, type McpSessions } from './http-sessions';
import { createPgMcpSessionStore } from '../server/mcp-session-store';
import { anonymousKey } from '../principal';

let a: McpSessions;
let b: McpSessions;
const skills = ['@skillyard/text-stats'];

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  await seedBundledSkills(testDb());
  a = createMcpSessions(mcpSessionLimits(), createPgMcpSessionStore(testDb()));
  b = createMcpSessions(mcpSessionLimits(), createPgMcpSessionStore(testDb()));
});
afterAll(async () => {
  a.closeAll();
  b.closeAll();
  await serverContext().close();
});

function call(on: McpSessions, principal: string, body: unknown, session?: string, method = 'POST') {
  const { refs, key } = parseMcpSelection(skills);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
  const req = new Request('http://127.0.0.1/api/mcp', { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined });
  return on.handle({ req, principal, selection: key, openHost: () => openRegistryMcpHost(serverContext(), refs, null, '127.0.0.9') });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hop', version: '1' } } };

describe('an MCP session across instances', () => {
  it('opened on A answers tools/list on B and back on A; another principal gets 404', async () => {
    const opened = await call(a, anonymousKey('127.0.0.9'), initialize);
    expect(opened.status).toBe(200);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect(await testDb().mcpSession.count({ where: { id } })).toBe(1);
    expect(b.size()).toBe(0);
    const list = await call(b, anonymousKey('127.0.0.9'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, id);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('"tools"');
    expect(b.size()).toBe(1);
    expect((await call(a, anonymousKey('127.0.0.9'), { jsonrpc: '2.0', id: 3, method: 'tools/list' }, id)).status).toBe(200);
    // another caller who learned the id
    const c = createMcpSessions(mcpSessionLimits(), createPgMcpSessionStore(testDb()));
    expect((await call(c, anonymousKey('127.0.0.10'), { jsonrpc: '2.0', id: 4, method: 'tools/list' }, id)).status).toBe(404);
    expect(c.size()).toBe(0);
    c.closeAll();
  });

  it('ended with DELETE on B is gone on A too', async () => {
    const opened = await call(a, anonymousKey('127.0.0.9'), initialize);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect((await call(b, anonymousKey('127.0.0.9'), null, id, 'DELETE')).status).toBe(200);
    expect(await testDb().mcpSession.count({ where: { id } })).toBe(0);
    const c = createMcpSessions(mcpSessionLimits(), createPgMcpSessionStore(testDb()));
    expect((await call(c, anonymousKey('127.0.0.9'), { jsonrpc: '2.0', id: 5, method: 'tools/list' }, id)).status).toBe(404);
    c.closeAll();
  });
});
