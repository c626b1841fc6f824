// GET /api/v1/teams/{slug}: the workspace as this member sees it (404 to non-members).
// PATCH {name}: rename (admins). DELETE: delete the team (owners; no public skills).
import { NextResponse } from 'next/server';
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { deleteTeam, getWorkspace, renameTeam } from '@/lib/teams';

export const dynamic = 'force-dynamic';
type P = { slug: string };

export const GET = withApi<P>({}, async (ctx) => {
  const ws = await getWorkspace(serverContext().db, teamActor(ctx), ctx.params.slug);
  const { userId: _me, ...team } = ws.team;
  return NextResponse.json({ ...ws, team });
});

export const PATCH = withApi<P, { name: string }>({ body: z.object({ name: z.string().max(100) }) }, async (ctx) => {
  const team = await renameTeam(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.body.name);
  return NextResponse.json({ team: { slug: team.slug, name: team.name } });
});

export const DELETE = withApi<P>({}, async (ctx) => {
  await deleteTeam(serverContext().db, teamActor(ctx), ctx.params.slug);
  return new Response(null, { status: 204 });
});
