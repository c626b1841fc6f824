// Trusted publishing end to end on the real routes: a real OIDC issuer on localhost
// (oidc-provider) issues tokens shaped like GitHub Actions'; the registry verifies them
// against the issuer's keys found by discovery, refuses the wrong repository, the wrong
// audience and a private issuer, and the right token publishes that one skill, with its
// provenance on the version (page, API and statement).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { createApiToken } from '../lib/auth/api-tokens';
import { readUpload } from '../lib/registry/read-upload';
import { publishVersion } from '../lib/registry/publish-version';
import { getVersionStatement } from '../lib/registry/version-statement';
import { getVersionTrust } from '../lib/registry/get-version-trust';
import { addTrustedPublisher, exchangeCiToken, oidcSettings } from '../lib/trusted-publishing';
import { startTestCiIssuer, type CiClaims, type TestCiIssuer } from './ci-oidc-issuer';
import * as exchangeRoute from '../app/api/v1/publish/oidc/token/route';
import * as publishRoute from '../app/api/v1/skills/route';
import * as yankRoute from '../app/api/v1/skills/[scope]/[name]/[version]/yank/route';

const AUDIENCE = 'https://registry.skillyard.test';
const enc = new TextEncoder();
const uniq = () => Math.random().toString(36).slice(2, 8);
let ci: TestCiIssuer;
let scope = '';
let ownerToken = '';
const ENV = { SKILLYARD_OIDC_ALLOW_PRIVATE: '1', SKILLYARD_OIDC_AUDIENCE: AUDIENCE } as Record<string, string>;

const code = (name: string, version: string) =>
  enc.encode(`export const frontmatter = { name: '${name}', description: 'Published from CI', metadata: { version: '${version}' } };\nexport default async () => 'hi';\n`);

const claims = (over: Partial<CiClaims> = {}): CiClaims => ({
  repository: 'acme/skills',
  workflow_ref: 'acme/skills/.github/workflows/release.yml@refs/heads/main',
  sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  ref: 'refs/heads/main',
  run_id: '4242',
  ...over,
});

async function exchange(token: string, skill: string) {
  const res = await exchangeRoute.POST(
    new Request('http://127.0.0.1/api/v1/publish/oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.30' },
      body: JSON.stringify({ token, skill }),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: (await res.json()) as { token?: string; error?: { code: string; message: string } } };
}

async function publish(bearer: string, name: string, version: string) {
  const res = await publishRoute.POST(
    new Request(`http://127.0.0.1/api/v1/skills?filename=${name}.skill.js`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': '198.51.100.31' },
      body: code(name, version),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: (await res.json()) as { version?: string; provenance?: { repository: string }; error?: { code: string; message: string } } };
}

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  ci = await startTestCiIssuer();
  Object.assign(process.env, ENV, { SKILLYARD_OIDC_GITHUB_ISSUERS: ci.issuer });
  const db = testDb();
  scope = `ci-owner-${uniq()}`;
  const user = await db.user.create({ data: { handle: scope, name: 'CI owner' } });
  await db.scope.create({ data: { name: scope, kind: 'user', userId: user.id } });
  ownerToken = (await createApiToken(db, { userId: user.id, name: 'owner', scopes: ['publish'] })).token;
  for (const name of ['from-ci', 'other-skill']) {
    const pkg = readUpload({ kind: 'files', files: [{ path: `${name}.skill.js`, content: code(name, '1.0.0') }] });
    await publishVersion(db, { scope, manifest: pkg.manifest!, files: pkg.files, version: '1.0.0' });
  }
  await addTrustedPublisher(db, { scope, name: 'from-ci' }, user.id, { issuer: ci.issuer, claims: { repository: 'acme/skills', workflow_ref: claims().workflow_ref } });
});
afterAll(async () => {
  for (const k of [...Object.keys(ENV), 'SKILLYARD_OIDC_GITHUB_ISSUERS']) delete process.env[k];
  await ci.close();
});

