// An issuer's keys are read again for a key the cache lacks, but not on every such token:
// a stranger's tokens naming unknown key ids must not make the registry fetch the
// issuer's discovery and key set once per request.
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerKeys } from './issuer-keys';
import { oidcSettings } from './oidc-settings';

let server: http.Server;
let issuer = '';
let reads = 0;

beforeAll(async () => {
  const jwk = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      reads++;
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    }
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [{ ...jwk, kid: 'k1', alg: 'ES256', use: 'sig' }] }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('issuer keys', () => {
  it('reads the keys again for an unknown key at most once in a while, not per token', async () => {
    const settings = oidcSettings({ SKILLYARD_OIDC_ALLOW_PRIVATE: '1' });
    await issuerKeys(issuer, settings);
    expect(reads).toBe(1);
    for (let i = 0; i < 5; i++) await issuerKeys(issuer, settings, true);
    expect(reads).toBe(1);
  });
});
