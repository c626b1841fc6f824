// Issue 29 on the real Postgres: permissions and their diff per version, signed statements
// (verify, one changed byte, another key, rotation, revocation) and reviewed findings with
// their audit row.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db';
import { createTeam } from '../teams';
import { verifyStatement } from '../trust';
import { downloadVersion } from './download-version';
import { getVersionFindings } from './explained-findings';
import { readAll } from './package-store';
import { publishVersion } from './publish-version';
import { readUpload } from './read-upload';
import { reviewFinding } from './review-finding';
import { publicKeySet, revokeSigningKey, rotateSigningKey } from './signing-keys';
import { diffVersionPermissions, getVersionPermissions } from './version-permissions';
import { getVersionStatement } from './version-statement';
import { userPrincipal } from '../principal';

const enc = new TextEncoder();
const uniq = () => crypto.randomBytes(4).toString('hex');
const as = (userId: string) => ({ principal: userPrincipal(userId), ip: '203.0.113.29' });

/** A code skill with one tool; `hosts` adds the net capability and those hosts. */
function pkg(name: string, hosts: string[] = [], extra = '') {
  const meta = hosts.length ? `metadata:\n  allowed-hosts: ${hosts.join(' ')}\n` : '';
  const files = [
    { path: `${name}/SKILL.md`, content: enc.encode(`---\nname: ${name}\ndescription: Trust test skill ${name}.\n${meta}---\n\nCount words.\n`) },
    {
      path: `${name}/tools.json`,
      content: enc.encode(JSON.stringify([{ name: 'count', description: 'count words', capabilities: hosts.length ? ['net'] : [], handler: 'count.js' }])),
    },
    { path: `${name}/count.js`, content: enc.encode(`export default function count({ text }) {\n  return { words: String(text).split(/\\s+/).length };\n}\n${extra}`) },
  ];
  const read = readUpload({ kind: 'files', files });
  if (!read.manifest) throw new Error(JSON.stringify(read.diagnostics));
  return { manifest: read.manifest, files: read.files };
}

let owner = '';
let outsider = '';
let scope = '';

async function user() {
  const handle = `tr${uniq()}`;
  const u = await testDb().user.create({ data: { handle, name: handle } });
  await testDb().scope.create({ data: { name: handle, kind: 'user', userId: u.id } });
  return u.id;
}

async function tarballOf(name: string, version: string): Promise<Uint8Array> {
  return readAll((await downloadVersion(testDb(), { scope, name, spec: version }, { userId: owner })).open());
}

beforeAll(async () => {
  owner = await user();
  outsider = await user();
  scope = (await createTeam(testDb(), as(owner), { slug: `trust-${uniq()}` })).slug;
}, 60_000);

describe('permissions per version', () => {
  it('a version that adds a network host shows it in its permissions and in the diff', async () => {
    const name = `net-${uniq()}`;
    await publishVersion(testDb(), { scope, ...pkg(name), version: '1.2.0', publishedById: owner });
    await publishVersion(testDb(), { scope, ...pkg(name, ['api.example.com']), version: '1.3.0', publishedById: owner });
    const p = await getVersionPermissions(testDb(), { scope, name, version: '1.3.0' }, null);
    expect(p.permissions).toMatchObject({ capabilities: ['net'], network: ['api.example.com'] });
    expect(p.facts.map((f) => f.words)).toEqual(['network access to api.example.com']);
    const d = await diffVersionPermissions(testDb(), { scope, name, from: '1.2.0', to: 'latest' }, null);
    expect(d).toMatchObject({ from: '1.2.0', to: '1.3.0', widens: true, sentences: ['1.3.0 adds network access to api.example.com'] });
    const back = await diffVersionPermissions(testDb(), { scope, name, from: '1.3.0', to: '1.2.0' }, null);
    expect(back).toMatchObject({ widens: false, sentences: ['1.2.0 drops network access to api.example.com'] });
    await expect(diffVersionPermissions(testDb(), { scope, name, from: '9.9.9', to: '1.2.0' }, null)).rejects.toMatchObject({ code: 'skill/version-not-found' });
  });
});

