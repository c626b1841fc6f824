import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SkillManifest } from '../skills';
import { buildStatementPayload, signStatement } from './statement';
import { packageDigestOf, verifyStatement } from './verify-statement';
import type { KeySet, KeyStatus } from './key-set';

const manifest = { name: 'demo', tools: [], metadata: { net: { hosts: ['api.example.com'] } }, allowedTools: null } as unknown as SkillManifest;
const tarball = new TextEncoder().encode('pretend this is a .tar.gz');

function key(kid: string) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string };
  return {
    kid,
    privateKey,
    pub: (status: KeyStatus) => ({ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid, alg: 'EdDSA', use: 'sig', status, created: '2026-11-28T00:00:00.000Z' }) as const,
  };
}

const k1 = key('k1');
const payload = buildStatementPayload({
  scope: 'acme',
  name: 'demo',
  version: '1.0.0',
  integrity: packageDigestOf(tarball),
  manifest,
  findings: [{ rule: 'code/eval', severity: 'warning' }],
  issuedAt: new Date('2026-11-28T03:00:00Z'),
});
const jws = signStatement(payload, k1);
const keys = (status: KeyStatus = 'active'): KeySet => ({ keys: [k1.pub(status)] });

describe('statements', () => {
  it('binds the package, the manifest, the permissions and the scan', () => {
    expect(payload.subject).toMatchObject({ name: '@acme/demo', version: '1.0.0', packageDigest: packageDigestOf(tarball) });
    expect(payload.subject.manifestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(payload.permissions.network).toEqual(['api.example.com']);
    expect(payload.scan).toEqual({ verdict: 'warnings', findings: 1, rules: ['code/eval'] });
    expect(payload).not.toHaveProperty('evidence');
  });

  it('verifies with its key and the same bytes', () => {
    const r = verifyStatement(jws, keys(), { name: '@acme/demo', version: '1.0.0', tarball });
    expect(r.ok).toBe(true);
  });

  it('fails when one byte of the package changes', () => {
    const changed = tarball.slice();
    changed[3] ^= 1;
    expect(verifyStatement(jws, keys(), { tarball: changed })).toMatchObject({ ok: false, code: 'statement/digest-mismatch' });
  });

  it('fails with another key of the same id, and with a key not in the set', () => {
    const other = key('k1');
    expect(verifyStatement(jws, { keys: [other.pub('active')] })).toMatchObject({ ok: false, code: 'statement/bad-signature' });
    expect(verifyStatement(jws, { keys: [key('k2').pub('active')] })).toMatchObject({ ok: false, code: 'statement/unknown-key' });
  });

  it('a retired key still verifies; a revoked one does not', () => {
    expect(verifyStatement(jws, keys('retired')).ok).toBe(true);
    expect(verifyStatement(jws, keys('revoked'))).toMatchObject({ ok: false, code: 'statement/key-revoked' });
  });

  it('fails when the payload is edited or the statement is about another version', () => {
    const [h, , s] = jws.split('.');
    const edited = Buffer.from(JSON.stringify({ ...payload, scan: { verdict: 'clean', findings: 0, rules: [] } })).toString('base64url');
    expect(verifyStatement(`${h}.${edited}.${s}`, keys())).toMatchObject({ ok: false, code: 'statement/bad-signature' });
    expect(verifyStatement(jws, keys(), { version: '1.0.1' })).toMatchObject({ ok: false, code: 'statement/wrong-subject' });
    expect(verifyStatement('nope', keys())).toMatchObject({ ok: false, code: 'statement/malformed' });
  });
});
