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
    const proxied = await GET(
      new NextRequest('http://localhost:3000/api/auth/csrf', { headers: { host: 'internal:3000', 'x-forwarded-host': 'yard.example', 'x-forwarded-proto': 'https' } }),
    );
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

  it('counts every spelling of one inbox against one limit: case, a comma in the domain, a JSON body, a repeated field', async () => {
    const inbox = `victim-${Date.now()}@x.test`;
    const post = (i: number, contentType: string, body: string) =>
      POST(
        new NextRequest('http://127.0.0.1:3999/api/auth/signin/email', {
          method: 'POST',
          headers: { host: '127.0.0.1:3999', 'content-type': contentType, 'x-forwarded-for': `203.0.113.${i}` },
          body,
        }),
      );
    const form = (email: string, extra = '') => `${new URLSearchParams({ csrfToken: 'x', email })}${extra}`;
    const spellings: Array<[string, string]> = [
      ['application/x-www-form-urlencoded', form(inbox.toUpperCase())],
      ['application/x-www-form-urlencoded', form(`${inbox},1`)],
      ['application/json', JSON.stringify({ csrfToken: 'x', email: `${inbox},2` })],
      // Auth.js reads the last of repeated fields (Object.fromEntries), not the first
      ['application/x-www-form-urlencoded', `email=someone-else%40x.test&${form(inbox)}`],
      ['application/x-www-form-urlencoded; charset=utf-8', form(inbox.replace('@', '\uFF20'))],
    ];
    expect(spellings.length).toBe(SIGN_IN_LIMITS.perEmail);
    for (const [i, [type, body]] of spellings.entries()) expect((await post(i, type, body)).status).not.toBe(429);
    const refused = await post(99, 'application/json', JSON.stringify({ csrfToken: 'x', email: ` ${inbox},3 ` }));
    expect(refused.status).toBe(429);
    // another inbox is not held up by the victim's limit
    expect((await post(98, 'application/json', JSON.stringify({ csrfToken: 'x', email: `other-${inbox}` }))).status).not.toBe(429);
  });
});
