// Connections against a real OIDC server (oidc-provider): tokens sealed at rest, handed to
// tools in clear, refreshed when expired, deleted on disconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { startTestOidc, type TestOidc } from '../../test/oidc-server';
import { loadHeldTokens } from '../server/capabilities/pg-token-vault';
import { disconnect, listConnections, refreshExpiredConnections, storeConnectionTokens } from './oauth-connections';
import { providersFromEnv, type ProviderSpec } from './provider-config';

let idp: TestOidc;
let spec: ProviderSpec;

beforeAll(async () => {
  idp = await startTestOidc({ redirectUris: ['http://127.0.0.1:9/api/auth/callback/oidc'] });
  [spec] = providersFromEnv({ SKILLYARD_OIDC_ISSUER: idp.issuer, SKILLYARD_OIDC_ID: idp.clientId, SKILLYARD_OIDC_SECRET: idp.clientSecret });
});
afterAll(() => idp?.close());

async function newUser() {
  return testDb().user.create({ data: { name: 'conn' } });
}

async function callUpstream(token: string) {
  return (await fetch(`${idp.upstreamUrl}/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('OAuth connections in the token vault', () => {
  it('seals the tokens at rest and hands the tool the live access token', async () => {
    const db = testDb();
    const user = await newUser();
    const tokens = await idp.obtainTokens('alice', 'openid api:read offline_access');
    expect(tokens.refresh_token).toBeTruthy();
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...tokens });

    // nothing of either token is stored in clear, in any column
    const raw = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "HeldToken" WHERE "userId" = $1`, user.id);
    const dump = JSON.stringify(raw);
    expect(raw).toHaveLength(1);
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token);

    const held = await loadHeldTokens(db, `user:${user.id}`);
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ issuer: '@oauth/oidc', secret: tokens.access_token });
    expect(held[0].claims).toEqual(expect.arrayContaining(['account', 'api:read']));
    expect(held[0].expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await callUpstream(held[0].secret)).toBe(200);
    expect(await listConnections(db, user.id)).toEqual([expect.objectContaining({ provider: 'oidc', refreshable: true })]);
  });

  it('refreshes an expired token at the provider before use, and the new one works', async () => {
    const db = testDb();
    const user = await newUser();
    const tokens = await idp.obtainTokens('bob', 'openid api:read offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...tokens });
    await db.heldToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = idp.refreshGrants();

    const out = await refreshExpiredConnections(db, user.id, { providers: [spec] });
    expect(out).toEqual({ refreshed: ['oidc'], failed: [] });
    expect(idp.refreshGrants()).toBe(before + 1);
    const [held] = await loadHeldTokens(db, `user:${user.id}`);
    expect(held.secret).not.toBe(tokens.access_token);
    expect(held.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await callUpstream(held.secret)).toBe(200);

    // a live token is left alone
    expect(await refreshExpiredConnections(db, user.id, { providers: [spec] })).toEqual({ refreshed: [], failed: [] });
  });

  it('leaves the token expired when the provider refuses the refresh', async () => {
    const db = testDb();
    const user = await newUser();
    const tokens = await idp.obtainTokens('carol', 'openid api:read offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...tokens, refresh_token: 'not-a-refresh-token' });
    await db.heldToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const out = await refreshExpiredConnections(db, user.id, { providers: [spec] });
    expect(out).toEqual({ refreshed: [], failed: ['oidc'] });
    const [held] = await loadHeldTokens(db, `user:${user.id}`);
    expect(held.expiresAt!.getTime()).toBeLessThan(Date.now());
  });

  it('a fake bearer never reaches the upstream API', async () => {
    expect(await callUpstream('forged')).toBe(401);
  });

  it('disconnect deletes the token; a second connect replaces, never duplicates', async () => {
    const db = testDb();
    const user = await newUser();
    const first = await idp.obtainTokens('dan', 'openid offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...first });
    const second = await idp.obtainTokens('dan', 'openid api:read');
    // a re-consent without a refresh token keeps the earlier refresh token
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...second, refresh_token: undefined });
    const conns = await listConnections(db, user.id);
    expect(conns).toHaveLength(1);
    expect(conns[0]).toMatchObject({ refreshable: true });
    expect(conns[0].claims).toContain('api:read');
    expect(await disconnect(db, user.id, 'oidc')).toBe(1);
    expect(await loadHeldTokens(db, `user:${user.id}`)).toEqual([]);
  });
});
