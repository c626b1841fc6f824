// The route wrapper and the converted routes against the real Postgres: rate limits shared
// through the database, API token scopes on the runs routes (issue 8 item 11), body limits,
// NUL refusal, the anonymous cookie and unexpected errors with a request id.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NextResponse } from 'next/server';
import { testDatabaseUrl, testDb } from './db';
import { createApiToken } from '../lib/auth/api-tokens';
import { createRun } from '../lib/runs/create-run';
import { flushRateLimits, resetRateLimitMemoryForTests } from '../lib/limits';
import { anonymousKey, visitorIdOf, type Principal } from '../lib/principal';

process.env.SKILLYARD_SECRET_KEY ??= 'f'.repeat(64);
process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = '5';
process.env.SKILLYARD_RATE_LIMIT_AUTHENTICATED = '8';
process.env.SKILLYARD_MAX_BODY_BYTES = String(64 * 1024);
process.env.SKILLYARD_MAX_CONCURRENT_PER_CALLER = '3';

type Route<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;
let withApi: typeof import('../lib/api/with-api').withApi;
let runRoute: { GET: Route<{ id: string }> };
let cancelRoute: { POST: Route<{ id: string }> };
let turnsRoute: { POST: Route<{ id: string }> };
let eventsRoute: { GET: Route<{ id: string }> };
let invokeRoute: { POST: Route<{ name: string }> };
let openapiRoute: { GET: Route<Record<string, never>> };

let runsToken: string;
let invokeOnlyToken: string;
let privateRunId: string;

const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const params = <P>(p: P) => ({ params: Promise.resolve(p) });
function req(url: string, init: RequestInit & { ip?: string; token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', init.ip ?? ip());
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  return new Request(`http://127.0.0.1${url}`, { ...init, headers, duplex: 'half' } as RequestInit);
}

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  ({ withApi } = await import('../lib/api/with-api'));
  runRoute = await import('../app/api/v1/runs/[id]/route');
  cancelRoute = await import('../app/api/v1/runs/[id]/cancel/route');
  turnsRoute = await import('../app/api/v1/runs/[id]/turns/route');
  eventsRoute = await import('../app/api/v1/runs/[id]/events/route');
  invokeRoute = await import('../app/api/v1/tools/[name]/invoke/route');
  openapiRoute = await import('../app/api/v1/openapi.json/route');
  const user = await testDb().user.create({ data: { email: `http-${Date.now()}@example.test` } });
  runsToken = (await createApiToken(testDb(), { userId: user.id, name: 'runs', scopes: ['runs'] })).token;
  invokeOnlyToken = (await createApiToken(testDb(), { userId: user.id, name: 'invoke', scopes: ['invoke'] })).token;
  const run = await createRun(testDb(), {
    config: { skills: ['@skillyard/text-stats'], provider: 'manual', task: 'private work', visibility: 'private' },
    userId: user.id,
  });
  privateRunId = run.id;
});
afterAll(() => resetRateLimitMemoryForTests());

