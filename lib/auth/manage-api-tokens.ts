// The settings side of API tokens: list (never the secret, only its prefix), create with
// scopes and an expiry, revoke. Creating returns the plaintext once (api-tokens.ts).
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import { forgetApiTokenId } from './api-token-cache';
import { API_TOKEN_SCOPES, createApiToken, type ApiTokenScope } from './api-tokens';

export const MAX_TOKENS_PER_USER = 50;

export type ApiTokenRow = { id: string; name: string; prefix: string; scopes: string[]; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null; revokedAt: Date | null };

export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db.apiToken.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, expiresAt: true, revokedAt: true },
  });
}

export async function issueApiToken(db: Db, userId: string, input: { name: string; scopes: string[]; expiresInDays: number | null }): Promise<{ id: string; token: string }> {
  const name = input.name.trim();
  if (!name || name.length > 60) throw new AppError('input/invalid', 'Give the token a name of 1 to 60 characters.');
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !(API_TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new AppError('input/invalid', `Unknown scope: ${unknown.join(', ')} (known: ${API_TOKEN_SCOPES.join(', ')}).`);
  if (scopes.length === 0) throw new AppError('input/invalid', 'Pick at least one scope.');
  if (input.expiresInDays !== null && (!Number.isInteger(input.expiresInDays) || input.expiresInDays < 1 || input.expiresInDays > 366)) {
    throw new AppError('input/invalid', 'A token expires after 1 to 366 days, or never.');
  }
  const live = await db.apiToken.count({ where: { userId, revokedAt: null } });
  if (live >= MAX_TOKENS_PER_USER) throw new AppError('input/invalid', `You have ${live} tokens; revoke some first (at most ${MAX_TOKENS_PER_USER}).`);
  const expiresAt = input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * 86_400_000);
  return createApiToken(db, { userId, name, scopes: scopes as ApiTokenScope[], expiresAt });
}

/** Revokes one of the user's tokens; another user's token id is "not found". */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<void> {
  const { count } = await db.apiToken.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  // every instance forgets it when the database's notice arrives; this one at once
  forgetApiTokenId(id);
  if (count === 0) throw new AppError('token/not-found', 'No such token.');
}
