// POST /api/v1/teams/{slug}/invites {role?, email?}: an invitation link (admins); the link
// is in this answer only.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { createInvite } from '@/lib/teams';

export const dynamic = 'force-dynamic';
type P = { slug: string };
const Body = z.object({ role: z.string().max(20).optional(), email: z.string().max(320).optional() });

export const POST = withApi<P, z.infer<typeof Body>>({ body: Body }, async (ctx) => {
  const inv = await createInvite(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.body);
  const url = new URL(`/teams/join?code=${inv.secret}`, ctx.req.url).toString();
  return NextResponse.json({ id: inv.id, role: inv.role, email: inv.email, expiresAt: inv.expiresAt, url, code: inv.secret }, { status: 201 });
});
