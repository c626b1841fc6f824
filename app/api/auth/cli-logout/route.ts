// POST /api/auth/cli-logout: revokes the API token that makes the request (`skillyard logout`).
import { NextResponse } from 'next/server';
import { withApi } from '@/lib/api';
import { revokeApiToken } from '@/lib/auth';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export const POST = withApi({}, async ({ principal }) => {
  if (principal.kind !== 'token') throw new AppError('auth/unauthenticated', 'Send the API token to revoke: Authorization: Bearer sy_…');
  await revokeApiToken(serverContext().db, principal.userId, principal.tokenId);
  return NextResponse.json({ revoked: true });
});