describe('API token scopes on the runs routes (issue 8 item 11)', () => {
  it('a token without the runs scope cannot read, stream, post turns to or cancel a private run', async () => {
    const p = params({ id: privateRunId });
    for (const res of [
      await runRoute.GET(req(`/api/v1/runs/${privateRunId}`, { token: invokeOnlyToken }), p),
      await eventsRoute.GET(req(`/api/v1/runs/${privateRunId}/events`, { token: invokeOnlyToken }), p),
      await turnsRoute.POST(req(`/api/v1/runs/${privateRunId}/turns`, { method: 'POST', token: invokeOnlyToken, body: '{"turn":"return 1"}' }), p),
      await cancelRoute.POST(req(`/api/v1/runs/${privateRunId}/cancel`, { method: 'POST', token: invokeOnlyToken }), p),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('auth/forbidden');
    }
    expect((await testDb().run.findUniqueOrThrow({ where: { id: privateRunId } })).cancelRequested).toBe(false);
  });

  it('the owner with the runs scope reads it; anonymous callers do not see it', async () => {
    const ok = await runRoute.GET(req(`/api/v1/runs/${privateRunId}`, { token: runsToken }), params({ id: privateRunId }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).id).toBe(privateRunId);
    const anon = await runRoute.GET(req(`/api/v1/runs/${privateRunId}`), params({ id: privateRunId }));
    expect(anon.status).toBe(404);
  });

  it('refuses a Last-Event-ID Postgres cannot hold with a 400', async () => {
    const res = await eventsRoute.GET(req(`/api/v1/runs/${privateRunId}/events`, { token: runsToken, headers: { 'last-event-id': '2147483648' } }), params({ id: privateRunId }));
    expect(res.status).toBe(400);
  });
});

describe('rate limits in memory, shared through Postgres', () => {
  it('answers 429 with Retry-After and RateLimit headers per address, and other addresses still pass', async () => {
    const addr = ip();
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 7; i++) {
      last = await openapiRoute.GET(req('/api/v1/openapi.json', { ip: addr }), params({}));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    expect(last!.headers.get('ratelimit-limit')).toBe('5');
    expect((await last!.json()).error.code).toBe('rate/limited');
    expect((await openapiRoute.GET(req('/api/v1/openapi.json', { ip: ip() }), params({}))).status).toBe(200);
  });

  it('counts in the shared table, so a second instance (no memory of the first) refuses too', async () => {
    const addr = ip();
    for (let i = 0; i < 5; i++) await openapiRoute.GET(req('/api/v1/openapi.json', { ip: addr }), params({}));
    // counted in memory: nothing written per request; the batch writes all five at once
    expect(await testDb().rateLimitBucket.findUnique({ where: { key: anonymousKey(addr) } })).toBeNull();
    await flushRateLimits();
    expect((await testDb().rateLimitBucket.findUniqueOrThrow({ where: { key: anonymousKey(addr) } })).points).toBe(5);
    resetRateLimitMemoryForTests(); // as if the next request reached another instance (or this one restarted)
    const res = await openapiRoute.GET(req('/api/v1/openapi.json', { ip: addr }), params({}));
    expect(res.status).toBe(429);
    await flushRateLimits();
    const row = await testDb().rateLimitBucket.findUniqueOrThrow({ where: { key: anonymousKey(addr) } });
    expect(row.points).toBe(6);
  });

  it('keys API tokens by token, not by the shared address', async () => {
    const addr = ip();
    for (let i = 0; i < 6; i++) await openapiRoute.GET(req('/api/v1/openapi.json', { ip: addr }), params({}));
    const res = await openapiRoute.GET(req('/api/v1/openapi.json', { ip: addr, token: runsToken }), params({}));
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('8');
  });
});

describe('requests in progress per caller', () => {
  it('refuses a caller past its concurrent requests at once, and lets it in again when one ends', async () => {
    const user = await testDb().user.create({ data: { name: 'parallel' } });
    const { token } = await createApiToken(testDb(), { userId: user.id, name: 'p', scopes: ['invoke'] });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const route = withApi({}, async () => (await gate, NextResponse.json({ ok: true })));
    const done: Response[] = [];
    const pending = Array.from({ length: 6 }, () => route(req('/x', { token }), params({})).then((r) => (done.push(r), r)));
    // the three past the cap are answered while the three admitted ones still wait (bounded)
    for (let i = 0; i < 250 && done.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(done.length).toBe(3);
    for (const res of done) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect((await res.clone().json()).error.message).toContain('in progress');
    }
    release();
    expect((await Promise.all(pending)).map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await route(req('/x', { token }), params({}))).status).toBe(200);
  });
});