describe('trusted publishing', () => {
  it('refuses a CI token whose repository claim differs, and one for another audience', async () => {
    const wrongRepo = await exchange(await ci.issueToken(claims({ repository: 'mallory/skills' }), AUDIENCE), `@${scope}/from-ci`);
    expect(wrongRepo.status).toBe(403);
    expect(wrongRepo.body.error).toMatchObject({ code: 'publish/oidc-no-publisher', message: expect.stringContaining('"repository"') });
    const wrongAud = await exchange(await ci.issueToken(claims(), 'https://elsewhere.test'), `@${scope}/from-ci`);
    expect(wrongAud.status).toBe(401);
    expect(wrongAud.body.error).toMatchObject({ code: 'publish/oidc-invalid-token', message: expect.stringContaining('"aud"') });
    const forged = (await ci.issueToken(claims(), AUDIENCE)).replace(/\.[^.]+$/, '.AAAA');
    expect((await exchange(forged, `@${scope}/from-ci`)).body.error?.code).toBe('publish/oidc-invalid-token');
    // a skill with no publisher for this issuer: the same refusal as one that does not exist
    expect((await exchange(await ci.issueToken(claims(), AUDIENCE), `@${scope}/other-skill`)).body.error?.code).toBe('publish/oidc-no-publisher');
  });

  it('publishes with the right token, recording the provenance, and nothing else', async () => {
    const got = await exchange(await ci.issueToken(claims(), AUDIENCE), `@${scope}/from-ci`);
    expect(got.status).toBe(201);
    const token = got.body.token!;
    const published = await publish(token, 'from-ci', '1.1.0');
    expect(published.status).toBe(201);
    expect(published.body.provenance).toMatchObject({ repository: 'acme/skills' });

    const trust = await getVersionTrust(testDb(), { scope, name: 'from-ci', version: '1.1.0' }, null);
    expect(trust.provenance).toEqual({
      issuer: ci.issuer,
      repository: 'acme/skills',
      commit: claims().sha,
      workflow: claims().workflow_ref,
      ref: 'refs/heads/main',
      sourceUrl: `https://github.com/acme/skills/commit/${claims().sha}`,
      runUrl: 'https://github.com/acme/skills/actions/runs/4242',
    });
    const statement = await getVersionStatement(testDb(), { scope, name: 'from-ci', version: '1.1.0' }, null);
    expect(statement.payload.provenance).toMatchObject({ repository: 'acme/skills', commit: claims().sha });

    // that one skill only, and no other action
    expect((await publish(token, 'other-skill', '1.1.0')).body.error?.code).toBe('publish/not-trusted-for-skill');
    const yank = await yankRoute.POST(
      new Request(`http://127.0.0.1/api/v1/skills/${scope}/from-ci/1.1.0/yank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.31' },
        body: '{}',
      }),
      { params: Promise.resolve({ scope, name: 'from-ci', version: '1.1.0' }) },
    );
    expect(yank.status).toBe(403);
    // the owner's own token publishes as before, with no provenance
    const own = await publish(ownerToken, 'from-ci', '1.2.0');
    expect(own.status).toBe(201);
    expect((await getVersionTrust(testDb(), { scope, name: 'from-ci', version: '1.2.0' }, null)).provenance).toBeNull();
  });

  it('never fetches a private or loopback issuer unless the development setting allows it', async () => {
    const strict = { ...oidcSettings({ SKILLYARD_OIDC_AUDIENCE: AUDIENCE }), githubIssuers: [] };
    const token = await ci.issueToken(claims(), AUDIENCE);
    // the configured issuer is http://127.0.0.1:…: refused before any request
    await expect(exchangeCiToken(testDb(), { token, scope, name: 'from-ci' }, strict)).rejects.toMatchObject({ code: 'input/invalid' });
    const user = await testDb().scope.findUnique({ where: { name: scope }, select: { userId: true } });
    await expect(
      addTrustedPublisher(testDb(), { scope, name: 'other-skill' }, user!.userId!, { issuer: 'https://127.0.0.1:9/', claims: { repository: 'x/y' } }, strict),
    ).resolves.toBeTruthy();
    // an https issuer on a loopback address: its discovery is never fetched
    const loop = await ci.issueToken(claims(), AUDIENCE);
    const forged = `${Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url')}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(loop.split('.')[1], 'base64url').toString()), iss: 'https://127.0.0.1:9' })).toString('base64url')}.AAAA`;
    await expect(exchangeCiToken(testDb(), { token: forged, scope, name: 'other-skill' }, strict)).rejects.toMatchObject({
      code: 'publish/oidc-issuer-unreachable',
      message: expect.stringContaining('loopback'),
    });
  });
});
