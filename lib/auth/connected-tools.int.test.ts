// The unlock end to end below the browser: a gated bundled tool (skills/connected-api) is
// refused until the user connects, then calls a real upstream with the real token, gets a
// refreshed token after expiry, and is refused again after disconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { startTestOidc, type TestOidc } from '../../test/oidc-server';
import { invokeRegistryTool } from '../server/invoke-registry-tool';
import { seedBundledSkills } from '../registry/seed-bundled-skills';
import { createServerContext, type ServerContext } from '../server';
import { loadSkillVersion, parseSkillRef } from '../registry/load-skill-version';
import { createToolManager } from '../runtime';
import { disconnect, storeConnectionTokens } from './oauth-connections';

let idp: TestOidc;
let server: ServerContext;
const saved = { ...process.env };

beforeAll(async () => {
  idp = await startTestOidc({ redirectUris: ['http://127.0.0.1:9/api/auth/callback/oidc'] });
  Object.assign(process.env, {
    SKILLYARD_OIDC_ISSUER: idp.issuer,
    SKILLYARD_OIDC_ID: idp.clientId,
    SKILLYARD_OIDC_SECRET: idp.clientSecret,
    // the demo API is on loopback, which the net capability refuses unless allowed
    SKILLYARD_NET_ALLOW: '127.0.0.1/32',
  });
  // after the environment: the server reads SKILLYARD_NET_ALLOW when it is created
  server = createServerContext({ db: testDb() });
  await seedBundledSkills(testDb());
});
afterAll(async () => {
  process.env = saved;
  await server?.close();
  await idp?.close();
});

const invoke = (userId: string | null) => invokeRegistryTool(server, { tool: 'api-whoami', skill: '@skillyard/connected-api', args: { base_url: idp.upstreamUrl }, userId });

describe('a token-gated tool unlocked by a connection', () => {
  it('is refused without the connection, works with it, refreshes, and locks again on disconnect', async () => {
    const db = testDb();
    const user = await db.user.create({ data: { name: 'erin' } });
    await expect(invoke(null)).rejects.toMatchObject({ code: 'token/missing' });
    await expect(invoke(user.id)).rejects.toMatchObject({ code: 'token/missing' });

    // connected without the scope the tool needs: still locked
    const narrow = await idp.obtainTokens('erin', 'openid offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...narrow });
    await expect(invoke(user.id)).rejects.toMatchObject({ code: 'token/missing' });

    const tokens = await idp.obtainTokens('erin', 'openid api:read offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...tokens });
    const out = await invoke(user.id);
    expect(out.result).toMatchObject({ status: 200, subject: 'erin' });
    const seen = idp.upstreamCalls.at(-1)!;
    expect(seen).toMatchObject({ ok: true, token: tokens.access_token });

    // someone else still cannot use it
    const other = await db.user.create({ data: { name: 'frank' } });
    await expect(invoke(other.id)).rejects.toMatchObject({ code: 'token/missing' });

    await db.heldToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refreshes = idp.refreshGrants();
    const again = await invoke(user.id);
    expect(again.result).toMatchObject({ status: 200, subject: 'erin' });
    expect(idp.refreshGrants()).toBe(refreshes + 1);
    const fresh = idp.upstreamCalls.at(-1)!;
    expect(fresh.ok).toBe(true);
    expect(fresh.token).not.toBe(tokens.access_token);

    await disconnect(db, user.id, 'oidc');
    await expect(invoke(user.id)).rejects.toMatchObject({ code: 'token/missing' });
  });
});

describe("a long run past its token's lifetime", () => {
  it('gets the connection refreshed when the token it holds expires mid-run', async () => {
    const db = testDb();
    const user = await db.user.create({ data: { name: 'gina' } });
    const tokens = await idp.obtainTokens('gina', 'openid api:read offline_access');
    await storeConnectionTokens(db, user.id, { provider: 'oidc', ...tokens });
    // valid for just over the minute the kernel looks ahead: not refreshed when the run starts
    await db.heldToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() + 61_500) } });
    const skills = [await loadSkillVersion(db, parseSkillRef('@skillyard/connected-api'), { userId: user.id })];
    const manager = createToolManager({ skills, ...(await server.runtimeFor({ userId: user.id })) });
    const call = () => manager.invoke('api-whoami', { base_url: idp.upstreamUrl });
    const refreshes = idp.refreshGrants();
    expect(await call()).toMatchObject({ status: 200, subject: 'gina' });
    expect(idp.upstreamCalls.at(-1)!.token).toBe(tokens.access_token);
    expect(idp.refreshGrants()).toBe(refreshes);
    // time passes in the run: the held token is now within a minute of expiry (and expired at the store)
    await new Promise((r) => setTimeout(r, 2_000));
    await db.heldToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await call()).toMatchObject({ status: 200, subject: 'gina' });
    expect(idp.refreshGrants()).toBe(refreshes + 1);
    const fresh = idp.upstreamCalls.at(-1)!;
    expect(fresh.ok).toBe(true);
    expect(fresh.token).not.toBe(tokens.access_token);
  });
});
