// A real OpenID Connect provider for tests (npm `oidc-provider`): real authorization
// codes, access tokens and refresh tokens, with a minimal login and consent page of our
// own, plus an "upstream" API that accepts only a live access token of this provider.
// Used by the integration tests (in-process) and by the e2e tests (scripts/e2e-oidc.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type TestOidcOptions = {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  redirectUris: string[];
  /** scopes beyond openid/profile/email/offline_access the tools may ask for */
  extraScopes?: string[];
  /** access token lifetime in seconds (changeable later with setAccessTokenTtl) */
  accessTokenTtl?: number;
  /** serve GET/POST /test/state (upstream calls, refresh count, token lifetime) for e2e tests */
  controlEndpoints?: boolean;
};

export type UpstreamCall = { path: string; token: string; ok: boolean; scopes: string[] };

export type TestOidc = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  upstreamUrl: string;
  upstreamCalls: UpstreamCall[];
  refreshGrants: () => number;
  setAccessTokenTtl(seconds: number): void;
  /** the code flow without a browser: a real code, then real tokens */
  obtainTokens(login: string, scope: string, redirectUri?: string): Promise<{ access_token: string; refresh_token?: string; expires_in: number; scope: string }>;
  close(): Promise<void>;
};

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:28rem;margin:3rem auto">${body}</body></html>`;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startTestOidc(opts: TestOidcOptions): Promise<TestOidc> {
  const clientId = opts.clientId ?? 'skillyard-test';
  const clientSecret = opts.clientSecret ?? 'skillyard-test-secret-0123456789abcdef';
  const extraScopes = opts.extraScopes ?? ['api:read', 'api:write'];
  let accessTokenTtl = opts.accessTokenTtl ?? 3600;
  let refreshGrants = 0;
  const upstreamCalls: UpstreamCall[] = [];

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: ['openid', 'profile', 'email', 'offline_access', ...extraScopes].join(' '),
      },
    ],
    scopes: ['openid', 'profile', 'email', 'offline_access', ...extraScopes],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    // next-auth reads the e-mail from the ID token (ENVIRONMENT.md)
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, email: `${sub}@oidc.test`, email_verified: true, name: sub, preferred_username: sub }) };
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: () => accessTokenTtl,
      RefreshToken: 24 * 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 24 * 3600,
      IdToken: 3600,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
  });
  provider.on('grant.success', (ctx: unknown) => {
    if ((ctx as { oidc?: { params?: { grant_type?: string } } }).oidc?.params?.grant_type === 'refresh_token') refreshGrants++;
  });

  // what the IdP refused, for a test that fails at the code exchange
  for (const event of ['grant.error', 'server_error', 'authorization.error']) {
    provider.on(event, (ctx: { oidc?: { params?: { redirect_uri?: string } } }, err: { message?: string; error_description?: string; error_detail?: string }) =>
      console.error(
        `[test-idp] ${event}: ${err?.message ?? ''} ${err?.error_description ?? ''} ${err?.error_detail ?? ''} (redirect_uri ${ctx?.oidc?.params?.redirect_uri ?? '-'})`,
      ),
    );
  }
  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    try {
      const m = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
      if (m) {
        const details = await provider.interactionDetails(req, res);
        const prompt = details.prompt as { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } };
        if (req.method === 'GET') {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          if (prompt.name === 'login') {
            res.end(
              page(
                'Test IdP sign-in',
                `<h1>Test IdP</h1><form method="post"><label>Login <input name="login" value="alice"></label> <button type="submit">Sign in to Test IdP</button></form>`,
              ),
            );
          } else {
            const scopes = (prompt.details.missingOIDCScope ?? []).join(' ');
            res.end(page('Test IdP consent', `<h1>Allow access?</h1><p data-scopes>${esc(scopes)}</p><form method="post"><button type="submit">Allow</button></form>`));
          }
          return;
        }
        const form = await readForm(req);
        if (prompt.name === 'login') {
          const login = (form.get('login') ?? 'alice').trim() || 'alice';
          await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
          return;
        }
        const accountId = (details.session as { accountId: string }).accountId;
        const params = details.params as { client_id: string };
        const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: params.client_id });
        if (!grant) throw new Error('grant vanished');
        if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
        if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
        for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return;
      }
      if (url.pathname === '/test/state' && opts.controlEndpoints) {
        // for a test in another process (e2e): what the upstream saw, and the token lifetime
        if (req.method === 'POST') {
          const form = await readForm(req);
          if (form.has('accessTokenTtl')) accessTokenTtl = Number(form.get('accessTokenTtl'));
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ upstreamCalls, refreshGrants, accessTokenTtl }));
        return;
      }
      if (url.pathname.startsWith('/upstream/')) {
        // the API a gated tool calls: only a live access token of this provider gets in
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const found = token ? await provider.AccessToken.find(token) : undefined;
        const scopes = found ? [...found.scopes] : [];
        const ok = !!found && !found.isExpired;
        upstreamCalls.push({ path: url.pathname, token, ok, scopes });
        res.setHeader('content-type', 'application/json');
        if (!ok) {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: 'invalid_token' }));
          return;
        }
        res.end(JSON.stringify({ subject: found.accountId, scopes, path: url.pathname }));
        return;
      }
      callback(req, res);
    } catch (err) {
      res.statusCode = 500;
      res.end(String((err as Error).message));
    }
  });

  async function obtainTokens(login: string, scope: string, redirectUri = opts.redirectUris[0]) {
    let cookies: string[] = [];
    const jar = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const name = pair.split('=')[0];
        cookies = [...cookies.filter((x) => !x.startsWith(`${name}=`)), pair];
      }
    };
    const go = async (href: string, init: RequestInit = {}) => {
      const res = await fetch(new URL(href, issuer), { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), cookie: cookies.join('; ') } });
      jar(res);
      return res;
    };
    const auth = new URL('/auth', issuer);
    auth.search = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, scope, state: 'st', prompt: 'consent' }).toString();
    let res = await go(auth.toString());
    for (let hop = 0; hop < 10; hop++) {
      const location = res.headers.get('location');
      if (!location) throw new Error(`the test IdP stopped at ${res.status}: ${await res.text()}`);
      if (location.startsWith(redirectUri)) {
        const code = new URL(location).searchParams.get('code');
        if (!code) throw new Error(`no code: ${location}`);
        const tokenRes = await fetch(new URL('/token', issuer), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
        });
        const json = await tokenRes.json();
        if (!tokenRes.ok) throw new Error(`token endpoint: ${JSON.stringify(json)}`);
        return json;
      }
      if (/\/interaction\//.test(location)) {
        const body = new URLSearchParams({ login });
        res = await go(location, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      } else {
        res = await go(location);
      }
    }
    throw new Error('too many redirects at the test IdP');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    upstreamUrl: `${issuer}/upstream`,
    upstreamCalls,
    refreshGrants: () => refreshGrants,
    setAccessTokenTtl(seconds) {
      accessTokenTtl = seconds;
    },
    obtainTokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
