// What `skillyard whoami` shows: the user behind an API token, and the token's scopes.
import 'server-only';
import type { Db } from '../db';
import { AppError } from '../errors';
import type { ApiPrincipal } from './api-tokens';

export async function describeTokenOwner(db: Db, principal: Pick<ApiPrincipal, 'userId' | 'tokenId' | 'scopes'>) {
  const [user, token] = await Promise.all([
    db.user.findUnique({ where: { id: principal.userId }, select: { handle: true, name: true } }),
    db.apiToken.findUnique({ where: { id: principal.tokenId }, select: { name: true, prefix: true, expiresAt: true } }),
  ]);
  if (!user || !token) throw new AppError('auth/unauthenticated', 'The API token is unknown, revoked or expired.');
  return {
    handle: user.handle,
    name: user.name,
    token: { name: token.name, prefix: `sy_${token.prefix}`, scopes: principal.scopes, expiresAt: token.expiresAt?.toISOString() ?? null },
  };
}