describe('signed statements', () => {
  it('verify against the key set; fail after one changed byte and with another key', async () => {
    const name = `sig-${uniq()}`;
    await publishVersion(testDb(), { scope, ...pkg(name, ['api.example.com']), version: '1.0.0', publishedById: owner });
    const st = await getVersionStatement(testDb(), { scope, name, version: '1.0.0' }, null);
    expect(st.payload.subject).toMatchObject({ name: `@${scope}/${name}`, version: '1.0.0' });
    expect(st.payload.permissions.network).toEqual(['api.example.com']);
    expect(st.payload.scan.verdict).toBe('clean');
    // the same statement on the next ask (not signed again)
    expect((await getVersionStatement(testDb(), { scope, name, version: 'latest' }, null)).jws).toBe(st.jws);

    const keys = await publicKeySet(testDb());
    const bytes = await tarballOf(name, '1.0.0');
    expect(verifyStatement(st.jws, keys, { name: `@${scope}/${name}`, version: '1.0.0', tarball: bytes })).toMatchObject({ ok: true });
    const changed = bytes.slice();
    changed[changed.length - 1] ^= 0xff;
    expect(verifyStatement(st.jws, keys, { tarball: changed })).toMatchObject({ ok: false, code: 'statement/digest-mismatch' });
    const other = crypto.generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as { x: string };
    const forged = { keys: keys.keys.map((k) => (k.kid === st.keyId ? { ...k, x: other.x } : k)) };
    expect(verifyStatement(st.jws, forged, { tarball: bytes })).toMatchObject({ ok: false, code: 'statement/bad-signature' });
  });

  it('after a rotation old statements verify until their key is revoked; then the version is signed again', async () => {
    const name = `rot-${uniq()}`;
    await publishVersion(testDb(), { scope, ...pkg(name), version: '1.0.0', publishedById: owner });
    // a key of this test's own, so revoking it touches no other test's statements
    const mine = await rotateSigningKey(testDb());
    const before = await getVersionStatement(testDb(), { scope, name, version: '1.0.0' }, null);
    expect(before.keyId).toBe(mine.kid);
    const next = await rotateSigningKey(testDb());
    expect(next.retired).toContain(mine.kid);
    const bytes = await tarballOf(name, '1.0.0');
    const afterRotation = await publicKeySet(testDb());
    expect(afterRotation.keys.find((k) => k.kid === mine.kid)?.status).toBe('retired');
    expect(verifyStatement(before.jws, afterRotation, { tarball: bytes })).toMatchObject({ ok: true });

    await revokeSigningKey(testDb(), mine.kid, 'test: key exposed');
    const afterRevoke = await publicKeySet(testDb());
    expect(afterRevoke.keys.find((k) => k.kid === mine.kid)).toMatchObject({ status: 'revoked', revokeReason: 'test: key exposed' });
    expect(verifyStatement(before.jws, afterRevoke, { tarball: bytes })).toMatchObject({ ok: false, code: 'statement/key-revoked' });
    const resigned = await getVersionStatement(testDb(), { scope, name, version: '1.0.0' }, null);
    expect(resigned.keyId).not.toBe(mine.kid);
    expect(verifyStatement(resigned.jws, afterRevoke, { tarball: bytes })).toMatchObject({ ok: true });
    await expect(revokeSigningKey(testDb(), 'sy-nope', 'x')).rejects.toMatchObject({ code: 'input/invalid' });
  });

  it('the private keys are stored sealed, never as plain PKCS#8', async () => {
    const rows = await testDb().signingKey.findMany({ take: 5, select: { privateKeySealed: true } });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.privateKeySealed).toMatch(/^v1\./);
  });
});

describe('reviewed findings', () => {
  it('explain themselves; the owner marks one reviewed with a reason, kept in the audit log', async () => {
    const name = `scan-${uniq()}`;
    await publishVersion(testDb(), { scope, ...pkg(name, [], 'const run = (s) => eval(s);\n'), version: '1.0.0', publishedById: owner });
    const { findings } = await getVersionFindings(testDb(), { scope, name, version: '1.0.0' }, null);
    const f = findings.find((x) => x.rule === 'code/eval')!;
    expect(f).toMatchObject({ file: 'count.js', match: 'eval(', review: null });
    expect(f.why).toMatch(/cannot be read before it runs/);
    expect(f.before?.length).toBeGreaterThan(0);

    const key = { rule: f.rule, file: f.file, line: f.line };
    await expect(reviewFinding(testDb(), { scope, name, version: '1.0.0', ...key, reason: 'my own code', userId: outsider }, as(outsider))).rejects.toMatchObject({
      status: 403,
    });
    await expect(reviewFinding(testDb(), { scope, name, version: '1.0.0', ...key, line: 999, reason: 'not there', userId: owner }, as(owner))).rejects.toMatchObject({
      code: 'skill/finding-not-found',
    });
    expect(await testDb().findingReview.count({ where: { version: { skill: { scopeName: scope, name } } } })).toBe(0);

    const reason = 'eval only runs the arithmetic the tool builds itself';
    await reviewFinding(testDb(), { scope, name, version: '1.0.0', ...key, reason, userId: owner }, as(owner));
    const after = await getVersionFindings(testDb(), { scope, name, version: '1.0.0' }, null);
    expect(after.findings.find((x) => x.rule === 'code/eval')?.review).toMatchObject({ reason, reviewedBy: expect.stringMatching(/^tr/) });
    const team = await testDb().team.findUniqueOrThrow({ where: { slug: scope }, select: { id: true } });
    const audit = await testDb().auditEvent.findMany({ where: { teamId: team.id, action: 'skill.review-finding' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: owner, target: `@${scope}/${name}@1.0.0`, data: { ...key, reason } });
  });
});
