// OAuth sign-in through the real /api/auth route and a real OpenID Connect provider
// (test/oidc-server.ts): the provider's tokens never land in the Account table (they are
// sealed in the token vault as the held token @oauth/<provider>), and no account is linked
// to an existing user because the provider reports the same e-mail address.
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { startTestOidc, type TestOidc } from './oidc-server';
import { skillyardAdapter } from '../lib/auth/auth-adapter';
import { openSecret } from '../lib/auth/secret-box';

// the callback's team-connect check reads the request's cookies through next/headers,
// which only a Next.js request provides; no team connect is under way here
vi.mock('next/headers', () => ({
  cookies: async () => ({ get: () => undefined, delete: () => {}, set: () => {} }),
  headers: async () => new Headers(),
}));

type Handler = (req: Request) => Promise<Response>;
let GET: Handler;
let POST: Handler;
let idp: TestOidc;
const ORIGIN = 'http://127.0.0.1:3999';
const saved = { ...process.env };

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.SKILLYARD_SECRET_KEY ??= 'e'.repeat(64);
  idp = await startTestOidc({ redirectUris: [`${ORIGIN}/api/auth/callback/oidc`] });
  Object.assign(process.env, { SKILLYARD_OIDC_ISSUER: idp.issuer, SKILLYARD_OIDC_ID: idp.clientId, SKILLYARD_OIDC_SECRET: idp.clientSecret });
  delete process.env.AUTH_URL;
  delete process.env.NEXTAUTH_URL;
  ({ GET, POST } = (await import('../app/api/auth/[...nextauth]/route')) as unknown as { GET: Handler; POST: Handler });
});
afterAll(async () => {
  process.env = saved;
  await idp?.close();
});

/** A browser's cookie jar for one origin. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    get: (name: string) => cookies.get(name),
  };
}

/**
 * Signs in with the OIDC provider as `login`, the way a browser does: the sign-in POST,
 * the provider's login and consent pages, then the callback. Returns the final redirect.
 */
async function signInWithOidc(login: string): Promise<{ location: string; session: string | undefined }> {
  const app = jar();
  const at = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new NextRequest(`${ORIGIN}${path}`, {
      method: init.method,
      body: init.body,
      headers: { host: '127.0.0.1:3999', 'x-forwarded-for': '203.0.113.90', cookie: app.header(), ...init.headers },
    });
  const csrf = await GET(at('/api/auth/csrf'));
  app.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const start = await POST(
    at('/api/auth/signin/oidc', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/welcome` }).toString(),
    }),
  );
  app.take(start);
  let location = start.headers.get('location') ?? '';
  expect(location.startsWith(idp.issuer)).toBe(true);

  // at the provider (its own cookies)
  const provider = jar();
  for (let hop = 0; hop < 12 && !location.startsWith(`${ORIGIN}/api/auth/callback/oidc`); hop++) {
    const interaction = /\/interaction\//.test(location);
    const res = await fetch(new URL(location, idp.issuer), {
      method: interaction ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: provider.header(), ...(interaction ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: interaction ? new URLSearchParams({ login }).toString() : undefined,
    });
    provider.take(res);
    location = res.headers.get('location') ?? '';
    if (!location) throw new Error(`the provider stopped at ${res.status}: ${await res.text()}`);
  }
  const callback = await GET(at(location.slice(ORIGIN.length)));
  app.take(callback);
  return { location: callback.headers.get('location') ?? '', session: app.get('authjs.session-token') };
}

describe('OAuth sign-in and account linking', () => {
  it('keeps the provider tokens out of the Account table: they are sealed in the vault', async () => {
    const login = `linker${Date.now().toString(36)}`;
    const { location, session } = await signInWithOidc(login);
    expect(location).toBe(`${ORIGIN}/welcome`);
    expect(session).toBeTruthy();
    const db = testDb();
    const account = await db.account.findUniqueOrThrow({ where: { provider_providerAccountId: { provider: 'oidc', providerAccountId: login } } });
    // the vault holds the real tokens (sealed); the Account row holds none of them
    const held = await db.heldToken.findFirstOrThrow({ where: { userId: account.userId, issuer: '@oauth/oidc' } });
    const accessToken = openSecret(held.secret);
    const refreshToken = openSecret(held.refreshSecret!);
    expect(accessToken.length).toBeGreaterThan(20);
    expect(refreshToken.length).toBeGreaterThan(20);
    const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "Account" WHERE "userId" = $1`, account.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ access_token: null, refresh_token: null, id_token: null });
    const dump = JSON.stringify(rows);
    for (const secret of [accessToken, refreshToken, held.secret]) expect(dump).not.toContain(secret);
    // nor in clear anywhere in the held token's row
    expect(JSON.stringify(held)).not.toContain(accessToken);
    // and the e-mail the provider reported was not kept, so it can never link accounts later
    expect((await db.user.findUniqueOrThrow({ where: { id: account.userId } })).email).toBeNull();
  });

  it('does not link a provider account to an existing user because the provider reports the same e-mail', async () => {
    const db = testDb();
    const login = `victim${Date.now().toString(36)}`;
    // someone who signed up with the e-mail link (verified) owns the address the provider will report
    const victim = await db.user.create({ data: { email: `${login}@oidc.test`, emailVerified: new Date(), handle: login } });
    const { location, session } = await signInWithOidc(login);
    // Auth.js sends this one to the sign-in page, which forwards it to /signin/error
    expect(location).toBe(`${ORIGIN}/signin?error=OAuthAccountNotLinked`);
    expect(session).toBeUndefined();
    expect(await db.account.count({ where: { userId: victim.id } })).toBe(0);
    expect(await db.account.count({ where: { provider: 'oidc', providerAccountId: login } })).toBe(0);
    expect(await db.heldToken.count({ where: { userId: victim.id } })).toBe(0);
    expect(await db.session.count({ where: { userId: victim.id } })).toBe(0);
  });

  it('stores no unverified e-mail, so a later sign-in reporting it finds nobody to link to', async () => {
    const db = testDb();
    const adapter = skillyardAdapter(db);
    const email = `unverified-${Date.now().toString(36)}@example.com`;
    const created = await adapter.createUser!({ id: 'ignored', email, emailVerified: null, name: 'u' });
    expect((await db.user.findUniqueOrThrow({ where: { id: created.id } })).email).toBeNull();
    expect(await adapter.getUserByEmail!(email)).toBeNull();
    // linkAccount given every token Auth.js hands it keeps none of them
    await adapter.linkAccount!({
      userId: created.id,
      type: 'oidc',
      provider: 'other',
      providerAccountId: 'p1',
      access_token: 'at-should-not-be-stored',
      refresh_token: 'rt-should-not-be-stored',
      id_token: 'it-should-not-be-stored',
      session_state: 'ss-should-not-be-stored',
      token_type: 'bearer',
      scope: 'openid',
      expires_at: 1,
    });
    const dump = JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "Account" WHERE "userId" = $1`, created.id));
    expect(dump).toContain('"providerAccountId":"p1"');
    expect(dump).not.toMatch(/should-not-be-stored/);
  });
});
