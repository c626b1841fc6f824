// The front door refuses only callers withApi already refuses (past the rate limit, or
// with the cap of requests in progress), before the server's own request handler runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import { frontDoorState, frontDoorVerdict, installFrontDoor, rememberCredentialKey } from './front-door';
import { httpLimits } from '../limits';
import { consumeRateLimit, resetRateLimitMemoryForTests } from '../limits';
import { anonymousKey } from '../principal';
import { heldRefusals } from './refusal-tarpit';

const fakeDb = { $queryRaw: async () => [], rateLimitBucket: { deleteMany: async () => ({ count: 0 }) } } as unknown as Db;
const msg = (url: string, headers: Record<string, string> = {}, remoteAddress = '192.0.2.7') => ({ url, headers, socket: { remoteAddress } }) as unknown as http.IncomingMessage;

afterEach(() => {
  frontDoorState().inFlight.clear();
  frontDoorState().streams.clear();
  frontDoorState().keys.clear();
  resetRateLimitMemoryForTests();
});

describe('the front door', () => {
  it('refuses an address with the cap of requests in progress, but not its streams, health or other addresses', () => {
    const cap = httpLimits().maxConcurrentPerCaller;
    frontDoorState().inFlight.set(anonymousKey('192.0.2.7'), cap - 1);
    expect(frontDoorVerdict(msg('/api/v1/tools/count-words/invoke'))).toBeNull();
    frontDoorState().inFlight.set(anonymousKey('192.0.2.7'), cap);
    expect(frontDoorVerdict(msg('/api/v1/tools/count-words/invoke'))).toMatchObject({ retryAfterS: 1 });
    expect(frontDoorVerdict(msg('/api/v1/runs/abc/events'))).toBeNull();
    // an MCP session's GET stream is long-lived; its POSTs (tools/call) count like invokes
    expect(frontDoorVerdict({ ...msg('/api/mcp/skillyard/text-stats'), method: 'GET' } as http.IncomingMessage)).toBeNull();
    expect(frontDoorVerdict({ ...msg('/api/mcp?skills=@a/b'), method: 'POST' } as http.IncomingMessage)).toMatchObject({ retryAfterS: 1 });
    expect(frontDoorVerdict(msg('/api/health'))).toBeNull();
    expect(frontDoorVerdict(msg('/skills/x'))).toBeNull();
    expect(frontDoorVerdict(msg('/api/v1/tools/count-words/invoke', {}, '192.0.2.8'))).toBeNull();
    // the address as withApi sees it: X-Forwarded-For when given
    expect(frontDoorVerdict(msg('/api/v1/skills', { 'x-forwarded-for': '198.51.100.1' }))).toBeNull();
  });

  it('refuses an address with the cap of open event streams (runs and MCP GET), but not its other requests', () => {
    const cap = httpLimits().maxStreamsPerCaller;
    frontDoorState().streams.set(anonymousKey('192.0.2.7'), cap - 1);
    expect(frontDoorVerdict(msg('/api/v1/runs/abc/events'))).toBeNull();
    frontDoorState().streams.set(anonymousKey('192.0.2.7'), cap);
    expect(frontDoorVerdict(msg('/api/v1/runs/abc/events?format=json'))).toMatchObject({ retryAfterS: 5, message: expect.stringContaining(`at most ${cap}`) });
    expect(frontDoorVerdict({ ...msg('/api/mcp/skillyard/text-stats'), method: 'GET' } as http.IncomingMessage)).toMatchObject({ retryAfterS: 5 });
    expect(frontDoorVerdict({ ...msg('/api/mcp/skillyard/text-stats'), method: 'DELETE' } as http.IncomingMessage)).toBeNull();
    expect(frontDoorVerdict(msg('/api/v1/tools/count-words/invoke'))).toBeNull();
    expect(frontDoorVerdict(msg('/api/v1/runs/abc/events', {}, '192.0.2.8'))).toBeNull();
  });

  it('lets an unverified credential through to withApi, and refuses a verified one by its own key', () => {
    const cap = httpLimits().maxConcurrentPerCaller;
    frontDoorState().inFlight.set(anonymousKey('192.0.2.7'), cap);
    const auth = { authorization: 'Bearer sy_0123abcd_secretsecretsecretsecret' };
    expect(frontDoorVerdict(msg('/api/v1/skills', auth))).toBeNull();
    rememberCredentialKey(new Request('http://x/api/v1/skills', { headers: auth }), 'token:t1');
    expect(frontDoorVerdict(msg('/api/v1/skills', auth))).toBeNull();
    frontDoorState().inFlight.set('token:t1', cap);
    expect(frontDoorVerdict(msg('/api/v1/skills', auth))).not.toBeNull();
    // the credential itself is never kept
    expect(JSON.stringify([...frontDoorState().keys])).not.toContain('secretsecret');
  });

  it('refuses a key past its rate limit until its window ends', async () => {
    for (let i = 0; i < 3; i++) await consumeRateLimit(fakeDb, anonymousKey('192.0.2.7'), { limit: 2, windowMs: 10_000 });
    const v = frontDoorVerdict(msg('/api/v1/skills'));
    expect(v?.retryAfterS).toBeGreaterThanOrEqual(9);
    expect(frontDoorVerdict(msg('/api/v1/skills'), Date.now() + 10_001)).toBeNull();
  });

  it('holds its refusals (a tarpit): a caller past its rate limit or at its cap of requests in progress', async () => {
    installFrontDoor();
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/skills`;
    const refusedAfterHold = async () => {
      const refused = fetch(url);
      await vi.waitFor(() => expect(heldRefusals()).toBe(1));
      const res = await refused;
      expect(res.status).toBe(429);
      expect((await res.json()).error.code).toBe('rate/limited');
      expect(heldRefusals()).toBe(0);
    };
    try {
      frontDoorState().inFlight.set(anonymousKey('127.0.0.1'), httpLimits().maxConcurrentPerCaller);
      await refusedAfterHold();
      frontDoorState().inFlight.clear();
      expect((await fetch(url)).status).toBe(200);
      for (let i = 0; i < 3; i++) await consumeRateLimit(fakeDb, anonymousKey('127.0.0.1'), { limit: 2, windowMs: 60_000 });
      await refusedAfterHold();
      // a client that goes away while its refusal is held takes nothing with it
      const gone = new AbortController();
      const abandoned = fetch(url, { signal: gone.signal }).catch((err: Error) => err.name);
      await vi.waitFor(() => expect(heldRefusals()).toBe(1));
      gone.abort();
      expect(await abandoned).toBe('AbortError');
      await vi.waitFor(() => expect(heldRefusals()).toBe(0));
    } finally {
      server.close();
    }
  });

  it('answers 429 before the server handler runs, once installed', async () => {
    installFrontDoor();
    let handled = 0;
    const server = http.createServer((_req, res) => {
      handled++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/skills`;
    try {
      expect((await fetch(url)).status).toBe(200);
      frontDoorState().inFlight.set(anonymousKey('127.0.0.1'), httpLimits().maxConcurrentPerCaller);
      const res = await fetch(url, { method: 'POST', body: JSON.stringify({ big: 'x'.repeat(10_000) }) });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect((await res.json()).error.code).toBe('rate/limited');
      expect(handled).toBe(1);
      // an MCP client gets the refusal as a JSON-RPC error
      const mcp = await fetch(url.replace('/api/v1/skills', '/api/mcp/skillyard/text-stats'), { method: 'POST', body: '{}' });
      expect(mcp.status).toBe(429);
      expect(mcp.headers.get('retry-after')).toBe('1');
      expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/^rate\/limited: /) } });
      expect(handled).toBe(1);
    } finally {
      server.close();
    }
  });
});
