// Scoped API tokens for the CLI and other clients. The plaintext (`sy_<prefix>_<secret>`)
// is shown once at creation; only its SHA-256 is stored.
import 'server-only';
import crypto from 'node:crypto';
import type { Db } from '../db';
import { AppError } from '../errors';
import { apiTokenEpoch, cachedApiToken, rememberApiToken } from './api-token-cache';

export const API_TOKEN_SCOPES = ['publish', 'invoke', 'runs', 'teams'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** A team token acts as its team's service account: it never manages teams (no `teams`). */
export const TEAM_API_TOKEN_SCOPES = ['publish', 'invoke', 'runs'] as const satisfies readonly ApiTokenScope[];

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export async function createApiToken(
  db: Db,
  input: { userId: string; teamId?: string | null; createdById?: string | null; name: string; scopes: ApiTokenScope[]; expiresAt?: Date | null },
): Promise<{ id: string; token: string }> {
  // the last line of defence: whatever form or API asked, a team token gets no `teams` scope
  if (input.teamId && input.scopes.some((s) => !(TEAM_API_TOKEN_SCOPES as readonly string[]).includes(s))) {
    throw new AppError('input/invalid', `A team API token's scopes are some of ${TEAM_API_TOKEN_SCOPES.join(', ')}.`);
  }
  const prefix = crypto.randomBytes(4).toString('hex');
  const token = `sy_${prefix}_${crypto.randomBytes(24).toString('base64url')}`;
  const row = await db.apiToken.create({
    data: {
      userId: input.userId,
      teamId: input.teamId ?? null,
      createdById: input.createdById ?? null,
      name: input.name,
      prefix,
      hash: hashToken(token),
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { id: row.id, token };
}

/**
 * `teamId`: the token is a team's, acting as the team's service account (`userId`).
 * `chargeUserId`: whose rate limits, runs in progress and MCP sessions the token's requests
 * count against: its user, or for a team token the person who made it (teams and team
 * tokens cost nothing to make, so they must not each bring a budget of their own).
 */
export type ApiPrincipal = { userId: string; tokenId: string; scopes: string[]; teamId: string | null; chargeUserId: string };

/** Resolves `Authorization: Bearer sy_…`; null when there is no such header. */
export async function authenticateApiToken(db: Db, authorization: string | null): Promise<ApiPrincipal | null> {
  if (!authorization) return null;
  const m = /^Bearer\s+(sy_[0-9a-f]{8}_[A-Za-z0-9_-]{20,})$/.exec(authorization.trim());
  if (!m) throw new AppError('auth/unauthenticated', 'The Authorization header must be "Bearer <API token>".');
  const hash = hashToken(m[1]);
  let token = cachedApiToken(hash);
  if (!token) {
    const epoch = apiTokenEpoch();
    const row = await db.apiToken.findUnique({ where: { hash } });
    if (!row || row.revokedAt || expired(row.expiresAt)) throw unauthenticated();
    token = {
      id: row.id,
      userId: row.userId,
      teamId: row.teamId ?? null,
      chargeUserId: row.createdById ?? row.userId,
      scopes: row.scopes,
      expiresAt: row.expiresAt,
      lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    };
    rememberApiToken(hash, token, epoch);
  } else if (expired(token.expiresAt)) {
    throw unauthenticated();
  }
  // best effort, at most once a minute per token (a write per request would cost every call a round trip)
  const now = Date.now();
  if (token.lastUsedAt === null || now - token.lastUsedAt > 60_000) {
    token.lastUsedAt = now;
    void db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { userId: token.userId, tokenId: token.id, scopes: [...token.scopes], teamId: token.teamId, chargeUserId: token.chargeUserId };
}

const expired = (expiresAt: Date | null) => expiresAt !== null && expiresAt.getTime() <= Date.now();
const unauthenticated = () => new AppError('auth/unauthenticated', 'The API token is unknown, revoked or expired.');
