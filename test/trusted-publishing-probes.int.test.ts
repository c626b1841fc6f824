// Trusted publishing as a stranger probes it (security review): the exchange must not
// tell whether a private skill exists or has a publisher (any refusal for a private skill
// reads as one for a skill that does not exist), and one CI token buys one publish token
// (a token seen in a log or intercepted cannot be exchanged again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDb } from './db';
import { readUpload } from '../lib/registry/read-upload';
import { publishVersion } from '../lib/registry/publish-version';
import { addTrustedPublisher, exchangeCiToken, oidcSettings } from '../lib/trusted-publishing';
import { startTestCiIssuer, type CiClaims, type TestCiIssuer } from './ci-oidc-issuer';
import * as publishRoute from '../app/api/v1/skills/route';

const AUDIENCE = 'https://registry.skillyard.test';
const enc = new TextEncoder();
const uniq = () => Math.random().toString(36).slice(2, 8);
let ci: TestCiIssuer;
let scope = '';

const code = (name: string) =>
  enc.encode(`export const frontmatter = { name: '${name}', description: 'CI probe', metadata: { version: '1.0.0' } };\nexport default async () => 'hi';\n`);
const claims = (over: Partial<CiClaims> = {}): CiClaims => ({
  repository: 'acme/secret',
  workflow_ref: 'acme/secret/.github/workflows/release.yml@refs/heads/main',
  sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  ref: 'refs/heads/main',
  run_id: '77',
  ...over,
});
const settings = () => ({ ...oidcSettings({ SKILLYARD_OIDC_ALLOW_PRIVATE: '1', SKILLYARD_OIDC_AUDIENCE: AUDIENCE }), githubIssuers: [ci.issuer] });

async function refusal(token: string, name: string): Promise<{ code: string; message: string }> {
  try {
    await exchangeCiToken(testDb(), { token, scope, name }, settings());
  } catch (err) {
    const e = err as { code: string; message: string };
    return { code: e.code, message: e.message.replaceAll(`@${scope}/${name}`, '@S/N') };
  }
  throw new Error('the exchange was not refused');
}

beforeAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl();
  ci = await startTestCiIssuer();
  const db = testDb();
  scope = `ci-probe-${uniq()}`;
  const user = await db.user.create({ data: { handle: scope, name: 'CI probe owner' } });
  await db.scope.create({ data: { name: scope, kind: 'user', userId: user.id } });
  for (const [name, visibility] of [
    ['hidden-ci', 'private'],
    ['open-ci', 'public'],
  ] as const) {
    const pkg = readUpload({ kind: 'files', files: [{ path: `${name}.skill.js`, content: code(name) }] });
    await publishVersion(db, { scope, manifest: pkg.manifest!, files: pkg.files, version: '1.0.0', visibility });
    await addTrustedPublisher(db, { scope, name }, user.id, { issuer: ci.issuer, claims: { repository: 'acme/secret' } }, settings());
  }
});
afterAll(async () => {
  await ci.close();
});

describe('trusted publishing probes', () => {
  it('answers a stranger about a private skill exactly as about one that does not exist', async () => {
    const stranger = await ci.issueToken(claims({ repository: 'mallory/probe' }), AUDIENCE);
    const missing = await refusal(stranger, 'no-such-skill');
    expect(missing.code).toBe('publish/oidc-no-publisher');
    // a validly signed token from another repository, and a forged one
    expect(await refusal(stranger, 'hidden-ci')).toEqual(missing);
    const forged = (await ci.issueToken(claims(), AUDIENCE)).replace(/\.[^.]+$/, '.AAAA');
    expect(await refusal(forged, 'hidden-ci')).toEqual(await refusal(forged, 'no-such-skill'));
    // a public skill's publisher still says which claim differs (its owner debugs CI with it)
    expect((await refusal(stranger, 'open-ci')).message).toContain('"repository"');
  });

  it('exchanges one CI token once', async () => {
    const token = await ci.issueToken(claims(), AUDIENCE);
    const first = await exchangeCiToken(testDb(), { token, scope, name: 'open-ci' }, settings());
    expect(first.token).toBeTruthy();
    await expect(exchangeCiToken(testDb(), { token, scope, name: 'open-ci' }, settings())).rejects.toMatchObject({ code: 'publish/oidc-invalid-token' });
    // a new token from the same job still works
    expect((await exchangeCiToken(testDb(), { token: await ci.issueToken(claims({ run_id: '78' }), AUDIENCE), scope, name: 'open-ci' }, settings())).token).toBeTruthy();
  });

  it("publishes versions only: the CI token cannot change the skill's visibility", async () => {
    const { token } = await exchangeCiToken(testDb(), { token: await ci.issueToken(claims({ run_id: '79' }), AUDIENCE), scope, name: 'hidden-ci' }, settings());
    const res = await publishRoute.POST(
      new Request('http://127.0.0.1/api/v1/skills?filename=hidden-ci.skill.js&version=1.1.0&visibility=public', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.41' },
        body: code('hidden-ci'),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(403);
    const skill = await testDb().skill.findUnique({
      where: { scopeName_name: { scopeName: scope, name: 'hidden-ci' } },
      select: { visibility: true, versions: { select: { version: true } } },
    });
    expect(skill).toMatchObject({ visibility: 'private', versions: [{ version: '1.0.0' }] });
  });
});
