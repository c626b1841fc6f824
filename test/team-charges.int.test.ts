// Issue 23 item 5: teams and team tokens are charged to the people who make them. One
// account used to create unlimited teams, each with a token counting as its own principal
// for rate limits, runs in progress and MCP sessions, and filled the server's MCP session
// maximum in 3 s. Limits are lowered for this file's process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { authenticateApiToken } from '../lib/auth/api-tokens';
import { seedBundledSkills } from '../lib/registry/seed-bundled-skills';
import { serverContext } from '../lib/server/server-context';
import { createTeam, createTeamApiToken } from '../lib/teams';
import { resolveCaller } from '../lib/server';

const MAX_SESSIONS = 12;
let handleMcpRoute: typeof import('../lib/api/mcp-route').handleMcpRoute;
let mcpSessions: typeof import('../lib/api/mcp-route').mcpSessions;
let rateKeyOf: typeof import('../lib/principal').rateKeyOf;
let runsRoute: typeof import('../app/api/v1/runs/route');

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.SKILLYARD_MCP_MAX_SESSIONS = String(MAX_SESSIONS);
  process.env.SKILLYARD_MAX_TEAMS_PER_ACCOUNT = '3';
  process.env.SKILLYARD_RUN_MAX_ACTIVE = '2';
  ({ handleMcpRoute, mcpSessions } = await import('../lib/api/mcp-route'));
  ({ rateKeyOf } = await import('../lib/principal'));
  runsRoute = await import('../app/api/v1/runs/route');
  await seedBundledSkills(testDb());
});
afterAll(async () => {
  mcpSessions().closeAll();
  await serverContext().close();
});

let seq = 0;
async function person(name: string) {
  const handle = `${name}${Date.now().toString(36)}${seq++}`;
  const u = await testDb().user.create({ data: { handle, name: handle } });
  await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return { id: u.id, handle, actor: { principal: { kind: 'user' as const, userId: u.id }, ip: '203.0.113.9' } };
}

const initialize = (token: string | null) =>
  handleMcpRoute(
    new Request('http://127.0.0.1/api/mcp/skillyard/text-stats', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-forwarded-for': '198.51.100.23',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    }),
    ['@skillyard/text-stats'],
  );

describe('teams and team tokens are charged to who made them', () => {
  let mallory: Awaited<ReturnType<typeof person>>;
  const tokens: string[] = [];

  it('an account creates at most SKILLYARD_MAX_TEAMS_PER_ACCOUNT teams; the next is refused and nothing is stored', async () => {
    mallory = await person('mallory');
    for (let i = 0; i < 3; i++) {
      const team = await createTeam(testDb(), mallory.actor, { slug: `${mallory.handle}-t${i}` });
      tokens.push((await createTeamApiToken(testDb(), mallory.actor, team.slug, { name: 'flood', scopes: ['invoke', 'runs'] })).token);
    }
    await expect(createTeam(testDb(), mallory.actor, { slug: `${mallory.handle}-t3` })).rejects.toMatchObject({ code: 'team/too-many', status: 403 });
    expect(await testDb().team.count({ where: { slug: `${mallory.handle}-t3` } })).toBe(0);
    expect(await testDb().team.count({ where: { createdById: mallory.id } })).toBe(3);
  });

  it("a team token's rate-limit key is the person who made it, not the team", async () => {
    for (const token of tokens) {
      const p = (await authenticateApiToken(testDb(), `Bearer ${token}`))!;
      expect(p.userId).not.toBe(mallory.id); // it still acts as the team's service account
      expect(rateKeyOf({ kind: 'token', ...p }, '198.51.100.23').key).toBe(`user:${mallory.id}`);
    }
  });

  it("a team token's sandbox jobs take its maker's share of the fair queue", async () => {
    const { accountOf } = await import('../lib/principal');
    const keys = new Set<string | undefined>();
    for (const token of tokens) {
      const p = (await authenticateApiToken(testDb(), `Bearer ${token}`))!;
      const caller = await resolveCaller(testDb(), { userId: p.userId, heldTokens: false, account: accountOf({ kind: 'token', ...p }) });
      expect(caller.id).toBe(`user:${p.userId}`); // acts as the team
      keys.add(caller.queueKey);
    }
    expect([...keys]).toEqual([`user:${mallory.id}`]);
  });

  it("a team token's runs count against its maker's cap of runs in progress", async () => {
    const started: number[] = [];
    for (const token of tokens) {
      const res = await runsRoute.POST(
        new Request('http://127.0.0.1/api/v1/runs', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.23' },
          body: JSON.stringify({ skills: ['@skillyard/text-stats'], provider: 'manual', task: 'hold a slot' }),
        }),
        { params: Promise.resolve({}) },
      );
      started.push(res.status);
    }
    // SKILLYARD_RUN_MAX_ACTIVE=2 for mallory, however many teams she runs them through
    expect(started).toEqual([201, 201, 429]);
    expect(await testDb().run.count({ where: { principal: `user:${mallory.id}` } })).toBe(2);
  });

  it("one account's team tokens cannot fill the server's MCP sessions: everybody else still gets one", async () => {
    for (const token of tokens) for (let i = 0; i < 4; i++) expect((await initialize(token)).status).toBe(200);
    // 12 initializations through 3 teams: mallory holds her share, never the whole maximum
    expect(mcpSessions().size()).toBeLessThan(MAX_SESSIONS);
    expect(mcpSessions().size()).toBeLessThanOrEqual(MAX_SESSIONS / 4);
    const innocent = await person('innocent');
    const { createApiToken } = await import('../lib/auth/api-tokens');
    const own = (await createApiToken(testDb(), { userId: innocent.id, name: 'mcp', scopes: ['invoke'] })).token;
    expect((await initialize(own)).status).toBe(200);
    // anonymous callers from many addresses together hold at most half of it
    for (let i = 0; i < MAX_SESSIONS; i++) {
      const res = await handleMcpRoute(
        new Request('http://127.0.0.1/api/mcp/skillyard/text-stats', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': `192.0.2.${i + 1}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        }),
        ['@skillyard/text-stats'],
      );
      expect(res.status).toBe(200);
    }
    expect(mcpSessions().size()).toBeLessThan(MAX_SESSIONS);
    expect((await initialize(own)).status).toBe(200);
  });
});
