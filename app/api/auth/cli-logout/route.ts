// POST /api/auth/cli-logout: revokes the API token that makes the request (`skillyard logout`).
import { NextResponse } from 'next/server';
import { handleRoute } from '@/lib/api/handle-route';
import { revokeApiToken } from '@/lib/auth/manage-api-tokens';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export const POST = handleRoute(async ({ principal }) => {
  if (!principal) throw new AppError('auth/unauthenticated', 'Send the API token to revoke: Authorization: Bearer sy_…');
  await revokeApiToken(serverContext().db, principal.userId, principal.tokenId);
  return NextResponse.json({ revoked: true });
});
