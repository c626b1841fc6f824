// Held tokens on Postgres: what a caller holds (for the token gate) and minting (the
// kernel has already decided that a mint is allowed). Secrets are sealed at rest.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../../db';
import { heldTokensChanged, type HeldToken, type TokenVault } from '../../runtime';
import { openSecret, sealSecret } from '../../auth';

/** Holder ids are `user:<id>` or `team:<id>`; anything else holds nothing durable. */
export function parseHolder(holderId: string): { userId?: string; teamId?: string } | null {
  const [kind, id] = holderId.split(':', 2);
  if (!id) return null;
  if (kind === 'user') return { userId: id };
  if (kind === 'team') return { teamId: id };
  return null;
}

export async function loadHeldTokens(db: Db, holderId: string): Promise<HeldToken[]> {
  const holder = parseHolder(holderId);
  if (!holder) return [];
  const rows = await db.heldToken.findMany({ where: holder, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => ({ id: r.id, issuer: r.issuer, claims: r.claims, expiresAt: r.expiresAt, secret: openSecret(r.secret) }));
}

export function createPgTokenVault(db: Db, mintedByTool?: string): TokenVault {
  return {
    async mint(req) {
      const secret = crypto.randomBytes(24).toString('base64url');
      const holder = parseHolder(req.holderId);
      if (!holder) {
        // anonymous callers get the token for this call only; nothing is stored
        return { id: crypto.randomUUID(), issuer: req.issuer, claims: [...req.claims], expiresAt: req.expiresAt, secret };
      }
      const row = await db.heldToken.create({
        data: { ...holder, issuer: req.issuer, claims: req.claims, expiresAt: req.expiresAt, secret: sealSecret(secret), mintedByTool },
      });
      heldTokensChanged(req.holderId);
      return { id: row.id, issuer: row.issuer, claims: row.claims, expiresAt: row.expiresAt, secret };
    },
  };
}
