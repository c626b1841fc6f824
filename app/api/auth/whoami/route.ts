// GET /api/auth/whoami: who this API token belongs to (`skillyard whoami`).
import { NextResponse } from 'next/server';
import { withApi } from '@/lib/api';
import { describeTokenOwner } from '@/lib/auth';
import { AppError } from '@/lib/errors';
import { serverContext } from '@/lib/server';

export const dynamic = 'force-dynamic';

export const GET = withApi({}, async ({ principal }) => {
  if (principal.kind !== 'token') throw new AppError('auth/unauthenticated', 'Send an API token: Authorization: Bearer sy_…');
  return NextResponse.json(await describeTokenOwner(serverContext().db, principal));
});
