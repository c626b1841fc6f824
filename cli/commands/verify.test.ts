// `skillyard verify` fully offline: a key set, a statement and a tarball as files.
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SkillManifest } from '../../lib/skills';
import { buildStatementPayload, packageDigestOf, signStatement } from '../../lib/trust';
import { main } from '../main';

function capture() {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  return { out: () => out, err: () => err };
}

describe('skillyard verify (offline)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-verify-'));
  const file = (name: string, data: string | Uint8Array) => (writeFileSync(path.join(dir, name), data), path.join(dir, name));
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tarball = crypto.randomBytes(512);
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const x = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
  const jwk = (status: string) => ({ kty: 'OKP', crv: 'Ed25519', x, kid: 'k1', alg: 'EdDSA', use: 'sig', status, created: '2026-11-28T00:00:00.000Z' });
  const manifest = { tools: [], metadata: { hosts: 'api.example.com' }, allowedTools: null } as unknown as SkillManifest;
  const jws = signStatement(
    buildStatementPayload({ scope: 'acme', name: 'demo', version: '1.0.0', integrity: packageDigestOf(tarball), manifest, findings: [], issuedAt: new Date() }),
    { kid: 'k1', privateKey },
  );
  const args = (keys: string, tgz: Uint8Array = tarball, ref = '@acme/demo@1.0.0') => [
    'verify',
    ref,
    '--registry',
    'http://127.0.0.1:9',
    '--keys',
    file(`keys-${keys}.json`, JSON.stringify({ keys: [jwk(keys)] })),
    '--statement',
    file('st.jws', jws),
    '--tarball',
    file('p.tgz', tgz),
  ];

  it('verifies and prints what the statement vouches for', async () => {
    const io = capture();
    expect(await main(args('active'))).toBe(0);
    expect(io.out()).toContain('verified @acme/demo@1.0.0');
    expect(io.out()).toContain('network access to api.example.com');
  });

  it('fails on one changed byte, a revoked key, another version; 2 for a reference without a version', async () => {
    const changed = Uint8Array.from(tarball);
    changed[0] ^= 1;
    let io = capture();
    expect(await main(args('active', changed))).toBe(1);
    expect(io.err()).toContain('statement/digest-mismatch');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(args('revoked'))).toBe(1);
    expect(io.err()).toContain('statement/key-revoked');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(args('retired', tarball, '@acme/demo@1.0.1'))).toBe(1);
    expect(io.err()).toContain('statement/wrong-subject');
    vi.restoreAllMocks();
    capture();
    expect(await main(['verify', '@acme/demo'])).toBe(2);
  });
});
