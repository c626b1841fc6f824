// PATCH /api/v1/teams/{slug}/members/{userId} {role}: change a role (admins; owners for
// owners). DELETE: remove a member (admins), or leave (yourself).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { changeMemberRole, removeMember } from '@/lib/teams';

export const dynamic = 'force-dynamic';
type P = { slug: string; userId: string };

export const PATCH = withApi<P, { role: string }>({ body: z.object({ role: z.string().max(20) }) }, async (ctx) => {
  await changeMemberRole(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.params.userId, ctx.body.role);
  return NextResponse.json({ userId: ctx.params.userId, role: ctx.body.role });
});

export const DELETE = withApi<P>({}, async (ctx) => {
  await removeMember(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.params.userId);
  return new Response(null, { status: 204 });
});