describe('request bodies, JSON depth and NUL bytes', () => {
  const invoke = (body: BodyInit, headers: Record<string, string> = {}) =>
    invokeRoute.POST(req('/api/v1/tools/count-words/invoke', { method: 'POST', body, headers }), params({ name: 'count-words' }));

  it('refuses a large body from Content-Length with 413', async () => {
    const res = await invoke(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1024)) }), { 'content-length': String(400 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('input/too-large');
  });

  it('refuses a streamed body past the limit with 413', async () => {
    let pulled = 0;
    const endless = new ReadableStream({ pull: (c) => void (pulled++, c.enqueue(new Uint8Array(16 * 1024))) }, { highWaterMark: 0 });
    const res = await invoke(endless);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('refuses JSON nested 5,000 deep with 400 input/too-deep', async () => {
    const res = await invoke(`{"args":{"text":${'['.repeat(5000)}${']'.repeat(5000)}}}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('input/too-deep');
  });

  it('refuses NUL in JSON strings, the query and the path with 400 input/nul-byte', async () => {
    const body = await invoke('{"args":{"text":"a\\u0000b"}}');
    expect(body.status).toBe(400);
    expect((await body.json()).error.code).toBe('input/nul-byte');
    const query = await openapiRoute.GET(req('/api/v1/openapi.json?q=a%00b'), params({}));
    expect(query.status).toBe(400);
    const path = await runRoute.GET(req('/api/v1/runs/abc%00def'), params({ id: 'abc\0def' }));
    expect(path.status).toBe(400);
    expect((await path.json()).error.code).toBe('input/nul-byte');
  });
});

describe('identity and errors', () => {
  it('gives an anonymous visitor a signed httpOnly cookie and keeps it', async () => {
    const first = await openapiRoute.GET(req('/api/v1/openapi.json'), params({}));
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sy_anon=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{32}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const value = cookie.split(';')[0]!;
    let seen: unknown = null;
    const route = withApi({}, async ({ principal }) => ((seen = principal), NextResponse.json({})));
    const again = await route(req('/x', { headers: { cookie: value } }), params({}));
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(seen).toEqual({ kind: 'anonymous', anonymousId: value.split('=')[1]!.split('.')[0] });
    expect(visitorIdOf(seen as Principal)).toBe(value.split('=')[1]!.split('.')[0]);
    const forged = await route(req('/x', { headers: { cookie: value.replace(/\.(.)/, (_m, c) => `.${c === 'A' ? 'B' : 'A'}`) } }), params({}));
    expect(forged.headers.get('set-cookie')).toMatch(/^sy_anon=/);
    expect((seen as { anonymousId: string }).anonymousId).not.toBe(value.split('=')[1]!.split('.')[0]);
    // an id minted for this request is no visitor yet: no storage, no warm isolate under it
    expect(seen).toMatchObject({ kind: 'anonymous', fresh: true });
    expect(visitorIdOf(seen as Principal)).toBeNull();
  });

  it('answers an unexpected error as internal with the request id, logged, without internals', async () => {
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const route = withApi({}, async () => {
      throw new Error('connect ECONNREFUSED 10.1.2.3:5432 password=hunter2');
    });
    const res = await route(req('/x', { headers: { 'x-request-id': 'req-abcdef123456' } }), params({}));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error).toMatchObject({ code: 'internal', requestId: 'req-abcdef123456' });
    expect(text).not.toMatch(/hunter2|ECONNREFUSED/);
    expect(res.headers.get('x-request-id')).toBe('req-abcdef123456');
    const lines = logged.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('unexpected error'));
    expect(lines.some((l) => l.includes('req-abcdef123456') && l.includes('ECONNREFUSED'))).toBe(true);
    logged.mockRestore();
  });

  it('answers a bad token with 401 and maps run/not-running to 409', async () => {
    const bad = await openapiRoute.GET(req('/api/v1/openapi.json', { token: 'sy_00000000_not-a-real-token-at-all' }), params({}));
    expect(bad.status).toBe(401);
    const turn = await turnsRoute.POST(req(`/api/v1/runs/${privateRunId}/turns`, { method: 'POST', token: runsToken, body: '{"turn":"return 1"}' }), params({ id: privateRunId }));
    expect(turn.status).toBe(409);
    expect((await turn.json()).error.code).toBe('run/not-running');
  });
});
