// The registry's public keys as it serves them at /.well-known/skillyard-keys.json: a JWK
// set with each key's status. A retired key (rotated out) still verifies what it signed; a
// revoked one verifies nothing.
export type KeyStatus = 'active' | 'retired' | 'revoked';

export type PublicSigningKey = {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
  status: KeyStatus;
  created: string;
  retired?: string;
  revoked?: string;
  revokeReason?: string;
};

export type KeySet = { keys: PublicSigningKey[] };

export function isKeySet(x: unknown): x is KeySet {
  const k = (x as { keys?: unknown } | null)?.keys;
  return (
    Array.isArray(k) &&
    k.every((e) => e && typeof e === 'object' && typeof e.kid === 'string' && typeof e.x === 'string' && e.crv === 'Ed25519' && ['active', 'retired', 'revoked'].includes(e.status))
  );
}
