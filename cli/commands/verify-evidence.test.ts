// `skillyard verify` on a statement that carries publish-time evidence and provenance
// (issue 30), offline: the evidence file must be the signed one, and --repository and
// --workflow must be the signed provenance's.
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SkillManifest } from '../../lib/skills';
import { buildStatementPayload, packageDigestOf, signStatement } from '../../lib/trust';
import { statementEvidence, statementProvenance } from '../../lib/evidence/statement-parts';
import type { Evidence } from '../../lib/evidence/types';
import { main } from '../main';

function capture() {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  return { out: () => out, err: () => err };
}

const evidence: Evidence = {
  version: 1,
  ranAt: '2026-11-28T04:00:00.000Z',
  durationMs: 12,
  limits: { wallMs: 5000, memoryMb: 64 },
  flagged: 1,
  tools: [
    {
      tool: 'peek',
      handler: 'ts',
      examples: [
        {
          label: 'example 1',
          source: 'example',
          arguments: { city: 'Rome' },
          expected: { ok: true },
          outcome: 'passed',
          result: { ok: true },
          durationMs: 3,
          attempts: [
            {
              kind: 'net',
              method: 'net_fetch',
              target: 'beacon.example',
              declared: false,
              refused: true,
              where: { file: 'src/peek.ts', line: 3, text: "fetch('https://beacon.example')" },
            },
          ],
        },
      ],
    },
  ],
};
const provenance = {
  issuer: 'https://token.actions.githubusercontent.com',
  repository: 'acme/demo',
  commit: 'c0ffee00c0ffee00',
  workflow: 'acme/demo/.github/workflows/release.yml@refs/heads/main',
  ref: 'refs/heads/main',
  sourceUrl: 'https://github.com/acme/demo/commit/c0ffee00c0ffee00',
  runUrl: null,
};

describe('skillyard verify: evidence and provenance', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillyard-verify-ev-'));
  const file = (name: string, data: string | Uint8Array) => (writeFileSync(path.join(dir, name), data), path.join(dir, name));
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tarball = crypto.randomBytes(256);
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const x = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
  const keys = file(
    'keys.json',
    JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid: 'k1', alg: 'EdDSA', use: 'sig', status: 'active', created: '2026-11-28T00:00:00.000Z' }] }),
  );
  const manifest = { tools: [], metadata: {}, allowedTools: null } as unknown as SkillManifest;
  const jws = signStatement(
    buildStatementPayload({
      scope: 'acme',
      name: 'demo',
      version: '1.0.0',
      integrity: packageDigestOf(tarball),
      manifest,
      findings: [],
      issuedAt: new Date(),
      evidence: statementEvidence(evidence),
      provenance: statementProvenance(provenance),
    }),
    { kid: 'k1', privateKey },
  );
  const base = (ev: unknown, ...more: string[]) => [
    'verify',
    '@acme/demo@1.0.0',
    '--registry',
    'http://127.0.0.1:9',
    '--keys',
    keys,
    '--statement',
    file('st.jws', jws),
    '--tarball',
    file('p.tgz', tarball),
    '--evidence',
    file('ev.json', JSON.stringify({ evidence: { status: 'done', result: ev }, provenance })),
    ...more,
  ];

  it('prints the signed evidence and provenance and checks the served evidence against its digest', async () => {
    const io = capture();
    expect(await main(base(evidence, '--repository', 'acme/demo'))).toBe(0);
    expect(io.out()).toContain('evidence: 1 passed, 0 failed');
    expect(io.out()).toContain('flagged: peek net beacon.example at src/peek.ts:3');
    expect(io.out()).toContain('evidence: the served evidence is the signed one');
    expect(io.out()).toContain('provenance: acme/demo@c0ffee00c0ff by acme/demo/.github/workflows/release.yml@refs/heads/main');
  });

  it('fails when the evidence differs from the signed one, or the repository is another', async () => {
    const forged = structuredClone(evidence);
    forged.tools[0].examples[0].attempts = [];
    let io = capture();
    expect(await main(base(forged))).toBe(1);
    expect(io.err()).toContain('statement/evidence-mismatch');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(base(evidence, '--repository', 'mallory/demo'))).toBe(1);
    expect(io.err()).toContain('statement/provenance-mismatch');
    expect(io.err()).toContain('repository is acme/demo, not mallory/demo');
  });
});
