// A CI provider's OIDC issuer for tests: a real `oidc-provider` on localhost (discovery,
// JWKS, RS256 keys) issuing JWT tokens shaped like GitHub Actions' ID tokens (repository,
// workflow_ref, sha, ref, run_id) through its client-credentials grant, with the audience
// asked for. Used by the trusted-publishing integration tests and the e2e tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type CiClaims = { repository: string; workflow_ref: string; sha: string; ref: string; run_id?: string; [claim: string]: string | undefined };

export type TestCiIssuer = {
  issuer: string;
  /** a fresh token with these claims for `audience` (lifetime `ttlSeconds`, default 300) */
  issueToken(claims: CiClaims, audience: string, ttlSeconds?: number): Promise<string>;
  close(): Promise<void>;
};

const CLIENT = 'ci-runner';
const SECRET = 'ci-runner-secret-0123456789abcdef0123456789';

/**
 * `controlEndpoint`: also answer POST /test/issue {claims, audience} with {token} (for e2e
 * specs, which run in another process than the issuer).
 */
export async function startTestCiIssuer(opts: { port?: number; controlEndpoint?: boolean } = {}): Promise<TestCiIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the claims of the token being issued (one issue at a time: issueToken awaits its answer)
  let pending: { claims: CiClaims; ttl: number } | null = null;
  const provider = new Provider(issuer, {
    clients: [{ client_id: CLIENT, client_secret: SECRET, grant_types: ['client_credentials'], response_types: [], redirect_uris: [] }],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'https://registry.skillyard.test',
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: '',
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: pending?.ttl ?? 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
        useGrantedResource: () => true,
      },
    },
    ttl: { ClientCredentials: () => pending?.ttl ?? 300 },
    extraTokenClaims: async () => ({ ...(pending?.claims ?? {}) }),
  } as ConstructorParameters<typeof Provider>[1]);
  let queue: Promise<unknown> = Promise.resolve();
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!(opts.controlEndpoint && req.method === 'POST' && req.url === '/test/issue')) return callback(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { claims, audience } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { claims: CiClaims; audience: string };
      self.issueToken(claims, audience).then(
        (token) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token })),
        (err: Error) => res.writeHead(500).end(err.message),
      );
    });
  });

  const self: TestCiIssuer = {
    issuer,
    issueToken(claims, audience, ttlSeconds = 300) {
      const issue = async () => {
        pending = { claims, ttl: ttlSeconds };
        try {
          const res = await fetch(`${issuer}/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}` },
            body: new URLSearchParams({ grant_type: 'client_credentials', resource: audience }),
          });
          const body = (await res.json()) as { access_token?: string; error?: string };
          if (!body.access_token) throw new Error(`the test issuer refused: ${JSON.stringify(body)}`);
          return body.access_token;
        } finally {
          pending = null;
        }
      };
      const next = queue.then(issue, issue);
      queue = next.catch(() => {});
      return next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return self;
}
