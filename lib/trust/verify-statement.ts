// Checks a statement offline: its signature against a key of the registry's key set (not
// revoked), that it is about the version asked for, and, given the package's bytes, that
// they are the bytes it names. Each failure says why, with a stable code.
import crypto from 'node:crypto';
import type { KeySet, PublicSigningKey } from './key-set';
import { STATEMENT_TYPE, type StatementPayload } from './statement';

export type VerifyFailure =
  'statement/malformed' | 'statement/unknown-key' | 'statement/key-revoked' | 'statement/bad-signature' | 'statement/wrong-subject' | 'statement/digest-mismatch';

export type VerifyResult = { ok: true; payload: StatementPayload; key: PublicSigningKey } | { ok: false; code: VerifyFailure; reason: string; payload?: StatementPayload };

/** npm-style `sha512-<base64>` of bytes, as the statement's packageDigest names them. */
export function packageDigestOf(bytes: Uint8Array): string {
  return `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`;
}

function decode(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

export function verifyStatement(jws: string, keys: KeySet, expect: { name?: string; version?: string; tarball?: Uint8Array } = {}): VerifyResult {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) return { ok: false, code: 'statement/malformed', reason: 'not a compact JWS (three dot-separated parts)' };
  let header: { alg?: string; kid?: string };
  let payload: StatementPayload;
  try {
    header = decode(parts[0]) as typeof header;
    payload = decode(parts[1]) as StatementPayload;
  } catch {
    return { ok: false, code: 'statement/malformed', reason: 'the header or payload is not base64url JSON' };
  }
  if (header.alg !== 'EdDSA' || typeof header.kid !== 'string') return { ok: false, code: 'statement/malformed', reason: 'the header is not {alg: EdDSA, kid}' };
  if (payload?._type !== STATEMENT_TYPE || typeof payload.subject?.packageDigest !== 'string') {
    return { ok: false, code: 'statement/malformed', reason: `the payload is not a ${STATEMENT_TYPE} statement` };
  }
  const key = keys.keys.find((k) => k.kid === header.kid);
  if (!key) return { ok: false, code: 'statement/unknown-key', reason: `signed by key ${header.kid}, which the registry's key set does not list`, payload };
  if (key.status === 'revoked') {
    return {
      ok: false,
      code: 'statement/key-revoked',
      reason: `signed by key ${key.kid}, revoked ${key.revoked ?? ''}${key.revokeReason ? ` (${key.revokeReason})` : ''}`.trim(),
      payload,
    };
  }
  let valid = false;
  try {
    const publicKey = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
    valid = crypto.verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'));
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, code: 'statement/bad-signature', reason: `the signature does not verify with key ${key.kid}`, payload };
  if ((expect.name && payload.subject.name !== expect.name) || (expect.version && payload.subject.version !== expect.version)) {
    return {
      ok: false,
      code: 'statement/wrong-subject',
      reason: `the statement is about ${payload.subject.name}@${payload.subject.version}, not ${expect.name ?? payload.subject.name}@${expect.version ?? payload.subject.version}`,
      payload,
    };
  }
  if (expect.tarball) {
    const got = packageDigestOf(expect.tarball);
    if (got !== payload.subject.packageDigest) {
      return {
        ok: false,
        code: 'statement/digest-mismatch',
        reason: `the package's digest ${got.slice(0, 24)}… is not the signed ${payload.subject.packageDigest.slice(0, 24)}…`,
        payload,
      };
    }
  }
  return { ok: true, payload, key };
}

/** The payload of a statement without checking it (for display after a failed check). */
export function readStatementPayload(jws: string): StatementPayload | null {
  try {
    return decode(jws.split('.')[1]) as StatementPayload;
  } catch {
    return null;
  }
}
