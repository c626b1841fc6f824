// The API as the browser and the CLI meet it: a next-auth session cookie acts as its user
// (not from another site's Origin, not once expired), API token scopes are enforced at
// the route (granted, missing, revoked, expired), and rate limits answer 429 with
// Retry-After and RateLimit headers.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, testDatabaseUrl } from './db';
import { issueApiToken, revokeApiToken } from '../lib/auth/manage-api-tokens';
import { userPrincipal } from '../lib/principal';
import { createTeam, createTeamApiToken } from '../lib/teams';

type Route = (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;
let createRunRoute: Route;
let whoamiRoute: Route;
const base = 'http://127.0.0.1:3999';
const ctx = { params: Promise.resolve({}) };

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  // small limits so the test reaches them (read once per process by lib/api/limits.ts)
  process.env.SKILLYARD_RATE_LIMIT_AUTHENTICATED = '30';
  process.env.SKILLYARD_RATE_LIMIT_ANONYMOUS = '200';
  createRunRoute = (await import('../app/api/v1/runs/route')).POST as unknown as Route;
  whoamiRoute = (await import('../app/api/auth/whoami/route')).GET as unknown as Route;
});

const scripted = { skills: ['@skillyard/slugify'], provider: 'scripted', script: ['return 1;'], task: 't' };

async function session(userId: string, expires = new Date(Date.now() + 3_600_000)) {
  const sessionToken = crypto.randomUUID();
  await testDb().session.create({ data: { userId, sessionToken, expires } });
  return `authjs.session-token=${sessionToken}`;
}

function post(headers: Record<string, string>, body: unknown = scripted) {
  return createRunRoute(
    new Request(`${base}/api/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json', host: '127.0.0.1:3999', ...headers }, body: JSON.stringify(body) }),
    ctx,
  );
}

async function ownerOf(res: Response) {
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return (await testDb().run.findUnique({ where: { id } }))?.userId ?? null;
}

describe('session cookies at the API', () => {
  it('act as the signed-in user, but not from another site and not once expired', async () => {
    const user = await testDb().user.create({ data: {} });
    const cookie = await session(user.id);
    expect(await ownerOf(await post({ cookie, origin: base }))).toBe(user.id);
    expect(await ownerOf(await post({ cookie }))).toBe(user.id);
    // a cross-site form or fetch does not act as the user
    expect(await ownerOf(await post({ cookie, origin: 'https://evil.example' }))).toBeNull();
    const stale = await session(user.id, new Date(Date.now() - 1000));
    expect(await ownerOf(await post({ cookie: stale }))).toBeNull();
    expect(await ownerOf(await post({ cookie: 'authjs.session-token=00000000-0000-0000-0000-000000000000' }))).toBeNull();
  });
});

describe('API token scopes at the route', () => {
  it('granted, missing, revoked and expired', async () => {
    const db = testDb();
    const user = await db.user.create({ data: {} });
    const runs = await issueApiToken(db, user.id, { name: 'runs', scopes: ['runs'], expiresInDays: 1 });
    const invokeOnly = await issueApiToken(db, user.id, { name: 'invoke', scopes: ['invoke'], expiresInDays: 1 });
    expect(await ownerOf(await post({ authorization: `Bearer ${runs.token}` }))).toBe(user.id);

    const missing = await post({ authorization: `Bearer ${invokeOnly.token}` });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ error: { code: 'auth/forbidden', message: expect.stringContaining('"runs"') } });

    await revokeApiToken(db, user.id, runs.id);
    const revoked = await post({ authorization: `Bearer ${runs.token}` });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ error: { code: 'auth/unauthenticated' } });

    await db.apiToken.update({ where: { id: invokeOnly.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await post({ authorization: `Bearer ${invokeOnly.token}` });
    expect(expired.status).toBe(401);
    // a bad token changes nothing
    expect(await db.run.count({ where: { userId: user.id } })).toBe(1);
  });
});

describe('rate limits', () => {
  it('answer 429 with Retry-After and RateLimit headers, per user: more tokens do not buy more budget', async () => {
    const db = testDb();
    const user = await db.user.create({ data: { handle: `rl-${Date.now().toString(36)}` } });
    const { token } = await issueApiToken(db, user.id, { name: 'rl', scopes: ['invoke'], expiresInDays: 1 });
    const other = await issueApiToken(db, user.id, { name: 'other', scopes: ['invoke'], expiresInDays: 1 });
    const get = (t: string) => whoamiRoute(new Request(`${base}/api/auth/whoami`, { headers: { authorization: `Bearer ${t}` } }), ctx);
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 32; i++) {
      last = await get(token);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-limit') ?? last!.headers.get('ratelimit')).toBeTruthy();
    expect(await last!.json()).toMatchObject({ error: { code: 'rate/limited' } });
    // another token of the same user, or a token minted now, draws on the same budget
    expect((await get(other.token)).status).toBe(429);
    const minted = await issueApiToken(db, user.id, { name: 'minted', scopes: ['invoke'], expiresInDays: 1 });
    expect((await get(minted.token)).status).toBe(429);
    // and so does the user's browser session
    const cookie = await session(user.id);
    const viaSession = await whoamiRoute(new Request(`${base}/api/auth/whoami`, { headers: { cookie, origin: base, host: '127.0.0.1:3999' } }), ctx);
    expect(viaSession.status).toBe(429);
    // another user's token is not touched
    const stranger = await db.user.create({ data: {} });
    const theirs = await issueApiToken(db, stranger.id, { name: 'theirs', scopes: ['invoke'], expiresInDays: 1 });
    expect((await get(theirs.token)).status).toBe(200);
  });

  it("a team's tokens share one budget (the team's service account)", async () => {
    const db = testDb();
    const owner = await db.user.create({ data: { handle: `rlo-${Date.now().toString(36)}` } });
    const slug = `rl-${Date.now().toString(36)}`;
    await createTeam(db, { principal: userPrincipal(owner.id) }, { slug });
    const a = await createTeamApiToken(db, { principal: userPrincipal(owner.id) }, slug, { name: 'a', scopes: ['invoke'] });
    const b = await createTeamApiToken(db, { principal: userPrincipal(owner.id) }, slug, { name: 'b', scopes: ['invoke'] });
    const get = (t: string) => whoamiRoute(new Request(`${base}/api/auth/whoami`, { headers: { authorization: `Bearer ${t}` } }), ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await get(a.token)).status, (await get(b.token)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});
