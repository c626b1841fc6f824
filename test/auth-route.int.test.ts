// /api/auth/* as Next.js hands it over: a NextRequest whose URL says "localhost" although
// the browser used 127.0.0.1 (NextURL rewrites it). Auth.js must build its URLs on the
// origin the browser used, and direct sign-in POSTs count against the sign-in limits.
import { NextRequest } from 'next/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './db';
import { SIGN_IN_LIMITS } from '../lib/auth/sign-in-limit';

type Handler = (req: Request) => Promise<Response>;
let GET: Handler;
let POST: Handler;

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  ({ GET, POST } = (await import('../app/api/auth/[...nextauth]/route')) as unknown as { GET: Handler; POST: Handler });
});

describe('the auth route', () => {
  it('builds its URLs on the origin the browser used, 127.0.0.1 included', async () => {
    const req = new NextRequest('http://127.0.0.1:3999/api/auth/providers', { headers: { host: '127.0.0.1:3999' } });
    expect(req.url).toBe('http://localhost:3999/api/auth/providers'); // what Next.js does to the URL
    const providers = (await (await GET(req)).json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
    expect(providers.email.callbackUrl).toBe('http://127.0.0.1:3999/api/auth/callback/email');
    const viaLocalhost = new NextRequest('http://localhost:3999/api/auth/providers', { headers: { host: 'localhost:3999' } });
    expect(((await (await GET(viaLocalhost)).json()) as typeof providers).email.callbackUrl).toBe('http://localhost:3999/api/auth/callback/email');
  });

  it('sets Secure, __Host- cookies behind an https proxy, and HttpOnly SameSite=Lax ones always', async () => {
    const proxied = await GET(new NextRequest('http://localhost:3000/api/auth/csrf', { headers: { host: 'internal:3000', 'x-forwarded-host': 'yard.example', 'x-forwarded-proto': 'https' } }));
    const cookie = proxied.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-authjs\.csrf-token=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const plain = (await GET(new NextRequest('http://127.0.0.1:3999/api/auth/csrf', { headers: { host: '127.0.0.1:3999' } }))).headers.get('set-cookie') ?? '';
    expect(plain).toMatch(/^authjs\.csrf-token=/);
    expect(plain).not.toMatch(/; Secure/i);
  });

  it('answers 429 with Retry-After once an address asked for too many links, even straight at Auth.js', async () => {
    const email = `direct-${Date.now()}@example.com`;
    const send = (i: number) =>
      POST(
        new NextRequest('http://127.0.0.1:3999/api/auth/signin/email', {
          method: 'POST',
          headers: { host: '127.0.0.1:3999', 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.${i}` },
          body: new URLSearchParams({ email, csrfToken: 'x' }).toString(),
        }),
      );
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) expect((await send(i)).status).not.toBe(429);
    const refused = await send(99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(SIGN_IN_LIMITS.perEmail));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await refused.json()).toMatchObject({ error: { code: 'rate/limited' } });
  });
});
