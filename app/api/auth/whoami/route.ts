// GET /api/auth/whoami: who this API token belongs to (`skillyard whoami`).
import { NextResponse } from 'next/server';
import { handleRoute } from '@/lib/api/handle-route';
import { describeTokenOwner } from '@/lib/auth/token-owner';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export const GET = handleRoute(async ({ principal }) => {
  if (!principal) throw new AppError('auth/unauthenticated', 'Send an API token: Authorization: Bearer sy_…');
  return NextResponse.json(await describeTokenOwner(serverContext().db, principal));
});
