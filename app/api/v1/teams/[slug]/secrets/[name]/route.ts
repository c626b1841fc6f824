// PUT /api/v1/teams/{slug}/secrets/{name} {value}: set or replace a secret (admins; the
// value is never returned). DELETE: delete it.
import { z } from 'zod';
import { serverContext } from '@/lib/server';
import { withApi, teamActor } from '@/lib/api';
import { deleteTeamSecret, setTeamSecret } from '@/lib/teams';

export const dynamic = 'force-dynamic';
type P = { slug: string; name: string };

export const PUT = withApi<P, { value: string }>({ body: z.object({ value: z.string() }) }, async (ctx) => {
  await setTeamSecret(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.params.name, ctx.body.value);
  return new Response(null, { status: 204 });
});

export const DELETE = withApi<P>({}, async (ctx) => {
  await deleteTeamSecret(serverContext().db, teamActor(ctx), ctx.params.slug, ctx.params.name);
  return new Response(null, { status: 204 });
});
