// The registry's statement-signing keys (Ed25519), kept in Postgres with the private half
// sealed by SKILLYARD_SECRET_KEY. One key is active at a time; rotating retires it (what it
// signed still verifies) and makes a new one; revoking makes everything it signed fail
// verification, and versions get a fresh statement from the active key on next request.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { openSecret, sealSecret } from '../auth';
import type { KeySet, PublicSigningKey } from '../trust';

export type ActiveSigningKey = { kid: string; privateKey: crypto.KeyObject };

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Serializes key changes across instances (two first statements must not make two active keys). */
const lockKeys = (tx: Tx) => tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('skillyard:signing-keys'))`);

async function createKey(tx: Tx): Promise<ActiveSigningKey> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const kid = `sy-${day}-${crypto.randomBytes(4).toString('hex')}`;
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  await tx.signingKey.create({ data: { id: kid, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x! }, privateKeySealed: sealSecret(pkcs8) } });
  return { kid, privateKey };
}

function unseal(row: { id: string; privateKeySealed: string }): ActiveSigningKey {
  const der = Buffer.from(openSecret(row.privateKeySealed), 'base64');
  return { kid: row.id, privateKey: crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
}

const ACTIVE = { retiredAt: null, revokedAt: null } as const;

/** The key that signs now, made on first use. */
export async function activeSigningKey(db: Db): Promise<ActiveSigningKey> {
  const row = await db.signingKey.findFirst({ where: ACTIVE, orderBy: { createdAt: 'desc' } });
  if (row) return unseal(row);
  return db.$transaction(async (tx) => {
    await lockKeys(tx);
    const again = await tx.signingKey.findFirst({ where: ACTIVE, orderBy: { createdAt: 'desc' } });
    return again ? unseal(again) : createKey(tx);
  });
}

/** Retires the active key (it keeps verifying) and makes a new one; returns the new key id. */
export async function rotateSigningKey(db: Db): Promise<{ kid: string; retired: string[] }> {
  return db.$transaction(async (tx) => {
    await lockKeys(tx);
    const current = await tx.signingKey.findMany({ where: ACTIVE, select: { id: true } });
    await tx.signingKey.updateMany({ where: ACTIVE, data: { retiredAt: new Date() } });
    const next = await createKey(tx);
    return { kid: next.kid, retired: current.map((k) => k.id) };
  });
}

/** Revokes a key: statements it signed fail `skillyard verify` from now on. */
export async function revokeSigningKey(db: Db, kid: string, reason: string): Promise<void> {
  const out = await db.signingKey.updateMany({ where: { id: kid, revokedAt: null }, data: { revokedAt: new Date(), revokeReason: reason.slice(0, 500) } });
  if (out.count === 0) {
    const exists = await db.signingKey.count({ where: { id: kid } });
    if (!exists) throw new AppError('input/invalid', `No signing key ${kid}.`);
  }
}

/** The public key set served at /.well-known/skillyard-keys.json, newest first. */
export async function publicKeySet(db: Db): Promise<KeySet> {
  const rows = await db.signingKey.findMany({
    orderBy: { createdAt: 'desc' },
    select: { id: true, publicJwk: true, createdAt: true, retiredAt: true, revokedAt: true, revokeReason: true },
  });
  return {
    keys: rows.map((r): PublicSigningKey => {
      const jwk = r.publicJwk as { x: string };
      return {
        kty: 'OKP',
        crv: 'Ed25519',
        x: jwk.x,
        kid: r.id,
        alg: 'EdDSA',
        use: 'sig',
        status: r.revokedAt ? 'revoked' : r.retiredAt ? 'retired' : 'active',
        created: r.createdAt.toISOString(),
        ...(r.retiredAt ? { retired: r.retiredAt.toISOString() } : {}),
        ...(r.revokedAt ? { revoked: r.revokedAt.toISOString(), ...(r.revokeReason ? { revokeReason: r.revokeReason } : {}) } : {}),
      };
    }),
  };
}
