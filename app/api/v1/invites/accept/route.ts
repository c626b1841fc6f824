// POST /api/v1/invites/accept {code}: join the team of an invitation (signed in).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { acceptInvite } from '@/lib/teams';

export const dynamic = 'force-dynamic';

export const POST = withApi<Record<string, never>, { code: string }>({ body: z.object({ code: z.string().max(100) }) }, async (ctx) => {
  return NextResponse.json(await acceptInvite(serverContext().db, teamActor(ctx), ctx.body.code));
});
