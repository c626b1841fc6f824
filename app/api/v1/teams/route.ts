// GET /api/v1/teams: the caller's teams. POST: create a team {slug, name?}.
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { createTeam, listUserTeams } from '@/lib/teams';

export const dynamic = 'force-dynamic';

export const GET = withApi({}, async (ctx) => {
  const actor = teamActor(ctx);
  return NextResponse.json({ teams: await listUserTeams(serverContext().db, actor.principal.kind === 'user' ? actor.principal.userId : '') });
});

const Create = z.object({ slug: z.string().max(64), name: z.string().max(100).optional() });

export const POST = withApi({ body: Create }, async (ctx) => {
  const team = await createTeam(serverContext().db, teamActor(ctx), ctx.body);
  return NextResponse.json({ team }, { status: 201 });
});
